#!/usr/bin/env bash
# tier: long
# scripts/kernel-check --git / --am on a patch series (docs/kernel-trees.md,
# "Checking a series"). The fixture repository is ours: lib/hpcc laid out as
# a kernel tree (BASE), then six commits:
#   1 docs only          (nothing judged: cached from BASE)
#   2 the carry bit from an unsigned int get_count_order()
#     (tests/seam/fixtures/ktrees/count-order-int.patch: carry_batch_4g fails)
#   3, 4 unrelated       (cached from 2)
#   5 reverts 2          (the content of BASE again: cached from BASE)
#   6 unrelated
# Checked: the seven rows, the cache, "first bad" at 2, "fixed by" at 5,
# exit 1; the same from --am on the series' mbox; KTAP and JSON forms; bad
# inputs exit 2 with one line; the repository is left byte-identical
# (branches, index, dirty worktree, stash). Two trees are built, a
# third on a side branch that does not compile; on another side branch
# an RFC-shaped tree and a variant are judged by the adapter alone.
# Then: one of two ssh hosts dead (127.0.0.1 on a closed port) loses nothing
# (the same first bad, no "fixed by ...: builds"); a commit that turns a
# judged file into a symlink to a file outside the repository is refused,
# "no verdict", exit 4, its target never read; SIGTERM mid-series stops
# every job, removes the temporary clone, exit 143 with one line; a commit
# after the fix with the bug's content again is "broken again by"; the
# commit that changes only the .c, built in BASE's lane after it, compiles
# one object, the tree's .c (13). Then, judged by hand in that lane (warm):
# a commit that does not compile is never told of an adapter shape an
# earlier commit's probes left in the lane (14); after a change of the
# header alone, of two objects made only the one whose dependency file
# names it is compiled again, with the tree's .c (15). Two trees with the
# same header and another .c, built through ccache in build directories of
# their own with the series' header store: the object that includes the
# header, compiled in the second, is a cache hit (16; needs ccache).
# Env: CC. KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
echo "KTAP version 1"
if [ -n "${KERNEL_SRC:-}" ]; then
	echo "1..1"
	echo "ok 1 series # SKIP already building against KERNEL_SRC"
	exit 0
fi
echo "1..16"
unset MAKEFLAGS MAKELEVEL MFLAGS
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
repo=$tmp/repo
opts=(--duration 0.2s --cpus 2 --unit test_hpcc_carry --jobs 2)
rc=0

g() {
	git -C "$repo" -c user.name=fixture -c user.email=fixture@localhost "$@"
}
commit() {	# SUBJECT
	g add -A && g commit -q -m "$1"
}
mkdir -p "$repo/lib" "$repo/include/linux" "$repo/mm" "$repo/Documentation"
git init -q "$repo"
echo "fixture tree" >"$repo/MAINTAINERS"
commit "start: no hpcc files yet"
cp lib/hpcc/percpu_counter_tree.c "$repo/lib/"
cp lib/hpcc/include/linux/percpu_counter_tree.h "$repo/include/linux/"
commit "base"
echo "notes" >"$repo/Documentation/notes.txt"
commit "docs: notes on the counters"
g apply -p1 "$root/tests/seam/fixtures/ktrees/count-order-int.patch"
commit "percpu_counter_tree: carry bit from get_count_order()"
echo "int vmscan;" >"$repo/mm/vmscan.c"
commit "mm: unrelated change"
echo "more" >>"$repo/MAINTAINERS"
commit "MAINTAINERS: update"
g apply -R -p1 "$root/tests/seam/fixtures/ktrees/count-order-int.patch"
commit "percpu_counter_tree: carry bit from get_count_order_long() again"
echo "more notes" >>"$repo/Documentation/notes.txt"
commit "docs: more notes"
mapfile -t h < <(g rev-list --reverse --abbrev-commit --abbrev=12 HEAD~7..HEAD)
start=$(g rev-parse HEAD~7)
# A side branch whose one commit does not compile.
trunk=$(g symbolic-ref --short HEAD)
g checkout -q -b broken "${h[0]}"
sed -i '1i #error broken on purpose' "$repo/lib/percpu_counter_tree.c"
commit "percpu_counter_tree: does not compile"
# A side branch from an older API: the RFC-shaped fixture (the full suite
# refuses it, the adapter judges it), rfc-sign.patch (a regression only the
# adapter sees), then lib/hpcc (the full suite, nothing to compare with BASE).
g checkout -q -b older "$start"
cp -r tests/seam/fixtures/ktrees/rfc/. "$repo/"
commit "percpu_counter_tree: RFC API"
g apply -p1 "$root/tests/seam/fixtures/ktrees/rfc-sign.patch"
commit "percpu_counter_tree: compare_value answers the sign of counter - v"
cp lib/hpcc/percpu_counter_tree.c "$repo/lib/"
cp lib/hpcc/include/linux/percpu_counter_tree.h "$repo/include/linux/"
commit "percpu_counter_tree: long API"
g checkout -q "$trunk"
# The user's state: a stash, a dirty tracked file, an untracked file, a staged one.
echo "stashed" >>"$repo/MAINTAINERS" && g stash -q
echo "dirty" >>"$repo/mm/vmscan.c"
echo "untracked" >"$repo/scratch.txt"
echo "staged" >"$repo/Documentation/staged.txt" && g add Documentation/staged.txt
g format-patch -q --stdout "${h[0]}..HEAD" >"$tmp/series.mbox"

