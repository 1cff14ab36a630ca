#!/usr/bin/env bash
# kernel-check's sparse and checkpatch columns, without a build:
#   1-3 scripts/kernel-sparse on lib/hpcc laid out as a tree: PASS; with
#       tests/seam/fixtures/ktrees/percpu-deref.patch (a __percpu pointer
#       dereferenced): FAIL naming the dereference; sparse absent: SKIP
#   4-7 scripts/kernel-checkpatch on a fixture repository carrying a fake
#       scripts/checkpatch.pl of ours (it fails a patch adding a line that
#       ends in a blank): a clean commit PASS, a trailing blank FAIL, a
#       commit without the script SKIP, a script that dies no verdict (4)
#   8   the repository is left as it was (refs, index, worktree)
#   9   scripts/kernel-series' checkpatch column on those commits: the
#       table's column, the KTAP line "not ok" for the FAIL, exit 1; only
#       SKIP and PASS: exit 0; a no verdict: exit 4
#  10   kernel-check --only sparse --findings on the dereferencing tree
#       hands the column's record to scripts/findings: one report, its
#       stdout line, sparse's line quoted with the tree's path (no sparse:
#       SKIP)
#  11   kernel-check --only sparse with sparse absent checked nothing:
#       no verdict (exit 4) and a line saying so, never a pass
# KTAP on stdout.
# shellcheck source=tests/lib/sh/common.sh
. "$(dirname "$0")/../lib/sh/common.sh"
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
ktap_begin
cd "$tmp" || exit 1
echo "1..11"

# The tree: lib/hpcc laid out as a kernel tree (and a variant).
lay() {
	mkdir -p "$1/lib" "$1/include/linux"
	cp "$root/lib/hpcc/percpu_counter_tree.c" "$1/lib/"
	cp "$root/lib/hpcc/include/linux/percpu_counter_tree.h" "$1/include/linux/"
}
lay base
lay deref
patch -s -d deref -p1 <"$root/tests/seam/fixtures/ktrees/percpu-deref.patch"
if ! command -v sparse >/dev/null; then
	for t in sparse_pass sparse_finds_percpu_deref sparse_absent_skip; do
		n=$((n + 1)); echo "ok $n $t # SKIP no sparse (scripts/install-deps)"
	done
else
	out=$("$root/scripts/kernel-sparse" base "$tmp/b-base"); rc=$?
	[ $rc = 0 ] && [ "$out" = $'sparse\tPASS\t-' ]
	result $? sparse_pass "exit $rc: $out"$'\n'"$(cat "$tmp/b-base.sparse.log")"
	out=$("$root/scripts/kernel-sparse" deref "$tmp/b-deref"); rc=$?
	[ $rc = 1 ] && [[ $out == $'sparse\tFAIL\t1 warning: lib/percpu_counter_tree.c:'*': warning: dereference of noderef expression' ]]
	result $? sparse_finds_percpu_deref "exit $rc: $out"
fi
if command -v sparse >/dev/null; then
	out=$(SPARSE=no-such-sparse "$root/scripts/kernel-sparse" deref "$tmp/b-deref"); rc=$?
	[ $rc = 0 ] && [[ $out == $'sparse\tSKIP\t'* ]]
	result $? sparse_absent_skip "exit $rc: $out"
fi

# The fixture repository: BASE, a clean commit, one adding a trailing blank,
# one removing the script, one with a script that dies.
g() { git -C repo -c user.name=t -c user.email=t@localhost "$@"; }
git init -q repo
cp -r base/lib base/include repo/
mkdir repo/scripts
cat >repo/scripts/checkpatch.pl <<'EOF'
#!/usr/bin/perl
# A stand-in for the kernel's checker (tests only): one ERROR per added
# line ending in a blank, its "total:" line, exit 1 when any.
my ($e, $n) = (0, 0);
while (<STDIN>) {
	$n++;
	if (/^\+.*[ \t]$/ && !/^\+\+\+ /) { print "ERROR: trailing whitespace\n"; $e++; }
}
print "total: $e errors, 0 warnings, $n lines checked\n";
exit($e ? 1 : 0);
EOF
g add -A && g commit -qm base
echo '/* clean */' >>repo/lib/percpu_counter_tree.c
g commit -qam 'hpcc: a clean comment'
echo '/* blank */ ' >>repo/lib/percpu_counter_tree.c
g commit -qam 'hpcc: a trailing blank'
g rm -q scripts/checkpatch.pl && g commit -qm 'scripts: no checkpatch'
mkdir -p repo/scripts && printf 'die "broken\\n";\n' >repo/scripts/checkpatch.pl
g add -A && g commit -qm 'scripts: a checkpatch that dies'
mapfile -t h < <(g rev-list --reverse HEAD)
before=$(g for-each-ref; g status --porcelain; g rev-parse HEAD)

