#!/usr/bin/env bash
# tier: long
# Known findings on a tree that carries one (docs/stress.md#known-findings):
# lib/hpcc laid out as a kernel tree with a seeded bug of mutants/ applied:
#   swap  hpcc-compare-value-tol-swap (the swapped compare_delta()
#         tolerances four public versions carry)
#   two   the same plus hpcc-precise-compare-never-plus1
# Both are built once, by scripts/kernel-check --git on a series of ours
# (case 1): BASE swap, a docs commit, two (a new bug on top of the known
# finding), swap again; the cases after it run the series' builds.
# counter_storm on swap stops at its compare finding; with the signatures
# its --findings-out wrote as --known it does every step and makes as many
# checks as lib/hpcc with the same options; on two, the same known file
# still fails, on a signature it does not name. The series (7-9): BASE's
# counter_storm stops at its finding and is learned past (its findings
# known at every later commit); the new bug of two is caught by stress,
# "first bad" at its commit, without a unit case failing; the commit with
# only the known finding again is "fixed by", no regression; without the
# known file the new bug's tree stops at the known finding first. The
# series' --findings-out is the last commit's findings file (10). BASE's
# known file that cannot be written (a directory in its place) stops a
# series at BASE: no verdict, exit 4, one line (11); so do its other files
# of ours that cannot be written: the lock directory (12), GNU parallel's
# log (13) and the findings' Fixes: lines (14); so does a step of ours that
# fails (17-19: laying a commit's files, GNU parallel missing; 20: --am's
# clone). --findings that scripts/findings did not write is exit 3 (21).
# Tree mode (kernel-check DIR, 15-16): --findings-out on swap names its
# finding; with that file as --known, swap runs past it and two still
# fails, on the new one. Runs are bounded by --steps (the series' too);
# the quiescent-only mode makes the check counts a function of the seed: no
# selectors, stutter or hotplug, and no hops (--inject off, the small
# pattern), since where an add lands when a vCPU hops follows the host's
# scheduling, and with it the state the final check sees and how many
# comparisons it makes.
# Env: BUILD (default build/cc), CC. KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
echo "KTAP version 1"
if [ -n "${KERNEL_SRC:-}" ]; then
	echo "1..1"
	echo "ok 1 known_seam # SKIP already building against KERNEL_SRC"
	exit 0
fi
echo "1..21"
build=${BUILD:-build/cc}
kfix=$build/kfix-known
cc=${CC:-cc}
tmp=$(mktemp -d)
dswap=
links=()
cleanup() {
	local l
	rm -rf "$tmp"
	for l in "${links[@]}"; do rm -f "$l" "$l".*; done
	[ -z "$dswap" ] || rmdir "$dswap/known" "$dswap/fixes" 2>/dev/null
	[ -z "$dswap" ] || [ ! -f "$dswap/build/findings" ] || rm -f "$dswap/build/findings"
}
trap cleanup EXIT
repo=$tmp/repo
unset MAKEFLAGS MAKELEVEL MFLAGS
# The series' builds are the earlier path's, one whole build directory per
# content (kseries/KEY/build): the tree-mode cases (15-16) build in them again.
export KSERIES_LANES=off

