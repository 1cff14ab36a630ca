#!/usr/bin/env bash
# scripts/explore-trees over fixture trees of our own: lib/hpcc laid out as a
# tree (every harness complete, exit 0), the same with the mutant
# hpcc-root-carry-read-set (counter_storm fails approx_window, the other
# harnesses complete, exit 1), the RFC fixture (the explorer needs the long
# API: one "does not build" row), and a directory that is not a tree (exit 2).
# Env: BUILD (default build/cc), CC. KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
# shellcheck source=tests/sh/seam.sh
. tests/sh/seam.sh
seam_begin 4 xptrees-fx
export BUILD=$work/build

lay() {	# NAME FROM: FROM's two hpcc files as $work/NAME
	mkdir -p "$work/$1/lib" "$work/$1/include/linux"
	cp "$2/percpu_counter_tree.c" "$work/$1/lib/"
	cp "$2/include/linux/percpu_counter_tree.h" "$work/$1/include/linux/"
}
lay base lib/hpcc
lay carry lib/hpcc
patch -s "$work/carry/lib/percpu_counter_tree.c" <mutants/hpcc-root-carry-read-set.patch
mkdir -p "$work/rfc"
cp -r tests/fixtures/ktrees/rfc/lib tests/fixtures/ktrees/rfc/include "$work/rfc/"
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
scripts/explore-trees "$work/base" "$work/carry" "$work/rfc" >"$work/out" 2>"$log"
rc=$?
[ "$rc" -eq 1 ] || bad+="three trees: exit $rc, expected 1"$'\n'
n=$(rows base | grep -c '| complete within bound [12] |')
[ "$n" -eq 7 ] || bad+="base: $n of 7 rows complete"$'\n'
rows base | grep -q '(kernel)' && bad+="base: a kernel selection without mm/oom_kill.c"$'\n'
result 2 base_complete

bad=
rows carry | grep -q '| counter_storm 2x3+1 b2 | [0-9]* | FAIL approx_window after ' ||
	bad+="carry: counter_storm did not fail approx_window"$'\n'
n=$(rows carry | grep -c '| complete within bound [12] |')
[ "$n" -eq 6 ] || bad+="carry: $n rows complete, expected the 6 oom and compaction rows"$'\n'
result 3 carry_mutant_fails

bad=
[ "$(rows rfc | wc -l)" -eq 1 ] && rows rfc | grep -q '| - | - | does not build: ' ||
	bad+="rfc: expected one 'does not build' row"$'\n'
[ -n "$bad" ] && bad+=$(sed -e 's/^/out: /' "$work/out")$'\n'
result 4 rfc_does_not_build

exit $((failed > 0))
