#!/usr/bin/env bash
# tier: long
# scripts/explore-trees over fixture trees of our own: lib/hpcc laid out as a
# tree (every harness complete, exit 0), the same with the mutant
# hpcc-root-carry-read-set (counter_storm fails approx_window, the other
# harnesses complete, exit 1), the RFC and int-items fixtures (refused by
# the full suite: counter_storm through the adapter completes, one row says
# oom and compaction were not run), the RFC fixture with rfc-sign.patch
# (counter_storm through the adapter fails precise_compare), a directory
# that is not a tree (exit 2),
# and lib/hpcc whose precise sum reads each CPU's word twice with plain
# loads (2w - w, as a tree's plain loads through per_cpu_ptr()): each load
# is a point on a tree, so an add between the two fails precise_sum (without
# those points the sum ran atomically and every schedule passed).
# Env: BUILD (default build/cc), CC. KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
# shellcheck source=tests/lib/sh/seam.sh
. tests/lib/sh/seam.sh
seam_begin 6 xptrees-fx
export BUILD=$work/build

lay() {	# NAME FROM: FROM's two hpcc files as $work/NAME
	mkdir -p "$work/$1/lib" "$work/$1/include/linux"
	cp "$2/percpu_counter_tree.c" "$work/$1/lib/"
	cp "$2/include/linux/percpu_counter_tree.h" "$work/$1/include/linux/"
}
lay base lib/hpcc
lay carry lib/hpcc
patch -s "$work/carry/lib/percpu_counter_tree.c" <mutants/hpcc-root-carry-read-set.patch
lay twice lib/hpcc
sed -i 's/READ_ONCE(\*per_cpu_ptr(counter->level0, cpu))/2 * *per_cpu_ptr(counter->level0, cpu) - *per_cpu_ptr(counter->level0, cpu)/' \
	"$work/twice/lib/percpu_counter_tree.c"
for t in rfc:rfc int:int-items rfcsign:rfc; do
	mkdir -p "$work/${t%%:*}"
	cp -r "tests/seam/fixtures/ktrees/${t#*:}/lib" "tests/seam/fixtures/ktrees/${t#*:}/include" \
		"$work/${t%%:*}/"
done
patch -s -d "$work/rfcsign" -p1 <tests/seam/fixtures/ktrees/rfc-sign.patch
mkdir -p "$work/empty"

# rows TREE: the output's rows for TREE
rows() { grep "^| $1 |" "$work/out"; }

bad=
out=$(scripts/explore-trees "$work/base" "$work/empty" 2>"$log")
rc=$?
err=$(cat "$log")
if [ "$rc" -ne 2 ] || [ -n "$out" ] || [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ] ||
   ! grep -q 'empty: no lib/percpu_counter_tree.c' <<<"$err"; then
	bad+="not a tree: rc=$rc stdout=[$out] stderr=[$err]"$'\n'
fi
result 1 not_a_tree

bad=
scripts/explore-trees "$work/base" "$work/carry" "$work/rfc" "$work/int" "$work/rfcsign" \
	"$work/twice" >"$work/out" 2>"$log"
rc=$?
[ "$rc" -eq 1 ] || bad+="six trees: exit $rc, expected 1"$'\n'
n=$(rows base | grep -c '| complete within bound [12] |')
[ "$n" -eq 10 ] || bad+="base: $n of 10 rows complete"$'\n'
rows base | grep -q '(kernel)' && bad+="base: a kernel selection without mm/oom_kill.c"$'\n'
result 2 base_complete

bad=
rows carry | grep -q '| counter_storm 2x3+1 b2 | [0-9]* | FAIL approx_window after ' ||
	bad+="carry: counter_storm did not fail approx_window"$'\n'
n=$(rows carry | grep -c '| complete within bound [12] |')
[ "$n" -eq 8 ] || bad+="carry: $n rows complete, expected the 8 oom, compaction and zone_desc rows"$'\n'
result 3 carry_mutant_fails

bad=
for t in rfc:rfc int:int-items; do
	n=$(rows "${t%%:*}" | grep -c "| counter_storm [^|]* (adapter ${t#*:}) | [0-9]* | complete within bound 2 |")
	[ "$n" -eq 2 ] || bad+="${t%%:*}: $n of 2 counter_storm rows complete through the adapter"$'\n'
	rows "${t%%:*}" | grep -q '| oom, compaction, zone_desc | - | not run: ' ||
		bad+="${t%%:*}: no 'not run' row for oom and compaction"$'\n'
	[ "$(rows "${t%%:*}" | wc -l)" -eq 3 ] || bad+="${t%%:*}: expected 3 rows"$'\n'
done
[ -n "$bad" ] && bad+=$(sed -e 's/^/out: /' "$work/out")$'\n'
result 4 older_apis_through_adapter

bad=
grep -q '2 \* \*per_cpu_ptr' "$work/twice/lib/percpu_counter_tree.c" ||
	bad+="twice: the fixture's sum was not rewritten"$'\n'
rows twice | grep -q '| counter_storm 2x3+1 b2 | [0-9]* | FAIL precise_sum after ' ||
	bad+="twice: counter_storm did not fail precise_sum"$'\n'
[ -n "$bad" ] && bad+=$(rows twice | sed -e 's/^/out: /')$'\n'
result 5 plain_percpu_loads_interleave

bad=
rows rfcsign | grep -q '| counter_storm 2x3+1 b2 (adapter rfc) | [0-9]* | FAIL precise_compare after ' ||
	bad+="rfcsign: counter_storm through the adapter did not fail precise_compare"$'\n'
[ -n "$bad" ] && bad+=$(rows rfcsign | sed -e 's/^/out: /')$'\n'
result 6 adapter_finds_seeded_bug

exit $((failed > 0))
