#!/usr/bin/env bash
# tier: long
# scripts/probe --cache (mk/kernel.mk): a probe whose inputs hold the same
# contents again gives its kept result without a compile; a changed header
# re-runs the probes that read it, a changed object the run probe that
# links it, each with its new result. Fixtures of ours: a header declaring
# fixture_value() or not, a compile probe calling it, a run probe linking
# an object where it returns 1 or 2; the compiler behind a wrapper that
# counts its calls.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/lib/sh/ktap.sh"
ktap_begin
echo "1..4"
mkdir -p "$tmp/inc/linux"
printf '#!/bin/sh\necho cc >>"%s/calls"\nexec %s "$@"\n' "$tmp" "${CC:-cc}" >"$tmp/cc"
chmod +x "$tmp/cc"
cat >"$tmp/decl.c" <<'P'
// probe: T_DECL
// mode: compile
// yes: decl
// no: no-decl
#include <linux/percpu_counter_tree.h>
long probe_decl(void) { return fixture_value(); }
P
cat >"$tmp/run.c" <<'P'
// probe: T_RUN
// mode: run
// yes: one
// no: not-one
long fixture_value(void);
int main(void) { return fixture_value() == 1 ? 0 : 1; }
P
# header TEXT / object N: the tree's header, the object's fixture_value().
header() { printf '%s\n' "$1" >"$tmp/inc/linux/percpu_counter_tree.h"; }
object() {
	printf 'long fixture_value(void);\nlong fixture_value(void) { return %s; }\n' "$1" >"$tmp/obj.c"
	"${CC:-cc}" -c -o "$tmp/obj.o" "$tmp/obj.c"
}
# probe: the header's macros in $got, the compiler's calls so far in $calls.
probe() {
	"$root/scripts/probe" --cc "$tmp/cc" --cflags "-std=gnu11 -Wall -Werror -I$tmp/inc" \
		--guard _T_API_H --out "$tmp/api.h" --link "$tmp/obj.o" --cache "$tmp/cache" \
		"$tmp/decl.c" "$tmp/run.c"
	got=$(grep -o 'T_[A-Z]* [01]' "$tmp/api.h" | tr '\n' ' ')
	calls=$(wc -l <"$tmp/calls")
}

header 'long fixture_value(void);'
object 1
probe
[ "$got" = "T_DECL 1 T_RUN 1 " ] && [ "$calls" = 2 ]
result $? first_run_compiles_each "got: $got; calls: $calls"

probe
[ "$got" = "T_DECL 1 T_RUN 1 " ] && [ "$calls" = 2 ]
result $? unchanged_inputs_kept "got: $got; calls: $calls (2 before)"

header '/* no declaration */'
probe
[ "$got" = "T_DECL 0 T_RUN 1 " ] && [ "$calls" = 3 ]
result $? changed_header_probed_again "got: $got; calls: $calls (3 expected)"

object 2
probe
[ "$got" = "T_DECL 0 T_RUN 0 " ] && [ "$calls" -le 5 ]
result $? changed_object_run_again "got: $got; calls: $calls"

[ "$failed" = 0 ]