snapshot() {
	(cd "$repo" && GIT_OPTIONAL_LOCKS=0 git status --porcelain=v1 &&
	 git rev-parse HEAD && git branch -a && git stash list &&
	 find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum)
}
snapshot >"$tmp/before"

result() {	# N NAME: ok when $bad is empty
	if [ -z "$bad" ]; then
		echo "ok $1 $2"
	else
		printf '%s\n' "$bad" | sed -e 's/^/# /'
		echo "not ok $1 $2"
		rc=1
	fi
}

# check_table FILE SHORT...: the seven rows, the cache, first bad, fixed by.
check_table() {
	local f=$1 s
	shift
	s=("$@")
	[ "$(grep -c '^| [0-9a-f]\{12\} |' "$f")" = 7 ] || bad+="want 7 rows"$'\n'
	row() { grep "^| ${s[$1]} |" "$f"; }
	row 0 | grep -q '| BASE | yes | 5/0/0 | .*counter_storm PASS' || bad+="row BASE"$'\n'
	row 1 | grep -q "| - | cached from ${s[0]} | yes | 5/0/0 " || bad+="row 1 not cached"$'\n'
	row 2 | grep -q "| lib/percpu_counter_tree.c | judged | yes | 4/1/0 (test_hpcc_carry carry_batch_4g wrong-answer)" ||
		bad+="row 2 not judged failing"$'\n'
	row 3 | grep -q "| cached from ${s[2]} | yes | 4/1/0 " || bad+="row 3"$'\n'
	row 4 | grep -q "| cached from ${s[2]} | yes | 4/1/0 " || bad+="row 4"$'\n'
	row 5 | grep -q "| lib/percpu_counter_tree.c | cached from ${s[0]} | yes | 5/0/0 " ||
		bad+="row 5"$'\n'
	row 6 | grep -q "| cached from ${s[0]} | yes | 5/0/0 " || bad+="row 6"$'\n'
	grep -qx "first bad: ${s[2]} percpu_counter_tree: carry bit from get_count_order(): unit test_hpcc_carry carry_batch_4g (wrong-answer, init)" "$f" ||
		bad+="no first bad at ${s[2]}"$'\n'
	grep -q "^fixed by: ${s[5]} percpu_counter_tree: carry bit from get_count_order_long() again" "$f" ||
		bad+="no fixed by at ${s[5]}"$'\n'
	[ "$(grep -c '^first bad: \|^fixed by: ' "$f")" = 2 ] || bad+="want one first bad, one fixed by"$'\n'
}

# 1. --git over the series.
bad=
scripts/kernel-check "${opts[@]}" --git "$repo" "${h[0]}..HEAD" >"$tmp/git.out" 2>"$tmp/err"
r=$?
[ $r = 1 ] || bad+="exit $r, want 1: $(head -c 300 "$tmp/err")"$'\n'
check_table "$tmp/git.out" "${h[@]}"
[ -z "$bad" ] || bad+=$(sed 's/^/  /' "$tmp/git.out")
result 1 git_series

