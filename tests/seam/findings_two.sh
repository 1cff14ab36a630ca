#!/usr/bin/env bash
# tier: long
# scripts/kernel-check --findings (docs/kernel-trees.md#findings-a-maintainer-can-act-on)
# on a tree with two independent defects, each with its catalogue fix:
# the RFC-shaped fixture with tests/seam/fixtures/ktrees/rfc-two.patch
# (the compare_value signs, compare-value-sign; precise_compare's,
# precise-compare-sign). The copy with one fix still shows the other
# defect, and counter_storm names whichever wrong function it meets
# first, so the copy of the fix for the function the tree's run named
# always shows a finding the tree's run did not: another fix covers it.
# Checked: both fixes reported cleared, with their diffs; the three unit
# findings' KUnit cases written, the two of compare-value-sign in its one
# report's file; the fixes judged together (their verdict, and the report
# that says so); nothing else written.
# Env: CC. KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/sh/common.sh
. "$root/tests/lib/sh/common.sh"
cd "$root" || exit 1
echo "KTAP version 1"
skip_under_kernel_src findings_two
echo "1..4"
unset MAKEFLAGS MAKELEVEL MFLAGS
n=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
two=$tmp/two out=$tmp/out
mkdir -p "$two"
cp -r tests/seam/fixtures/ktrees/rfc/. "$two/"
patch -s -d "$two" -p1 <tests/seam/fixtures/ktrees/rfc-two.patch
touch "$tmp/start"

scripts/kernel-check --duration 0.2s --cpus 2 --jobs 2 --no-san --no-tsan --no-sparse \
	--findings "$out" "$two" >"$tmp/run.out" 2>&1
rc=$?
ok=0
for c in compare-value-sign:compare_value_sign compare-value-sign:precise_compare_value_sign \
	precise-compare-sign:precise_compare_sign; do
	grep -qx "	KUNIT_CASE(hpcc_test_${c#*:})," "$out/${c%%:*}.kunit.c" 2>/dev/null || ok=1
done
[ $rc = 1 ] && [ $ok = 0 ]
result $? "exit 1; the three defects' KUnit cases written, one file per fix" \
	"rc=$rc; $(ls "$out" 2>&1); $(tail -8 "$tmp/run.out")"

ok=0
for f in "$out"/*.txt; do
	grep -q '^Fix: ' "$f" && ! grep -q '^No small fix' "$f" && [ -f "${f%.txt}.diff" ] ||
		ok=1
done
cvs=$(grep -l 'return 1;' "$out"/*.diff 2>/dev/null | head -1)
pcs=$(grep -l '^+.*< ' "$out"/*.diff 2>/dev/null | head -1)
[ -n "$cvs" ] && [ -n "$pcs" ] || ok=1
result $ok "both fixes cleared, each with its diff" \
	"$(grep -h -A3 '^No small fix\|^Fix:' "$out"/*.txt 2>&1 | head -20)"

# The fixes together: judged in the findings' work directory, and the
# report of a fix that leaned on the other says so.
wd=$(find build/kcheck -path '*/findings/fix-compare-value-sign+precise-compare-sign/verdict' \
	-newer "$tmp/start" 2>/dev/null | head -1)
# (The report's lines are wrapped at 72 columns: joined again.)
[ -n "$wd" ] && ! grep -q '^ufail' "$wd" && grep -q '^stress	counter_storm	PASS' "$wd" &&
	cat "$out"/*.txt | tr '\n' ' ' |
	grep -q 'With every fix applied together the copy was judged again: none'
result $? "the fixes together judged: clean, and the report says so" \
	"verdict ${wd:-none}: $(cat "$wd" 2>&1 | grep -v '^why')"

# One report per fix (counter_storm's finding is one of the three
# defects'; two of them have one fix), and, cleared, its .cocci and .diff.
nf=$(find "$out" -name '*.txt' | wc -l)
nk=$(find "$out" -name '*.kunit.c' | wc -l)
[ "$(find "$out" -type f | wc -l)" = $((nf * 3 + nk)) ] && [ "$nf" = 2 ]
result $? "a report, a .cocci and a .diff per fix" "$(ls "$out")"
[ "$failed" = 0 ]
