#!/usr/bin/env bash
# scripts/probe's refusal tells what it found (docs/kernel-trees.md): a
# symbol is "missing" only when the tree does not declare it; one declared
# with another type is "present as '<the compiler's type>', expected
# '<type>'". Fixtures: lib/hpcc's header as is (accepted), with
# precise_sum() returning int and subsystem_init() removed, and the RFC
# tree's header. Only the require probes run (no build of the suite).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cc=${CC:-cc}
n=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$root/tests/lib/sh/common.sh"

echo "KTAP version 1"
echo "1..3"
probes=$(grep -l -e '^// mode: require' -e '^// yes: rfc-' "$root"/mk/probes/hpcc/*.c)

probe() {	# probe NAME HEADER: the refusal line in $out, the status in $prc
	mkdir -p "$tmp/$1/linux"
	cp "$2" "$tmp/$1/linux/percpu_counter_tree.h"
	# shellcheck disable=SC2086
	"$root/scripts/probe" --cc "$cc" --guard _HPCC_API_H --what "fixture $1" \
		--out "$tmp/$1/api.h" --cflags "-std=gnu11 -Wall -Wextra -Werror \
		-Wno-unused-parameter -pthread -D_GNU_SOURCE -DCONFIG_SMP=1 -DNR_CPUS=8192 \
		-I$tmp/$1 -I$root/lib/kcompat/include -I$root/lib" $probes 2>"$tmp/$1/err"
	prc=$?
	out=$(cat "$tmp/$1/err")
}

probe same "$root/lib/hpcc/include/linux/percpu_counter_tree.h"
[ $prc = 0 ] && [ -z "$out" ]
result $? unchanged_header_accepted "rc=$prc: $out"

sed -e 's/^long percpu_counter_tree_precise_sum(/int percpu_counter_tree_precise_sum(/' \
    -e '/^int percpu_counter_tree_subsystem_init(void);/d' \
    "$root/lib/hpcc/include/linux/percpu_counter_tree.h" >"$tmp/changed.h"
probe changed "$tmp/changed.h"
[ $prc = 2 ] &&
grep -q "percpu_counter_tree_precise_sum() present as 'int (\*)(struct percpu_counter_tree \*)', expected 'long (\*)(struct percpu_counter_tree \*)'" <<<"$out" &&
grep -q "missing percpu_counter_tree_subsystem_init()" <<<"$out" &&
! grep -q -e "missing long values" -e "missing percpu_counter_tree_precise_sum" <<<"$out" &&
! grep -q "approximate_compare_value" <<<"$out"
result $? changed_signature_named_with_its_type "rc=$prc: $out"

probe rfc "$root/tests/seam/fixtures/ktrees/rfc/include/linux/percpu_counter_tree.h"
[ $prc = 2 ] &&
grep -q "percpu_counter_tree_approximate_compare_value() present as 'int (\*)(struct percpu_counter_tree \*, int)'" <<<"$out" &&
grep -q "missing percpu_counter_tree_init_many().*RFC API" <<<"$out"
result $? rfc_header_told_what_it_has "rc=$prc: $out"

[ "$failed" = 0 ]