# 2. --am on the mbox, with KTAP and JSON.
bad=
scripts/kernel-check "${opts[@]}" --report ktap --json "$tmp/am.json" --am "$tmp/series.mbox" \
	--base "${h[0]}" "$repo" >"$tmp/am.ktap" 2>"$tmp/err"
r=$?
[ $r = 1 ] || bad+="exit $r, want 1: $(head -c 300 "$tmp/err")"$'\n'
python3 tests/lib/ktap_validate.py --quiet --expect 4,3,0 "$tmp/am.ktap" >/dev/null 2>"$tmp/err" ||
	bad+="KTAP: $(head -c 300 "$tmp/err")"$'\n'
grep -q '^not ok 3 [0-9a-f]\{12\} percpu_counter_tree: carry bit from get_count_order()$' "$tmp/am.ktap" &&
grep -q '^# first bad: [0-9a-f]\{12\} percpu_counter_tree: carry bit from get_count_order(): unit test_hpcc_carry carry_batch_4g' "$tmp/am.ktap" &&
grep -q '^ok 6 [0-9a-f]\{12\} percpu_counter_tree: carry bit from get_count_order_long() again$' "$tmp/am.ktap" ||
	bad+="KTAP rows"$'\n'
python3 tests/lib/kernel_series_cases.py am-json "$tmp/am.json" || bad+="JSON"$'\n'
[ -z "$bad" ] || bad+=$(sed 's/^/  /' "$tmp/am.ktap")
result 2 am_series_ktap_json
# For 13: what the .c-only commit's build compiled (its build log, kept
# with its results in kseries/KEY, KEY from the JSON).
k2=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["commits"][2]["content_key"])' \
	"$tmp/am.json" 2>/dev/null)
c_only=$(sed -n 's/.* -c -o \([^ ]*\) .*/\1/p' "${BUILD:-build}/kseries/$k2/build.build.log" 2>&1 |
	 sed 's#.*/build/##')

# 3. a series that only fixes: exit 0, no first bad, fixed by where BASE's
#    failure passes.
bad=
scripts/kernel-check "${opts[@]}" --git "$repo" "${h[4]}..${h[5]}" >"$tmp/fix.out" 2>"$tmp/err"
r=$?
[ $r = 0 ] || bad+="exit $r, want 0"$'\n'
grep -q '^first bad' "$tmp/fix.out" && bad+="first bad in a fix-only range"$'\n'
grep -q "^fixed by: ${h[5]} .*: unit test_hpcc_carry carry_batch_4g$" "$tmp/fix.out" ||
	bad+="no fixed by for the failure of BASE"$'\n'
result 3 fix_only_exit_0

# 4. bad input: one line on stderr, nothing on stdout, exit 2.
bad=
refuse() {	# WHAT ARGS...
	local what=$1 out err r
	shift
	out=$(scripts/kernel-check "${opts[@]}" "$@" 2>"$tmp/err")
	r=$?
	err=$(cat "$tmp/err")
	if [ $r != 2 ] || [ -n "$out" ] || [ "$(wc -l <"$tmp/err")" != 1 ]; then
		bad+="$what: rc=$r stdout=[${out:0:100}] stderr=[$err]"$'\n'
	else
		echo "# $what: $err"
	fi
}
printf 'From: x\n\n--- a/mm/vmscan.c\n+++ b/mm/vmscan.c\n@@ -1 +1 @@\n-nothing here\n+x\n' >"$tmp/noapply.mbox"
refuse not_a_repo --git "$tmp" "${h[0]}..HEAD"
refuse bad_range --git "$repo" "${h[0]}"
refuse unknown_rev --git "$repo" "${h[0]}..nosuchbranch"
refuse empty_range --git "$repo" "HEAD..HEAD"
refuse base_unknown --am "$tmp/series.mbox" --base nosuchrev "$repo"
refuse mbox_missing --am "$tmp/nosuch.mbox" --base "${h[0]}" "$repo"
refuse base_without_files --git "$repo" "$start..HEAD"
refuse mbox_no_apply --am "$tmp/noapply.mbox" --base "${h[2]}" "$repo"
result 4 bad_input_exit_2

