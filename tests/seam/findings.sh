#!/usr/bin/env bash
# tier: long
# scripts/kernel-check --findings (docs/kernel-trees.md#findings-a-maintainer-can-act-on)
# on a fixture series of ours: lib/hpcc laid out as a kernel tree (BASE),
# then a commit that seeds a finding (the carry bit from an unsigned int
# get_count_order(): tests/seam/fixtures/ktrees/count-order-int.patch,
# carry_batch_4g wrong-answer), then an unrelated one (HEAD).
# Checked: the finding's KUnit case is written, fails on the tree and
# passes on the fixed copy (the shim's KTAP of both runs, in the shape
# kunit_parser.py reads: the suite a subtest four spaces in); its report
# is at most 72 columns (but the Fixes: tag, never wrapped, and a quoted
# line, kept whole), names the
# function and carries the Fixes: line of
# the seeding commit; its .cocci and .diff exist, the diff applies to
# HEAD's files and undoes the seeded change; bad --findings is exit 2.
# Then the _extremes cases (the catalogue's CASE@16) in the KUnit build
# the series' findings left: the template with its shared helper, run at
# the catalogue's CPU count on the swapped-tolerances fixture
# (compare_value_extremes fails) and on lib/hpcc (both pass, neither
# skipped); only the tree's .c and the KUnit file change, so make
# rebuilds two objects, not kcompat. Then UBSan's report of the seeded
# shift (get_count_order() of a truncated 2^32 batch is -1): the lifecycle
# program under ASan + UBSan (scripts/kernel-san --unit, in the series'
# findings build), its record to scripts/findings: a finding signed
# shift-out-of-bounds in init_many, carry_batch_4g's case verified, the
# fix cleared with the asan column run again on the fixed copy. Last,
# scripts/findings on a tree whose path is not UTF-8: its files' hashes
# read (nothing built).
# Env: CC. KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/sh/common.sh
. "$root/tests/lib/sh/common.sh"
cd "$root" || exit 1
echo "KTAP version 1"
skip_under_kernel_src findings
echo "1..10"
unset MAKEFLAGS MAKELEVEL MFLAGS
n=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
repo=$tmp/repo out=$tmp/out
g() {
	git -C "$repo" -c user.name=fixture -c user.email=fixture@localhost "$@"
}
mkdir -p "$repo/lib" "$repo/include/linux" "$repo/mm"
git init -q "$repo"
cp lib/hpcc/percpu_counter_tree.c "$repo/lib/"
cp lib/hpcc/include/linux/percpu_counter_tree.h "$repo/include/linux/"
g add -A && g commit -q -m "base"
g apply -p1 "$root/tests/seam/fixtures/ktrees/count-order-int.patch"
g add -A && g commit -q -m "percpu_counter_tree: carry bit from get_count_order()"
seed=$(g rev-parse --short=12 HEAD)
echo "int vmscan;" >"$repo/mm/vmscan.c"
g add -A && g commit -q -m "mm: unrelated change"
base=$(g rev-parse HEAD~2)

scripts/kernel-check --findings "$tmp/no/such/dir" --git "$repo" "$base..HEAD" \
	>"$tmp/bad.out" 2>&1
rc=$?
[ $rc = 2 ] && [ "$(wc -l <"$tmp/bad.out")" = 1 ]
result $? "bad --findings: exit 2, one line" "rc=$rc: $(cat "$tmp/bad.out")"

scripts/kernel-check --duration 0.2s --cpus 2 --unit test_hpcc_carry --jobs 2 \
	--findings "$out" --git "$repo" "$base..HEAD" >"$tmp/series.out" 2>&1
rc=$?
f=$out/count-order-long
[ $rc = 1 ] && [ -f "$f.kunit.c" ] && [ -f "$f.txt" ]
result $? "series: exit 1, carry_batch_4g's case and report written" \
	"rc=$rc; $(ls "$out" 2>&1); $(tail -5 "$tmp/series.out")"

# The verification runs: the tree's (the case fails) and the fixed copy's.
kdir=$(find "${BUILD:-build}/kseries" -path '*/findings/tree.ktap' -newer "$tmp/bad.out" |
       head -1)