# lay NAME MUTANT...: lib/hpcc as a kernel tree with those mutants applied.
lay() {
	local src=$kfix/$1-src m
	shift
	rm -rf "$src"
	mkdir -p "$src/lib" "$src/include/linux" || return 1
	cp lib/hpcc/percpu_counter_tree.c "$src/lib/" &&
		cp lib/hpcc/include/linux/percpu_counter_tree.h "$src/include/linux/" || return 1
	for m in "$@"; do
		sed 's#/lib/hpcc/#/lib/#' "mutants/$m.patch" | patch -s -d "$src" -p1 || return 1
	done
}
g() {
	git -C "$repo" -c user.name=fixture -c user.email=fixture@localhost "$@"
}
commit() {	# commit SUBJECT [TREE]: TREE's judged files (or none), then the commit
	[ -z "${2:-}" ] || cp -r "$kfix/$2-src/." "$repo/"
	g add -A && g commit -q -m "$1"
}
# The series' builds (BUILD/kseries/KEY/build, KEY from its --json).
key_of() {	# key_of N: commit N's content key
	python3 "$root/tests/lib/kernel_series_cases.py" content-key "$tmp/series.json" "$1"
}
sopts=(--cpus 8 --steps 10000 --seed 1 --duration 60s --unit test_hpcc_carry --jobs 2)
if ! { lay swap hpcc-compare-value-tol-swap &&
       lay two hpcc-compare-value-tol-swap hpcc-precise-compare-never-plus1 &&
       git init -q "$repo" && commit "base: the tolerances swapped" swap &&
       mkdir -p "$repo/Documentation" && echo notes >"$repo/Documentation/notes.txt" &&
       commit "docs: notes" &&
       commit "percpu_counter_tree: precise_compare() never answers +1" two &&
       commit "percpu_counter_tree: revert precise_compare()" swap &&
       make --no-print-directory -j2 CC="$cc" "$build/stress"; } >"$tmp/log" 2>&1; then
	tail -n 30 "$tmp/log" | sed 's/^/# /'
	echo "not ok 1 trees_build"
	for i in $(seq 2 21); do echo "not ok $i known_seam_$i # no build"; done
	exit 1
fi
mapfile -t h < <(g rev-list --reverse --abbrev-commit --abbrev=12 HEAD)
BUILD=$build CC=$cc scripts/kernel-check "${sopts[@]}" --json "$tmp/series.json" \
	--findings-out "$tmp/series.findings" --git "$repo" HEAD~3..HEAD \
	>"$tmp/series.out" 2>"$tmp/series.err"
srun=$?
dswap=$(realpath -m "$build/kseries/$(key_of 0 2>/dev/null)")
dtwo=$(realpath -m "$build/kseries/$(key_of 2 2>/dev/null)")
kswap=$dswap/build ktwo=$dtwo/build
if [ ! -x "$kswap/stress" ] || [ ! -x "$ktwo/stress" ]; then
	sed 's/^/# /' "$tmp/series.out" "$tmp/series.err" | tail -n 30
	echo "not ok 1 trees_build"
	for i in $(seq 2 21); do echo "not ok $i known_seam_$i # no build"; done
	exit 1
fi
echo "ok 1 trees_build"
rc=0
ok() {	# ok STATUS N NAME DIAG
	if [ "$1" = 0 ]; then echo "ok $2 $3"; else printf '# %s\n' "$4"; echo "not ok $2 $3"; rc=1; fi
}
opts=(--scenario counter_storm --cpus 8 --steps 20000 --duration 0 --stat-interval 0
      --replay-search 0)
run=("${opts[@]}" --seed 1)
quiet=(--selectors 0 --stutter off --hotplug off --inject off --storm-pattern small)
verdict() { grep '^stress: [A-Z]* counter_storm' "$1"; }
num() { verdict "$2" | sed -n "s/.* $1=\([0-9]*\).*/\1/p"; }

# 2. No --known: the tree's finding ends the run.
(cd "$tmp" && "$kswap/stress" "${run[@]}" --findings-out f0 >a.out 2>&1)
st=$?
ops=$(num ops "$tmp/a.out")
[ $st = 1 ] && verdict "$tmp/a.out" | grep -q 'FAIL .*invariant=compare' && [ "${ops:-0}" -lt 160000 ] &&
	grep -q '^finding counter_storm compare ' "$tmp/f0"
ok $? 2 swap_fails_at_its_finding "status $st ops $ops: $(verdict "$tmp/a.out")"

