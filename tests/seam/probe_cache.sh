#!/usr/bin/env bash
# tier: long
# scripts/probe --cache (mk/kernel.mk): a probe whose inputs hold the same
# contents again gives its kept result without a compile; a changed header
# re-runs the probes that read it, a changed object the run probe that
# links it, each with its new result. Fixtures of ours: a header declaring
# fixture_value() or not, a compile probe calling it, a run probe linking
# an object where it returns 1 or 2; the compiler behind a wrapper that
# counts its calls. Then copies of such a tree and of its build elsewhere
# (as scripts/mutants makes them): a copy whose files are unchanged takes
# the kept results of the original's probes; a copy with a changed header
# (the tree's or one the build generated) or object probes it again.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/lib/sh/ktap.sh"
ktap_begin
echo "1..8"
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

# A tree (src: the header, the probes; build: a generated header the
# probe also reads, the object, the cache), probed from its directory with
# relative flags as make runs it, and copies of it.
mkdir -p "$tmp/a/src/inc/linux" "$tmp/a/build/kinc"
sed 's|#include <linux/percpu_counter_tree.h>|&\n#include "gen.h"|' "$tmp/decl.c" >"$tmp/a/src/decl.c"
cp "$tmp/run.c" "$tmp/a/src/"
printf 'long fixture_value(void);\n' >"$tmp/a/src/inc/linux/percpu_counter_tree.h"
printf '/* generated */\n' >"$tmp/a/build/kinc/gen.h"
cp "$tmp/obj.o" "$tmp/a/build/obj.o"	# returns 2: T_RUN 0
# tprobe T: probe tree $tmp/T as make would (its build given absolute).
tprobe() {
	(cd "$tmp/$1/src" && "$root/scripts/probe" --cc "$tmp/cc" \
		--cflags "-std=gnu11 -Wall -Werror -Iinc -I$tmp/$1/build/kinc" \
		--guard _T_API_H --out "$tmp/$1/build/api.h" --link "$tmp/$1/build/obj.o" \
		--cache "$tmp/$1/build/probe-cache" --build "$tmp/$1/build" decl.c run.c)
	got=$(grep -o 'T_[A-Z]* [01]' "$tmp/$1/build/api.h" | tr '\n' ' ')
	calls=$(wc -l <"$tmp/calls")
}
tprobe a
before=$calls
# copy T: a copy of tree a, mtimes kept.
copy() { cp -a "$tmp/a" "$tmp/$1"; }
copy b
tprobe b
[ "$got" = "T_DECL 1 T_RUN 0 " ] && [ "$calls" = "$before" ]
result $? copy_unchanged_kept "got: $got; calls: $calls ($before before)"

copy c
printf '/* no declaration */\n' >"$tmp/c/src/inc/linux/percpu_counter_tree.h"
tprobe c
[ "$got" = "T_DECL 0 T_RUN 0 " ] && [ "$calls" = $((before + 1)) ]
result $? copy_changed_header_probed_again "got: $got; calls: $calls ($before before)"
before=$calls

copy d
printf '#error generated header changed\n' >"$tmp/d/build/kinc/gen.h"
tprobe d
[ "$got" = "T_DECL 0 T_RUN 0 " ] && [ "$calls" = $((before + 1)) ]
result $? copy_changed_build_header_probed_again "got: $got; calls: $calls ($before before)"
before=$calls

copy e
printf 'long fixture_value(void);\nlong fixture_value(void) { return 1; }\n' >"$tmp/obj.c"
"${CC:-cc}" -c -o "$tmp/e/build/obj.o" "$tmp/obj.c"
tprobe e
[ "$got" = "T_DECL 1 T_RUN 1 " ] && [ "$calls" = $((before + 1)) ]
result $? copy_changed_object_run_again "got: $got; calls: $calls ($before before)"

[ "$failed" = 0 ]