# 5. the repository is byte-identical (status, HEAD, branches, stash, files).
bad=
snapshot >"$tmp/after"
cmp -s "$tmp/before" "$tmp/after" || bad+=$(diff "$tmp/before" "$tmp/after" | head -n 10)
result 5 repo_unchanged

# 6. a check that fails at BASE already is no regression: 2..6 from the bug.
bad=
scripts/kernel-check "${opts[@]}" --git "$repo" "${h[2]}..${h[3]}" >"$tmp/pre.out" 2>"$tmp/err"
r=$?
[ $r = 0 ] || bad+="exit $r, want 0 (the failure is BASE's)"$'\n'
result 6 base_failure_not_regression
# 7. a commit that does not build: first bad names the build and its error
#    (gcc says "error: #error TEXT", clang "error: TEXT").
bad=
scripts/kernel-check "${opts[@]}" --git "$repo" "${h[0]}..broken" >"$tmp/broken.out" 2>"$tmp/err"
r=$?
[ $r = 1 ] || bad+="exit $r, want 1"$'\n'
grep -q "^first bad: [0-9a-f]\{12\} percpu_counter_tree: does not compile: builds: build failed: .*error: \(#error \)\{0,1\}broken on purpose" \
	"$tmp/broken.out" || bad+=$(cat "$tmp/broken.out")$'\n'
snapshot >"$tmp/after"
cmp -s "$tmp/before" "$tmp/after" || bad+="the repository changed"
result 7 build_regression
# 8. adapter-only commits are judged: their rows say so, a regression of an
#    adapter case or of counter_storm through the adapter is a first bad;
#    the full suite's cases and the scenarios BASE could not run (oom_race,
#    compaction_churn: SKIP there) are not compared with it; the full suite
#    building and its counter_storm passing are fixed by.
bad=
mapfile -t o < <(g rev-list --reverse --abbrev-commit --abbrev=12 older~2..older)
scripts/kernel-check "${opts[@]}" --git "$repo" "older~2..older" >"$tmp/older.out" 2>"$tmp/err"
r=$?
[ $r = 1 ] || bad+="exit $r, want 1: $(head -c 300 "$tmp/err")"$'\n'
ad="adapter only (the full suite refuses it: early RFC API)"
grep -qF "| $(g rev-parse --short=12 older~2) | percpu_counter_tree: RFC API | - | BASE | $ad | 5/0/2 | counter_storm PASS, compaction_churn/oom_race SKIP (needs the long hpcc API) |" \
	"$tmp/older.out" || bad+="row BASE"$'\n'
grep -qF "| judged | $ad | 3/2/2 (test_hpcc_adapt adapt_compare_value wrong-answer, test_hpcc_adapt adapt_precise_compare_value wrong-answer) |" \
	"$tmp/older.out" || bad+="row rfc-sign"$'\n'
grep -q "| judged | yes | 5/0/0 | .*counter_storm PASS" "$tmp/older.out" || bad+="row long API"$'\n'
grep -q "^first bad: ${o[0]} percpu_counter_tree: compare_value answers .*: unit test_hpcc_adapt adapt_compare_value (wrong-answer" \
	"$tmp/older.out" || bad+="no first bad at ${o[0]}"$'\n'
grep -q "^first bad: ${o[0]} percpu_counter_tree: compare_value answers .*: stress counter_storm FAIL (compare, wrong-answer)$" \
	"$tmp/older.out" || bad+="no first bad (counter_storm) at ${o[0]}"$'\n'
grep -q "^fixed by: ${o[1]} percpu_counter_tree: long API: builds$" "$tmp/older.out" ||
	bad+="no fixed by (builds) at ${o[1]}"$'\n'
grep -q "^fixed by: ${o[1]} percpu_counter_tree: long API: stress counter_storm$" "$tmp/older.out" ||
	bad+="no fixed by (counter_storm) at ${o[1]}"$'\n'