# 3. Learn every signature the tree shows (a run stops at each new one).
cp "$tmp/f0" "$tmp/known"
for i in 1 2 3 4 5; do
	(cd "$tmp" && "$kswap/stress" "${opts[@]}" --seed "$i" --known known \
		--findings-out ./fi >b.out 2>&1)
	st=$?
	[ $st = 0 ] || [ $st = 1 ] || { echo "# learning run $i: status $st"; rc=1; }
	grep '^finding ' "$tmp/fi" | while read -r w s inv cls fn hits; do
		grep -q "^finding $s $inv $cls $fn " "$tmp/known" || echo "$w $s $inv $cls $fn $hits"
	done >>"$tmp/known"
done
(cd "$tmp" && "$kswap/stress" "${run[@]}" --known known >b.out 2>&1)
st=$?
v=$(verdict "$tmp/b.out")
[ $st = 0 ] && echo "$v" | grep -q 'PASS .* ops=160000 .* known=[1-9][0-9]* ([1-9][0-9]* hits)$' &&
	grep -q '^# known compare/' "$tmp/b.out"
ok $? 3 swap_with_known_runs_every_step "status $st: $v; known: $(grep -c '^finding' "$tmp/known")"
echo "# swap, known: $v"

# 4. As many checks as lib/hpcc (quiescent-only: a function of the seed).
(cd "$tmp" && "$kswap/stress" "${run[@]}" "${quiet[@]}" --known known >c.out 2>&1)
st=$?
(cd "$tmp" && "$root/$build/stress" "${run[@]}" "${quiet[@]}" >d.out 2>&1)
st2=$?
c1=$(num checks "$tmp/c.out") c2=$(num checks "$tmp/d.out")
[ $st = 0 ] && [ $st2 = 0 ] && [ -n "$c1" ] && [ "$c1" = "$c2" ]
ok $? 4 swap_with_known_checks_as_much_as_lib_hpcc "swap+known $st checks=$c1, lib/hpcc $st2 checks=$c2"
echo "# quiescent-only checks: swap with known $c1, lib/hpcc $c2"

# 5. A second seeded bug still fails the run, on a signature not known.
(cd "$tmp" && "$ktwo/stress" "${run[@]}" "${quiet[@]}" --known known \
	--findings-out f2 >e.out 2>&1)
st=$?
new=$(sed -n '/^# new:/{n;p}' "$tmp/f2")
[ $st = 1 ] && verdict "$tmp/e.out" | grep -q 'FAIL .*invariant=compare class=wrong-answer' &&
	[ -n "$new" ] && ! grep -qF "${new% *}" "$tmp/known" && echo "$new" | grep -q ' precise_compare '
ok $? 5 second_bug_fails_past_the_known_one "status $st: $(verdict "$tmp/e.out"); new: $new"

# 6. A known file naming nothing present changes nothing: lib/hpcc passes as before.
(cd "$tmp" && "$root/$build/stress" "${run[@]}" "${quiet[@]}" --known known >g.out 2>&1)
st=$?
[ $st = 0 ] && [ "$(num checks "$tmp/g.out")" = "$c2" ] && ! grep -q 'known=' "$tmp/g.out"
ok $? 6 known_without_findings_changes_nothing "status $st: $(verdict "$tmp/g.out")"

# 7. The series: BASE stops at its finding, which is learned past and known later.
sed 's/^/# /' "$tmp/series.out"
bad=
row() { grep "^| ${h[$1]} |" "$tmp/series.out"; }
bfind=$dswap/findings
row 0 | grep -q '| BASE | yes | 5/0/0 | .*counter_storm FAIL (compare, contract) known' ||
	bad+="BASE row; "
grep -q '^finding counter_storm compare contract approximate_compare_value ' "$bfind" ||
	bad+="BASE findings: $(grep '^finding' "$bfind" | tr '\n' ';'); "
grep -q '^stress: PASS counter_storm .* ops=80000 .* known=[1-9]' "$kswap/learn.out" ||
	bad+="BASE's learning run: $(grep '^stress: [A-Z]* counter_storm' "$kswap/learn.out"); "
[ -z "$bad" ]
ok $? 7 series_base_finding_learned "$bad"