cp_of() {
	out=$("$root/scripts/kernel-checkpatch" repo "$1"); rc=$?
}
cp_of "${h[1]}"
[ $rc = 0 ] && [ "$out" = $'checkpatch\tPASS\t0 errors, 0 warnings' ]
result $? checkpatch_clean_pass "exit $rc: $out"
cp_of "${h[2]}"
[ $rc = 1 ] && [ "$out" = $'checkpatch\tFAIL\t1 errors, 0 warnings: ERROR: trailing whitespace' ]
result $? checkpatch_finding_fails "exit $rc: $out"
cp_of "${h[3]}"
[ $rc = 0 ] && [ "$out" = $'checkpatch\tSKIP\tno scripts/checkpatch.pl' ]
result $? checkpatch_absent_skip "exit $rc: $out"
cp_of "${h[4]}"
[ $rc = 4 ] && [[ $out == $'checkpatch\tnone\tcheckpatch.pl exit '* ]]
result $? checkpatch_broken_no_verdict "exit $rc: $out"
after=$(g for-each-ref; g status --porcelain; g rev-parse HEAD)
[ "$before" = "$after" ]
result $? repository_unchanged "before: $before"$'\n'"after: $after"

# kernel-series' column and exit status (its checkpatch step only).
out=$(python3 "$root/tests/lib/kernel_series_cases.py" checkpatch "$tmp/repo" "${h[@]}" 2>&1)
[ -z "$out" ]
result $? series_checkpatch_column "$out"

# The sparse column's record reaches scripts/findings (one unit program
# built: the column needs only the tree's build).
if command -v sparse >/dev/null; then
	(cd "$root" && scripts/kernel-check --only sparse --unit test_hpcc_set \
		--findings "$tmp/fo" "$tmp/deref" >"$tmp/kc.out" 2>"$tmp/kc.err"); rc=$?
	rep=$tmp/fo/sparse-noderef-percpu_counter_tree_precise_sum_unbiased.txt
	[ $rc = 1 ] && [ "$(ls "$tmp/fo")" = "${rep##*/}" ] &&
		grep -qx 'sparse-noderef-percpu_counter_tree_precise_sum_unbiased: kunit none, fix none' \
			"$tmp/kc.err" &&
		grep -q '^    lib/percpu_counter_tree.c:[0-9]*:[0-9]*: warning: dereference of noderef expression$' \
			"$rep" && grep -q "scripts/kernel-check --only sparse $tmp/deref" "$rep"
	result $? sparse_record_is_a_finding "exit $rc; $(ls "$tmp/fo" 2>&1)
$(cat "$tmp/kc.err" "$rep" 2>&1)"
else
	n=$((n + 1)); echo "ok $n sparse_record_is_a_finding # SKIP no sparse (scripts/install-deps)"
fi

# Only a column that skipped: nothing checked is no verdict (the build of
# case 10 kept; the tree builds, so the row itself is no check).
(cd "$root" && SPARSE=no-such-sparse scripts/kernel-check --only sparse --unit test_hpcc_set \
	"$tmp/deref" >"$tmp/kc.out" 2>"$tmp/kc.err"); rc=$?
[ $rc = 4 ] && grep -q '| SKIP (' "$tmp/kc.out" &&
	grep -qx 'kernel-check: no verdict: nothing was checked on deref (every column run skipped or had no case)' \
		"$tmp/kc.err"
result $? only_skipped_no_verdict "exit $rc; $(cat "$tmp/kc.out" "$tmp/kc.err")"
[ $failed = 0 ]