kdir=${kdir%/tree.ktap}
# kunit_parser's shape: version, plan, the suite as a subtest (version,
# "# Subtest:", plan) four spaces in, one case result, the suite's result.
shape() {	# KTAP RESULT
	awk -v r="$2" '
	{ l[NR] = $0 }
	/^ *(ok|not ok) [0-9]+ / { res[++n] = $0 }
	END {
		bad = l[1] != "KTAP version 1" || l[2] != "1..1" ||
		      l[3] != "    KTAP version 1" ||
		      l[4] != "    # Subtest: percpu_counter_tree_finding" || l[5] != "    1..1" ||
		      n != 2 || res[1] != "    " r " 1 hpcc_test_carry_batch_4g" ||
		      res[2] != r " 1 percpu_counter_tree_finding"
		exit bad
	}' "$1"
}
ok=0
shape "$kdir/tree.ktap" "not ok" || ok=1
shape "$kdir/build/kunit.ktap" ok || ok=1
result $ok "the case fails on the tree, passes fixed; KTAP as kunit_parser reads it" \
	"$(cat "$kdir/tree.ktap" "$kdir/build/kunit.ktap" 2>&1)"

# The case is the tree's API only, in the shape of the kernel's file.
ok=0
grep -q '^static void hpcc_test_carry_batch_4g(struct kunit \*test)$' "$f.kunit.c" || ok=1
grep -q '^	KUNIT_CASE(hpcc_test_carry_batch_4g),$' "$f.kunit.c" || ok=1
grep -q 'kunit_test_suite(' "$f.kunit.c" || ok=1
! grep -E 'kc_|hu_|kt_' "$f.kunit.c" || ok=1
# Its head names the fix it passes with by the file beside it.
[ -f "$f.diff" ] && sed 's/^ \* *//' "$f.kunit.c" | tr -s '\n' ' ' |
	grep -qF "passes on the tree with the fix in ${f##*/}.diff" || ok=1
result $ok "the KUnit case: kernel API only, a function and its KUNIT_CASE" \
	"$(head -n 14 "$f.kunit.c" 2>&1)"

ok=0
# Past 72 columns: the Fixes: tag, a line of one word too long for any
# (a path, never cut; a command's continuation " \" after it), and a
# quoted line (the KUnit assertion, a sanitizer's), kept whole.
long=$(expand "$f.txt" | awk '/^$/ { q = 0 }
	!q && length > 72 && !/^Fixes: / && !/^ *[^ ]+( \\)?$/
	/^Expected and got|its first lines|output for that case|other crashed cases/ { q = 1 }' |
	head -3)
[ -z "$long" ] || ok=1
grep -q "^Fixes: $seed (\"percpu_counter_tree: carry bit from get_count_order()\")$" \
	"$f.txt" || ok=1
grep -q '^Function: percpu_counter_tree_init()$' "$f.txt" || ok=1
grep -q '^          at lib/percpu_counter_tree.c:[0-9]' "$f.txt" || ok=1
grep -q 'Expected ' "$f.txt" || ok=1
grep -q 'scripts/kernel-check --only unit --unit test_hpcc_carry ' "$f.txt" || ok=1
result $ok "the report: 72 columns, Fixes: the seeding commit, function, expected/got" \
	"$long
$(head -20 "$f.txt")"

# The fix: the semantic patch's diff applies to HEAD and undoes the seed.
ok=0
[ -f "$f.cocci" ] && [ -f "$f.diff" ] || ok=1
g apply --check -p1 "$f.diff" 2>"$tmp/apply" || ok=1
grep -q '^+.*get_count_order_long(batch_size)' "$f.diff" || ok=1
grep -q 'fixed by (no new finding)' "$f.txt" || ok=1
result $ok "the fix: .cocci and .diff, applies to HEAD, re-judged clean" \
	"$(cat "$tmp/apply" "$f.diff" 2>&1 | head -20)"

# Nothing else: one finding, one set of files.
[ "$(find "$out" -type f | wc -l)" = 4 ]
result $? "one finding, four files" "$(ls "$out")"
# The _extremes cases at their own CPU count, in the series' KUnit build.
mkdir -p "$tmp/sw/lib" "$tmp/sw/include/linux"
cp lib/hpcc/percpu_counter_tree.c "$tmp/sw/lib/"
cp lib/hpcc/include/linux/percpu_counter_tree.h "$tmp/sw/include/linux/"
patch -s -d "$tmp/sw" -p1 <tests/seam/fixtures/ktrees/swapped.patch
# Without the series' KUnit build (an earlier case failed) nothing runs.
[ -n "$kdir" ] && [ -d "$kdir/tree" ] && [ -d "$kdir/build" ] &&
python3 tests/lib/findings_extremes.py "$root" "$kdir" "$tmp" >"$tmp/ext.out" 2>&1
ok=0
grep -qx "swapped 16 {'hpcc_test_compare_value_extremes': False, 'hpcc_test_compare_pair_extremes': True} skipped 0" \
	"$tmp/ext.out" || ok=1
