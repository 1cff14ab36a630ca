#!/usr/bin/env bash
# tier: long
# scripts/kunit (what make kunit runs) exits with the driver's status
# (docs/kunit.md), on a fixture tree of ours (lib/hpcc's two files and a
# KUnit file written here, one build reused by every case):
#   1 a suite that passes: 0, its # Totals line printed
#   2 the same suite with a wrong expectation: 1
#   3 a case that never returns, under --timeout 3s: 4 (no verdict), one
#     line naming the limit, the driver gone
#   4 the same case under KUNIT_CASE_TIMEOUT=1: that case not ok, class
#     crash (timeout), the other case still run, exit 1
#   5 bad input: no such tree, --cpus 0, a VAR that is not VAR=VALUE: 2,
#     one line each; a tree without a KUnit file: SKIP, exit 0
#   6 make kunit (the same build, run after 1 and 2): 0 on the passing
#     suite; on the failing one GNU make's 2, its last line naming the
#     driver's 1; no such tree: 2, one line
# Env: BUILD (default build/cc), CC. KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
. tests/lib/sh/seam.sh
seam_begin 6 kunit-exit
src=$work/tree
mkdir -p "$src/lib/tests" "$src/include/linux"
cp lib/hpcc/percpu_counter_tree.c "$src/lib/"
cp lib/hpcc/include/linux/percpu_counter_tree.h "$src/include/linux/"
kfile=$src/lib/tests/percpu_counter_tree_kunit.c
cat >"$kfile" <<'EOF'
// SPDX-License-Identifier: GPL-2.0
#include <kunit/test.h>
#include <linux/percpu_counter_tree.h>
#include <linux/slab.h>
#include <unistd.h>

static void exit_sum(struct kunit *test)
{
	struct percpu_counter_tree c;
	void *items = kzalloc(percpu_counter_tree_items_size(), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, items);
	KUNIT_ASSERT_EQ(test, percpu_counter_tree_init(&c, items, 32, GFP_KERNEL), 0);
	percpu_counter_tree_add(&c, 5);
	KUNIT_EXPECT_EQ(test, percpu_counter_tree_precise_sum(&c), WANT);
	percpu_counter_tree_destroy(&c);
	kfree(items);
}

static void exit_hang(struct kunit *test)
{
	while (HANG)
		pause();
}

static struct kunit_case exit_cases[] = {
	KUNIT_CASE(exit_sum),
	KUNIT_CASE(exit_hang),
	{}
};

static struct kunit_suite exit_suite = {
	.name = "kunit_exit",
	.test_cases = exit_cases,
};
kunit_test_suite(exit_suite);
EOF
# run WANT HANG [ARGS...]: scripts/kunit on the tree with the file set so.
run() {
	sed -i -e "s/, \(WANT\|[0-9]*L\));\$/, $1L);/" -e "s/while (.*)\$/while ($2)/" "$kfile"
	shift 2
	scripts/kunit --cpus 4 --build "$work/b" "$@" "$src" CC="$cc" >"$work/out" 2>"$work/err"
}
# mk: make kunit on the tree as it is (what run left), its status in $mrc.
mk() {
	make --no-print-directory KERNEL_SRC="$1" BUILD="$work/b" KUNIT_CPUS=4 CC="$cc" kunit \
		>"$work/mout" 2>"$work/merr"
	mrc=$?
}
mbad=
bad=
run 5 0
rc=$?
[ $rc = 0 ] || bad+="pass: exit $rc"$'\n'
grep -qx '# Totals: pass:2 fail:0 skip:0 total:2' "$work/out" || bad+="pass: $(cat "$work/out")"$'\n'
[ -z "$bad" ] || bad+=$(tail -5 "$work/err")
result 1 passing_suite_exit_0
mk "$src"
[ $mrc = 0 ] && grep -qx '# Totals: pass:2 fail:0 skip:0 total:2' "$work/mout" ||
	mbad+="make kunit, passing: exit $mrc: $(tail -3 "$work/merr")"$'\n'

bad=
run 6 0
rc=$?
[ $rc = 1 ] || bad+="fail: exit $rc: $(tail -5 "$work/err")"$'\n'
grep -q '^    not ok 1 exit_sum$' "$work/b/kunit.ktap" || bad+="fail: $(cat "$work/b/kunit.ktap")"$'\n'
result 2 failing_suite_exit_1
mk "$src"
[ $mrc = 2 ] && [ "$(grep '^kunit: ' "$work/merr" | tail -1)" = "kunit: KTAP in $work/b/kunit.ktap, exit 1" ] ||
	mbad+="make kunit, failing: exit $mrc: $(tail -3 "$work/merr")"$'\n'

bad=
run 5 1 --timeout 3s
rc=$?
[ $rc = 4 ] || bad+="hang: exit $rc"$'\n'
grep -qx 'kunit: no verdict: the time limit (3s) expired; KTAP so far in .*' "$work/err" ||
	bad+="hang: $(tail -3 "$work/err")"$'\n'
pgrep -f "^$work/b/kunit/percpu_counter_tree_kunit" >/dev/null && bad+="hang: the driver is still running"$'\n'
result 3 time_limit_no_verdict_4

# The same hang under a per-case limit (what a series step's judge meets):
# that case fails as crash (timeout), the suite goes on, exit 1.
bad=
KUNIT_CASE_TIMEOUT=1 run 5 1 --timeout 60s
rc=$?
[ $rc = 1 ] || bad+="case limit: exit $rc: $(tail -3 "$work/err")"$'\n'
grep -q '^    # exit_hang: class=crash (timeout)' "$work/b/kunit.ktap" &&
	grep -q '^    not ok 2 exit_hang$' "$work/b/kunit.ktap" &&
	grep -q '^    ok 1 exit_sum$' "$work/b/kunit.ktap" ||
	bad+="case limit: $(cat "$work/b/kunit.ktap")"$'\n'
result 4 case_limit_hang_is_crash_exit_1

bad=
chk() {	# chk WANT-RC WANT-LINE ARGS...
	local want=$1 line=$2 rc
	shift 2
	scripts/kunit "$@" >"$work/out" 2>"$work/err"
	rc=$?
	if [ $rc != "$want" ] || ! grep -qF -- "$line" "$work/out" "$work/err" ||
	   [ "$(cat "$work/out" "$work/err" | wc -l)" != 1 ]; then
		bad+="$*: exit $rc: $(cat "$work/out" "$work/err")"$'\n'
	fi
}
chk 2 "kunit: KERNEL_SRC=$work/none: no such directory" "$work/none"
chk 2 "kunit: --cpus '0' is not a number in 1..4096" --cpus 0 "$src"
chk 2 "kunit: 'bogus' is not VAR=VALUE" "$src" bogus
mkdir -p "$work/nofile/lib"
chk 0 "kunit: SKIP $work/nofile has no lib/tests/percpu_counter_tree_kunit.c" \
	--build "$work/b" "$work/nofile"
result 5 bad_input_exit_2_skip_0

bad=$mbad
mk "$work/none"
[ $mrc = 2 ] && [ ! -s "$work/mout" ] &&
	grep -qx "kunit: KERNEL_SRC=$work/none: no such directory" "$work/merr" &&
	[ "$(grep -vc '^make: \*\*\*' "$work/merr")" = 1 ] ||
	bad+="make kunit, no tree: exit $mrc: $(cat "$work/mout" "$work/merr")"$'\n'
result 6 make_kunit_status
exit $((failed != 0))