# 8. The new bug is caught by stress at its commit; only there.
bad=
[ $srun = 1 ] || bad+="exit $srun; "
grep -q '^4 commits judged, 1 regress, 1 fixed, 0 without verdict$' "$tmp/series.out" ||
	bad+="summary; "
[ "$(grep -c '^first bad: ' "$tmp/series.out")" = 1 ] &&
	grep -q "^first bad: ${h[2]} .*: stress counter_storm FAIL (compare, wrong-answer)$" \
		"$tmp/series.out" || bad+="first bad; "
row 2 | grep -q '| judged | yes | 5/0/0 | .*counter_storm FAIL (compare, wrong-answer)' ||
	bad+="row 2; "
# The run stops at the new signature; whether the known one was met before
# it follows the interleaving, so only the new one is required.
grep -q '^finding counter_storm compare wrong-answer precise_compare ' "$dtwo/findings" &&
	grep -q '^# new: precise_compare(' "$dtwo/findings" ||
	bad+="two's findings: $(grep '^finding\|^# new' "$dtwo/findings" | tr '\n' ';'); "
[ -z "$bad" ]
ok $? 8 series_new_bug_first_bad_by_stress "$bad"

# 9. The known finding alone again is a fix, not a regression; without the
#    known file the new bug's tree stops at the known finding first (in
#    the quiescent-only mode, where which of the two comes first is a
#    function of the seed, not of the interleaving).
bad=
grep -q "^fixed by: ${h[3]} .*: stress counter_storm$" "$tmp/series.out" || bad+="fixed by; "
row 3 | grep -q "| cached from ${h[0]} | yes | 5/0/0 | .*counter_storm FAIL (compare, contract) known" ||
	bad+="row 3; "
(cd "$tmp" && "$ktwo/stress" "${run[@]}" "${quiet[@]}" >h.out 2>&1)
st=$?
[ $st = 1 ] && verdict "$tmp/h.out" | grep -q 'FAIL .*invariant=compare class=contract' ||
	bad+="two without --known: status $st: $(verdict "$tmp/h.out"); "
[ -z "$bad" ]
ok $? 9 series_known_alone_no_regression "$bad"

# 10. --findings-out: the last commit's findings as its runs met them (that
#     commit is cached from BASE: BASE's learned findings, with their hits).
bad=
cmp -s "$tmp/series.findings" "$dswap/findings" || bad+="not the last commit's findings; "
grep -q '^finding counter_storm compare contract approximate_compare_value [1-9]' \
	"$tmp/series.findings" || bad+="$(tr '\n' ';' <"$tmp/series.findings" 2>&1); "
[ -z "$bad" ]
ok $? 10 series_findings_out_last_commit "$bad"

# 11. BASE's known file cannot be written (a directory where it goes): the
#     series stops there, no verdict, one line. Only BASE is judged (the
#     docs commit is cached from it), on its build, with few steps.
rm -f "$dswap/known" && mkdir "$dswap/known"
BUILD=$build CC=$cc scripts/kernel-check --cpus 8 --steps 200 --seed 1 --duration 60s \
	--unit test_hpcc_carry --jobs 2 --git "$repo" HEAD~3..HEAD~2 >"$tmp/k.out" 2>"$tmp/k.err"
st=$?
rmdir "$dswap/known"
[ $st = 4 ] && [ ! -s "$tmp/k.out" ] && [ "$(wc -l <"$tmp/k.err")" = 1 ] &&
	grep -qx "kernel-check: no verdict: BASE's known findings .*/kseries/${dswap##*/}/known: Is a directory" \
		"$tmp/k.err"
ok $? 11 series_base_known_unwritable_no_verdict "status $st: $(head -c 600 "$tmp/k.err" | tr '\n' ';')"