grep -qx "hpcc 16 {'hpcc_test_compare_value_extremes': True, 'hpcc_test_compare_pair_extremes': True} skipped 0" \
	"$tmp/ext.out" || ok=1
result $ok "the _extremes cases at 16 CPUs: fail on swapped tolerances, pass on lib/hpcc" \
	"$(cat "$tmp/ext.out"; tail -5 "$tmp"/ext-*.log 2>/dev/null)"
# UBSan's shift in the asan column: the seeded tree's lifecycle program
# (whose batch validation inits batches up to 2^63: the shortest run that
# meets the shift) under ASan + UBSan, in the build the series' findings
# left (the tree laid at the path where scripts/findings lays its copy,
# so the fixed copy's asan re-run recompiles only the tree's object),
# handed to scripts/findings as kernel-check hands it.
ok=1 ub=count-order-long
if [ -n "$kdir" ] && [ -d "$kdir/tree/lib" ]; then
	cp "$repo/lib/percpu_counter_tree.c" "$kdir/tree/lib/"
	cp "$repo/include/linux/percpu_counter_tree.h" "$kdir/tree/include/linux/"
	scripts/kernel-san --unit test_hpcc_lifecycle --kind full --out "$kdir/build.asan" \
		"$kdir/tree" "$kdir/build" >"$tmp/ksan.out" 2>&1
	printf 'builds\tyes\n' >"$tmp/ub.verdict"
	scripts/findings --tree "$repo" --verdict "$tmp/ub.verdict" --build "${kdir%/findings}" \
		--duration 0.2s --cpus 2 --asan "$kdir/build.asan" --out "$tmp/ub" \
		>"$tmp/ub.out" 2>&1
	flat=$(tr -s ' \n' ' ' <"$tmp/ub/$ub.txt" 2>/dev/null)
	grep -qx "$ub: kunit verified, fix cleared" "$tmp/ub.out" &&
		[ -f "$tmp/ub/$ub.kunit.c" ] && [ -f "$tmp/ub/$ub.diff" ] &&
		[[ $flat == *'(UBSan: shift-out-of-bounds)'* ]] &&
		[[ $flat == *'runtime error: shift exponent -1 is'* ]] &&
		[[ $flat == *'Function: percpu_counter_tree_init_many() at lib/percpu_counter_tree.c:'* ]] &&
		[[ $flat == *'scripts/kernel-check --only asan --unit test_hpcc_lifecycle'* ]] &&
		[[ $flat == *'(test_hpcc_lifecycle, the asan column and ./stress)'* ]] &&
		ok=0
fi
result $ok "UBSan's shift: a finding, its KUnit case verified, the fix re-judged under UBSan" \
	"$(cat "$kdir/build.asan" "$tmp/ub.out" "$tmp/ksan.out" 2>&1 | tail -20)
$(cat "$tmp/ub/$ub.txt" 2>&1)"
# A tree whose path is not UTF-8 (and has a backslash): its files' hashes
# are read, not a traceback; a verdict without findings builds nothing.
t=$tmp/tree-$'\xff\\'
mkdir -p "$t/lib" "$t/include/linux"
cp lib/hpcc/percpu_counter_tree.c "$t/lib/"
cp lib/hpcc/include/linux/percpu_counter_tree.h "$t/include/linux/"
printf 'builds\tyes\nunit\t5\t0\t0\n' >"$tmp/clean.verdict"
scripts/findings --tree "$t" --verdict "$tmp/clean.verdict" --build "$tmp/cb" \
	--out "$tmp/cout" --name clean >"$tmp/clean.out" 2>&1
rc=$?
[ $rc = 0 ] && [ "$(cat "$tmp/clean.out")" = "clean: no findings" ]
result $? "a tree path not UTF-8: read, no findings, exit 0" "rc=$rc: $(head -5 "$tmp/clean.out")"
[ "$failed" = 0 ]