[ "$(grep -c '^first bad: \|^fixed by: ' "$tmp/older.out")" = 5 ] ||
	bad+="want the two adapter cases and counter_storm as first bad, the build and counter_storm as fixed by"$'\n'
[ -z "$bad" ] || bad+=$(sed 's/^/  /' "$tmp/older.out")
result 8 adapter_only_series

# 9. A dead ssh host beside this one: its jobs are tried again here.
bad=
echo "1/ssh -o BatchMode=yes -o ConnectTimeout=5 -p 9 127.0.0.1" >"$tmp/hosts"
scripts/kernel-check "${opts[@]}" --sshloginfile "$tmp/hosts" --git "$repo" "${h[0]}..HEAD" \
	>"$tmp/dead.out" 2>"$tmp/err"
r=$?
[ $r = 1 ] || bad+="exit $r, want 1: $(head -c 300 "$tmp/err")"$'\n'
check_table "$tmp/dead.out" "${h[@]}"
grep -q '^fixed by: .*: builds$' "$tmp/dead.out" && bad+="fixed by: builds"$'\n'
grep -q '^no verdict: ' "$tmp/dead.out" && bad+="a commit without verdict"$'\n'
[ -z "$bad" ] || bad+=$(sed 's/^/  /' "$tmp/dead.out")
result 9 dead_ssh_host

# 10. A commit turns the judged .c into a symlink out of the repository.
bad=
echo "secret outside the repository" >"$tmp/outside.c"
# Made with a private index: the user's worktree, index and stash stay as they are.
export GIT_INDEX_FILE=$tmp/link.index
g read-tree "${h[0]}"
blob=$(printf '%s' "$tmp/outside.c" | g hash-object -w --stdin)
g update-index --add --cacheinfo "120000,$blob,lib/percpu_counter_tree.c"
link=$(g commit-tree "$(g write-tree)" -p "${h[0]}" -m "percpu_counter_tree: a symlink")
unset GIT_INDEX_FILE
scripts/kernel-check "${opts[@]}" --git "$repo" "${h[0]}..$link" >"$tmp/link.out" 2>"$tmp/err"
r=$?
[ $r = 4 ] || bad+="exit $r, want 4: $(head -c 300 "$tmp/err")"$'\n'
grep -q '^no verdict: [0-9a-f]\{12\} percpu_counter_tree: a symlink: judge: refused: lib/percpu_counter_tree.c is a symlink' \
	"$tmp/link.out" || bad+="no refusal"$'\n'
grep -q secret "$tmp/link.out" "$tmp/err" && bad+="the target was read"$'\n'
grep -q '^first bad\|^fixed by' "$tmp/link.out" && bad+="compared"$'\n'
[ -z "$bad" ] || bad+=$(sed 's/^/  /' "$tmp/link.out")
result 10 symlinked_file_refused

# 11. SIGTERM while the judges run: their own BUILD, so that nothing is
#     cached and what is left behind can be told by its path.
bad=
mkdir -p "$tmp/t"
TMPDIR=$tmp/t BUILD=$tmp/kb scripts/kernel-check --duration 30s --cpus 2 --unit test_hpcc_carry \
	--am "$tmp/series.mbox" --base "${h[0]}" "$repo" >"$tmp/term.out" 2>"$tmp/term.err" &
pid=$!
for ((i = 0; i < 3000; i++)); do	# up to 300 s for the first judge to start
	pgrep -f "kernel-judge .*$tmp/kb" >/dev/null && break
	sleep 0.1
done
sleep 2
kill -TERM $pid
for ((i = 0; i < 600; i++)); do
	kill -0 $pid 2>/dev/null || break
	sleep 0.1
done
wait $pid
r=$?
sleep 1
[ $r = 143 ] || bad+="exit $r, want 143"$'\n'
[ "$(cat "$tmp/term.err")" = "kernel-check: stopped by SIGTERM; no verdict" ] ||
	bad+="stderr: $(head -c 300 "$tmp/term.err")"$'\n'