# 12-14. The series' other files of ours that cannot be written stop it the
#     same way: its lock directory (the build directory a file, nothing
#     judged), GNU parallel's log (a directory in its place, nothing
#     judged) and, with --findings, the file of Fixes: lines scripts/findings
#     reads (a directory in its place; BASE judged again, few steps).
# nover N NAME STATUS LINE: exit 4, nothing on stdout, LINE alone on stderr.
nover() {
	[ "$3" = 4 ] && [ ! -s "$tmp/k.out" ] && [ "$(wc -l <"$tmp/k.err")" = 1 ] &&
		grep -qx "kernel-check: no verdict: $4" "$tmp/k.err"
	ok $? "$1" "$2" "status $3: $(head -c 600 "$tmp/k.err" | tr '\n' ';')"
}
few=(--cpus 8 --steps 200 --seed 1 --duration 60s --unit test_hpcc_carry --jobs 2)
: >"$tmp/xb"
mkdir -p "$tmp/xc/kseries/parallel.log"
for x in xb xc; do
	STRESS=$root/$build/stress BUILD=$tmp/$x CC=$cc scripts/kernel-check "${few[@]}" \
		--git "$repo" HEAD~3..HEAD~2 >"$tmp/k.out" 2>"$tmp/k.err"
	st=$?
	if [ $x = xb ]; then
		nover 12 series_lock_unwritable_no_verdict $st \
			"the series' lock $tmp/xb/kseries: Not a directory"
	else
		nover 13 series_parallel_log_unwritable_no_verdict $st \
			"GNU parallel's log $tmp/xc/kseries/parallel.log: Is a directory"
	fi
done
rm -rf "$dswap/fixes" && mkdir "$dswap/fixes"
BUILD=$build CC=$cc scripts/kernel-check "${few[@]}" --findings "$tmp/fout" \
	--git "$repo" HEAD~3..HEAD~2 >"$tmp/k.out" 2>"$tmp/k.err"
st=$?
rmdir "$dswap/fixes"
nover 14 series_fixes_unwritable_no_verdict $st \
	"the findings' Fixes: lines .*/kseries/${dswap##*/}/fixes: Is a directory"
[ ! -e "$tmp/fout" ] || { echo "# --findings written after the stop"; rc=1; }
# 15-16. Tree mode on the series' sources, in the series' builds: the build
#     directory kernel-check names for a tree (build/kcheck/NAME-CKSUM of
#     its path) is a link to the series' one, so nothing is built again.
for d in "$dswap" "$dtwo"; do
	l=build/kcheck/src-$(echo "$d/src" | cksum | cut -d' ' -f1)
	mkdir -p build/kcheck && ln -sfn "$d/build" "$l" && links+=("$l")
done
topts=(--no-san --no-tsan --no-sparse --cpus 8 --steps 10000 --seed 1 --duration 60s
       --unit test_hpcc_carry --jobs 2)
CC=$cc scripts/kernel-check "${topts[@]}" --findings-out "$tmp/tree.findings" "$dswap/src" \
	>"$tmp/t1.out" 2>"$tmp/t1.err"
st=$?
sed 's/^/# /' "$tmp/t1.out"
[ $st = 1 ] && grep -q '^| src | .*counter_storm FAIL (compare, contract)' "$tmp/t1.out" &&
	grep -q '^finding counter_storm compare contract approximate_compare_value [1-9]' \
		"$tmp/tree.findings"
ok $? 15 tree_findings_out_names_the_finding \
	"status $st: $(tr '\n' ';' <"$tmp/t1.err" | head -c 300); $(tr '\n' ';' <"$tmp/tree.findings" 2>&1)"
CC=$cc scripts/kernel-check "${topts[@]}" --known "$tmp/tree.findings" "$dswap/src" "$dtwo/src" \
	>"$tmp/t2.out" 2>"$tmp/t2.err"
