#!/usr/bin/env bash
# tier: long
# kernel-check's tsan column (scripts/kernel-tsan) on fixture trees of ours,
# one TSan build for all (the trees are laid out in turn at one path, so only
# the tree's object is rebuilt):
#   1 base (lib/hpcc laid out as a tree): PASS, four runs, exit 0
#   2 plain-bias-load.patch (the bias loaded without READ_ONCE()): FAIL,
#     class crash, a data race naming the plain read in precise_sum and the
#     atomic write in set_bias, exit 1
#   3 plain-bias-store.patch (stored without WRITE_ONCE()): FAIL naming the
#     plain write in set_bias (against a sum's read, or another set()), exit 1
#   4 no clang with a TSan runtime: SKIP, exit 0
# Both slips pass every value check (the unit tests and ./stress: an aligned
# word access is untorn); docs/kernel-trees.md#the-tsan-column.
# Env: BUILD (default build/cc). KTAP on stdout.
# shellcheck source=tests/lib/sh/common.sh
. "$(dirname "$0")/../lib/sh/common.sh"
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
echo "KTAP version 1"
skip_under_kernel_src fixture_trees
echo "1..4"
n=0 failed=0
build=${BUILD:-build/cc}
kt=$build/ktools
src=$kt/tree
unset MAKEFLAGS MAKELEVEL MFLAGS

# lay [PATCH]: lib/hpcc laid out at $src, with the fixture patch applied.
lay() {
	rm -rf "$src"
	mkdir -p "$src/lib" "$src/include/linux"
	cp lib/hpcc/percpu_counter_tree.c "$src/lib/"
	# The header keeps its time: only the tree's object is rebuilt.
	cp -p lib/hpcc/include/linux/percpu_counter_tree.h "$src/include/linux/"
	[ -z "${1:-}" ] || patch -s -d "$src" -p1 <"tests/seam/fixtures/ktrees/$1.patch"
}
tsan() {
	out=$(scripts/kernel-tsan "$src" "$kt/b" 2>&1); rc=$?
}
if ! printf 'int main(void){return 0;}\n' | clang -fsanitize=thread -x c -o /dev/null - 2>/dev/null; then
	for t in base_pass plain_load_found plain_store_found; do
		n=$((n + 1)); echo "ok $n $t # SKIP no clang with -fsanitize=thread"
	done
else
	lay
	tsan
	[ $rc = 0 ] && [ "$out" = $'tsan\tPASS\t4 runs' ]
	result $? base_pass "exit $rc: $out"$'\n'"$(tail -n 20 "$kt/b-tsan.log")"
	lay plain-bias-load
	tsan
	[ $rc = 1 ] && [[ $out == $'tsan\tFAIL\tcrash\tdata race: plain read in percpu_counter_tree_precise_sum lib/percpu_counter_tree.c:'*' vs atomic write in percpu_counter_tree_set_bias lib/percpu_counter_tree.c:'* ]]
	result $? plain_load_found "exit $rc: $out"
	lay plain-bias-store
	tsan
	[ $rc = 1 ] && [[ $out == $'tsan\tFAIL\tcrash\tdata race: plain write in percpu_counter_tree_set_bias lib/percpu_counter_tree.c:'* ]]
	result $? plain_store_found "exit $rc: $out"
fi
out=$(TSAN_CC=no-such-clang scripts/kernel-tsan "$src" "$kt/b" 2>&1); rc=$?
[ $rc = 0 ] && [ "$out" = $'tsan\tSKIP\tno no-such-clang with -fsanitize=thread' ]
result $? absent_skip "exit $rc: $out"
[ $failed = 0 ]
