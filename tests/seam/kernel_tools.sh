#!/usr/bin/env bash
# tier: long
# kernel-check's tsan column (scripts/kernel-tsan) on fixture trees of ours,
# one TSan build for all (the trees are laid out in turn at one path, so only
# the tree's object is rebuilt; the build directory is the one kernel-check
# gives that path, so its own tsan column reuses the build too):
#   1 base (lib/hpcc laid out as a tree): PASS, four runs, exit 0
#   2 plain-bias-store.patch (stored without WRITE_ONCE()): FAIL naming the
#     plain write in set_bias (against a sum's read, or another set()), exit 1
#   3 plain-bias-load.patch (the bias loaded without READ_ONCE()) through
#     scripts/kernel-check with its default columns (narrowed by --unit,
#     --cpus, --steps, none of which turns a column off) and --findings:
#     the header has the asan, tsan and sparse columns; unit, stress and
#     asan clean, tsan FAIL, class crash, a data race naming the plain read
#     in precise_sum and the atomic write in set_bias; exit 1
#   4 its asan column ran the programs --unit names: the unit column's counts
#   5 its tsan record reached scripts/findings: one report, the race and
#     "no deterministic KUnit case: a data race", no KUnit case
#   6 no clang with a TSan runtime: SKIP, exit 0
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
echo "1..6"
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
lay
# kernel-check's build directory for $src (build/kcheck/NAME-CKSUM).
kc=build/kcheck/tree-$(cd "$src" && pwd | cksum | cut -d' ' -f1)
tsan() {
	out=$(scripts/kernel-tsan "$src" "$kc" 2>&1); rc=$?
}
if ! printf 'int main(void){return 0;}\n' | clang -fsanitize=thread -x c -o /dev/null - 2>/dev/null; then
	for t in base_pass plain_store_found defaults_catch_plain_load asan_ran_unit_programs \
		 tsan_record_is_a_finding; do
		n=$((n + 1)); echo "ok $n $t # SKIP no clang with -fsanitize=thread"
	done
else
	tsan
	[ $rc = 0 ] && [ "$out" = $'tsan\tPASS\t4 runs' ]
	result $? base_pass "exit $rc: $out"$'\n'"$(tail -n 20 "$kc-tsan.log")"
	lay plain-bias-store
	tsan
	[ $rc = 1 ] && [[ $out == $'tsan\tFAIL\tcrash\tdata race: plain write in percpu_counter_tree_set_bias lib/percpu_counter_tree.c:'* ]]
	result $? plain_store_found "exit $rc: $out"

	lay plain-bias-load
	fo=$kt/findings
	rm -rf "$fo" "$kc.verdict"
	scripts/kernel-check --unit test_hpcc_set --cpus 2 --steps 2000 --duration 60s --seed 1 \
		--findings "$fo" "$src" >"$kt/kcheck.out" 2>"$kt/kcheck.err"
	rc=$?
	head=$(sed -n 1p "$kt/kcheck.out")
	IFS='|' read -r _ _ _ _ builds unit stress asan tcol sparse _ <<<"$(sed -n 3p "$kt/kcheck.out")"
	trim() { sed 's/^ *//; s/ *$//' <<<"$1"; }
	builds=$(trim "$builds") unit=$(trim "$unit") stress=$(trim "$stress")
	asan=$(trim "$asan") tcol=$(trim "$tcol") sparse=$(trim "$sparse")
	[ $rc = 1 ] && [[ $head == *' | stress per scenario | asan pass/fail/skip | tsan | sparse |' ]] &&
		[ "$builds" = yes ] && [[ $unit =~ ^[0-9]+/0/[0-9]+$ ]] &&
		[ "$stress" = 'compaction_churn PASS, counter_storm PASS, oom_race PASS' ] &&
		[[ $asan =~ ^[0-9]+/0/[0-9]+$ ]] &&
		[[ $tcol == "**FAIL** (crash: data race: plain read in percpu_counter_tree_precise_sum lib/percpu_counter_tree.c:"*" vs atomic write in percpu_counter_tree_set_bias lib/percpu_counter_tree.c:"* ]] &&
		[[ $sparse == PASS || $sparse == 'SKIP ('* ]]
	result $? defaults_catch_plain_load "exit $rc; builds '$builds', unit '$unit', stress \
'$stress', asan '$asan', tsan '$tcol', sparse '$sparse'
$(cat "$kt/kcheck.out")
$(tail -n 5 "$kt/kcheck.err")"
	# The same slot as cases 1-2: else the TSan build was not shared.
	[ -f "$kc.verdict" ] || echo "# kernel-check judged $src elsewhere than $kc"
	[ -n "$unit" ] && [ "$asan" = "$unit" ]
	result $? asan_ran_unit_programs "asan '$asan', unit '$unit'"

	ls=$(cd "$fo" 2>/dev/null && ls)
	txt=$fo/tsan-data_race-crash-precise_sum.txt
	# (Its lines are wrapped at 72 columns: joined again.)
	text=$(tr -s ' \n' ' ' <"$txt" 2>/dev/null)
	[ "$ls" = "tsan-data_race-crash-precise_sum.tsan.log
tsan-data_race-crash-precise_sum.txt" ] &&
		[[ $text == *'data race: plain read in percpu_counter_tree_precise_sum'* ]] &&
		[[ $text == *'No KUnit case: no deterministic KUnit case: a data race'* ]]
	result $? tsan_record_is_a_finding "$fo: ${ls:-nothing}"$'\n'"$(cat "$txt" 2>&1)"
fi
out=$(TSAN_CC=no-such-clang scripts/kernel-tsan "$src" "$kc" 2>&1); rc=$?
[ $rc = 0 ] && [ "$out" = $'tsan\tSKIP\tno no-such-clang with -fsanitize=thread' ]
result $? absent_skip "exit $rc: $out"
[ $failed = 0 ]