st=$?
sed 's/^/# /' "$tmp/t2.out"
mapfile -t trows < <(grep '^| src | ' "$tmp/t2.out")
[ $st = 1 ] && [ ${#trows[@]} = 2 ] && [[ ${trows[0]} == *"counter_storm PASS"* ]] &&
	grep -q '^stress: PASS counter_storm .* ops=80000 .* known=[1-9]' "$dswap/build/stress.out" &&
	[[ ${trows[1]} == *"counter_storm FAIL (compare, wrong-answer)"* ]]
ok $? 16 tree_known_passes_it_and_fails_a_new_one \
	"status $st: $(tr '\n' ';' <"$tmp/t2.err" | head -c 300); $(grep '^stress: [A-Z]* counter_storm' "$dswap/build/stress.out")"
# 17-19. A step of the series' own that fails while it lays a commit's
#     files into its source directory, or after, stops it the same way,
#     naming the commit and the step (never a traceback, never bad input):
#     the source directory's place a file (17), BASE's judged file missing
#     from a copy of the fixture repository (git archive fails, 18), and
#     GNU parallel missing from PATH (19, the last resort). Each in a build
#     directory of its own; nothing is judged.
key=${dswap##*/} base=${h[0]}
mkdir -p "$tmp/xd/kseries/$key" && : >"$tmp/xd/kseries/$key/src"
cp -a "$repo" "$tmp/repo2" &&
	blob=$(g rev-parse "$base:lib/percpu_counter_tree.c") &&
	rm -f "$tmp/repo2/.git/objects/${blob:0:2}/${blob:2}"
mkdir "$tmp/nopar" && IFS=: read -ra pdirs <<<"$PATH"
for d in "${pdirs[@]}"; do
	[ -d "$d" ] && [[ $d == /* ]] && cp -sn "$d"/* "$tmp/nopar/" 2>/dev/null
done
rm -f "$tmp/nopar/parallel" "$tmp/nopar/python3" &&
	ln -s "$(python3 -c 'import sys; print(sys.executable)')" "$tmp/nopar/python3"
for x in xd xe xf; do
	r=$repo p=$PATH
	[ $x = xe ] && r=$tmp/repo2
	[ $x = xf ] && p=$tmp/nopar
	PATH=$p STRESS=$root/$build/stress BUILD=$tmp/$x CC=$cc scripts/kernel-check \
		"${few[@]}" --git "$r" HEAD~3..HEAD~2 >"$tmp/k.out" 2>"$tmp/k.err"
	st=$?
	lay="commit $base: laying its files into $tmp/$x/kseries/$key:"
	case $x in
	xd) nover 17 series_lay_rename_no_verdict $st "$lay Not a directory" ;;
	xe) nover 18 series_lay_git_archive_no_verdict $st "$lay git archive failed: .*" ;;
	xf) nover 19 series_internal_oserror_no_verdict $st \
		"parallel: No such file or directory" ;;
	esac
done
# 20. --am's clone that cannot be made (BASE's judged file missing from the
#     copy it fetches from): no verdict, never bad input; nothing judged.
g format-patch -q -1 --stdout HEAD~2 >"$tmp/one.mbox"
STRESS=$root/$build/stress BUILD=$tmp/xg CC=$cc scripts/kernel-check "${few[@]}" \
	--am "$tmp/one.mbox" --base "$base" "$tmp/repo2" >"$tmp/k.out" 2>"$tmp/k.err"
nover 20 series_am_clone_failed_no_verdict $? "--am's clone: git fetch failed: .*"
# 21. --findings that scripts/findings could not write (its work directory
#     a file): the table, then one line naming its status, exit 3 (as
#     --json); BASE alone judged again, few steps.
rm -rf "$dswap/build/findings" && : >"$dswap/build/findings"
BUILD=$build CC=$cc scripts/kernel-check "${few[@]}" --findings "$tmp/fout" \
	--git "$repo" HEAD~3..HEAD~2 >"$tmp/k.out" 2>"$tmp/k.err"
st=$?
rm -f "$dswap/build/findings"
[ $st = 3 ] && grep -q "^| ${h[0]} | .* | BASE | yes |" "$tmp/k.out" &&
	[ "$(tail -n 1 "$tmp/k.err")" = \
	  "kernel-check: --findings $tmp/fout: not written (scripts/findings exit 3)" ]
ok $? 21 series_findings_not_written_exit_3 "status $st: $(tail -c 600 "$tmp/k.err" | tr '\n' ';')"
exit $rc