[ -z "$(ls -A "$tmp/t")" ] || bad+="left in TMPDIR: $(ls -A "$tmp/t")"$'\n'
left=$(pgrep -f "$tmp/kb")
[ -z "$left" ] || { bad+="processes left: $(ps -o pid,args -p "${left//$'\n'/,}")"$'\n'; kill $left; }
result 11 sigterm_stops_everything

# 12. Fixed, then broken again: a commit after the fix has the bug's content
#     again (a commit object only, made as in 10; every content is built).
bad=
again=$(g commit-tree "${h[2]}^{tree}" -p HEAD -m "percpu_counter_tree: get_count_order() once more")
scripts/kernel-check "${opts[@]}" --git "$repo" "${h[0]}..$again" >"$tmp/again.out" 2>"$tmp/err"
r=$?
[ $r = 1 ] || bad+="exit $r, want 1: $(head -c 300 "$tmp/err")"$'\n'
grep -q "^first bad: ${h[2]} .*: unit test_hpcc_carry carry_batch_4g" "$tmp/again.out" &&
	grep -q "^fixed by: ${h[5]} .*: unit test_hpcc_carry carry_batch_4g$" "$tmp/again.out" &&
	grep -q "^broken again by: ${again:0:12} percpu_counter_tree: get_count_order() once more: unit test_hpcc_carry carry_batch_4g" \
		"$tmp/again.out" || bad+="no first bad / fixed by / broken again by"$'\n'
grep -q "| cached from ${h[2]} | yes | 4/1/0 " "$tmp/again.out" || bad+="the last commit not cached"$'\n'
[ -z "$bad" ] || bad+=$(sed 's/^/  /' "$tmp/again.out")
result 12 fixed_then_broken_again
# 13. The commit that changes only lib/percpu_counter_tree.c (judged in 2,
#     in the lane BASE was just built in) compiles that object alone.
bad=
[ "$c_only" = hpcc/percpu_counter_tree.o ] ||
	bad="compiled at ${h[2]}: $(printf '%s' "$c_only" | tr '\n' ' ' | head -c 600)"
result 13 c_only_commit_rebuilds_its_object

# lane_judge NAME: tree NAME judged in the lane the series used (BASE's
# files, changed by the case).
lane=$(cd "${BUILD:-build}/kseries/lanes/1" 2>/dev/null && pwd)
lane_judge() {
	scripts/kernel-judge --duration 0.2s --cpus 2 --unit test_hpcc_carry --jobs 2 \
		--lane "$lane" --out "$tmp/$1.verdict" "$tmp/$1" "$tmp/$1.b" >/dev/null 2>&1
}
mkdir -p "$tmp/t0/lib" "$tmp/t0/include/linux"
cp lib/hpcc/percpu_counter_tree.c "$tmp/t0/lib/"
cp lib/hpcc/include/linux/percpu_counter_tree.h "$tmp/t0/include/linux/"
cp -r "$tmp/t0" "$tmp/t2"
sed -i '1i #error broken on purpose' "$tmp/t2/lib/percpu_counter_tree.c"

# 14. A commit that does not compile, after one whose adapter probes
#     matched no shape (their header, planted, left in the lane): its
#     verdict names the compile error alone.
bad=
lane_judge t0
printf '/* HPCC_ADAPT_RFC no: planted by the test */\n' >"$lane/build/kinc/hpcc_adapt_api.h"
touch "$lane/build/kinc/hpcc_adapt_api.h.stamp"
lane_judge t2
why=$(sed -n 's/^why\t//p' "$tmp/t2.verdict" 2>/dev/null)
[[ $why == "build failed: "*"broken on purpose"* ]] && [[ $why != *"adapter shape"* ]] ||
	bad="why: $why"
result 14 lane_failed_build_names_no_earlier_shape

# 15. BASE's .c again, then the header alone changed in the lane's tree
#     and two of its objects made, one whose .d file names the header and
#     one whose .d does not: what the build compiles all include the
#     header (the tree's .c and that one), the other is left as it was.
bad=
cp "$tmp/t0/lib/percpu_counter_tree.c" "$lane/src/lib/"
dep=("$lane"/build/src/scenarios/*/*.d)
inc=$(grep -l 'kinc/linux/percpu_counter_tree\.h' "${dep[@]}" 2>/dev/null | head -n 1)
not=$(grep -L 'kinc/linux/percpu_counter_tree\.h' "$lane"/build/lib/util/*.d 2>/dev/null | head -n 1)
echo "void percpu_counter_tree_series_unused(void);" >>"$lane/src/include/linux/percpu_counter_tree.h"
make --no-print-directory KERNEL_SRC="$lane/src" BUILD="$lane/build" DEBUG_INFO=0 "${inc%.d}.o" "${not%.d}.o" \
	>"$tmp/t1.log" 2>&1 || bad+="make: $(tail -n 3 "$tmp/t1.log")"$'\n'
sed -n 's/.* -c -o \([^ ]*\) .*/\1/p' "$tmp/t1.log" | sort >"$tmp/t1.compiled"
printf '%s\n' "$lane/build/hpcc/percpu_counter_tree.o" "${inc%.d}.o" | sort >"$tmp/t1.want"
[ -n "$inc" ] && [ -n "$not" ] && cmp -s "$tmp/t1.compiled" "$tmp/t1.want" ||
	bad+="compiled [$(tr '\n' ' ' <"$tmp/t1.compiled")], want [$(tr '\n' ' ' <"$tmp/t1.want")]"$'\n'
result 15 header_only_commit_rebuilds_its_includers

# 16. The series read BASE's header from its store (kseries/khdr/SUM);
#     two trees with that header and other .c files, each built in a build
#     directory of its own with that store through ccache (an empty cache
#     of the test's): the second compiles an object that includes the
#     header as a cache hit, its one compile, counted from make's log and
#     ccache's statistics.
bad=
store=$(cd "${BUILD:-build}/kseries/khdr" 2>/dev/null && pwd)
sum=$(sha256sum <lib/hpcc/include/linux/percpu_counter_tree.h | cut -c1-16)
cp -r "$tmp/t0" "$tmp/t3"
echo "/* another .c, the same header */" >>"$tmp/t3/lib/percpu_counter_tree.c"
khdr_make() {	# TREE BUILD TARGET
	env -u CCACHE_DISABLE -u CCACHE_BASEDIR CCACHE_DIR="$tmp/ccache" \
		make --no-print-directory -j2 KERNEL_SRC="$tmp/$1" BUILD="$tmp/$2" \
		KHDR_STORE="$store" CC="ccache ${CC:-cc}" "$tmp/$2/$3"
}
obj=tests/unit/test_hpcc_carry.o
if ! command -v ccache >/dev/null; then
	echo "ok 16 same_header_objects_shared # SKIP no ccache"
else
	cmp -s "$store/$sum/linux/percpu_counter_tree.h" lib/hpcc/include/linux/percpu_counter_tree.h ||
		bad+="the series left no store with BASE's header: ${store:-no kseries/khdr}"$'\n'
	if [ -z "$bad" ]; then
		{ khdr_make t0 h1 "$obj" && khdr_make t3 h2 kinc/hpcc_api.h &&
		  CCACHE_DIR=$tmp/ccache ccache -z && khdr_make t3 h2 "$obj"; } >"$tmp/t3.log" 2>&1 ||
			bad+="make: $(tail -n 3 "$tmp/t3.log")"$'\n'
		stats=$(CCACHE_DIR=$tmp/ccache ccache --print-stats 2>/dev/null | awk -F '\t' '
			$1 ~ /^(direct|preprocessed)_cache_hit$/ { h += $2 } $1 == "cache_miss" { m = $2 }
			END { printf "%d %d", h, m }')
		compiled=$(sed -n '/ccache -z\|Statistics zeroed/,$ s/.* -c -o \([^ ]*\) .*/\1/p' "$tmp/t3.log")
		grep -q 'kinc/linux/percpu_counter_tree\.h' "$tmp/h2/${obj%.o}.d" 2>/dev/null &&
			grep -qF -- " -I$store/$sum " "$tmp/t3.log" ||
			bad+="$obj does not read the header from the store"$'\n'
		[ "$compiled" = "$tmp/h2/$obj" ] && [ "$stats" = "1 0" ] ||
			bad+="compiled [$compiled], ccache hits/misses [$stats], want [$tmp/h2/$obj] [1 0]"$'\n'
	fi
	result 16 same_header_objects_shared
fi
exit $rc
