#!/usr/bin/env bash
# The KUnit shim (docs/kunit.md) through our fixture suite
# (tests/seam/kunit/kunit_fixture.c, $BUILD/kunit/kunit_fixture): suite
# kunit_shim passes at 1, 8 and 64 CPUs with the kernel's KTAP layout;
# suite kunit_shim_fails fails with the kernel's failure texts, an
# assertion ends its case and an expectation does not; bad input is one
# line and exit 2; make kunit with a KERNEL_SRC that does not exist is bad
# input (exit 2), not a SKIP. Env: BUILD (default build/cc). KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
fx=${BUILD:-build/cc}/kunit/kunit_fixture
src=tests/seam/kunit/kunit_fixture.c
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "KTAP version 1"
echo "1..9"
n=0 failed=0
result() {	# result OK NAME [diagnostic file]
	n=$((n + 1))
	if [ "$1" = 1 ]; then
		echo "ok $n $2"
	else
		[ -n "${3:-}" ] && sed 's/^/# /' "$3" | head -40
		echo "not ok $n $2"
		failed=1
	fi
}
# has FILE TEXT...: every TEXT is a whole line of FILE (else named in $tmp/why)
has() {
	local f=$1 ok=1
	shift
	for line in "$@"; do
		grep -qxF -- "$line" "$f" || { echo "missing line: '$line'" >>"$tmp/why"; ok=0; }
	done
	[ $ok = 1 ]
}
line_of() {	# the line number of the first line of $src containing TEXT
	grep -nF -- "$1" "$src" | head -1 | cut -d: -f1
}

if [ ! -x "$fx" ]; then
	echo "# $fx is not built (make all builds it)"
	for i in 1 2 3 4 5 6 7 8; do echo "not ok $i fixture_missing"; done
	exit 1
fi

# 1-3: the passing suite, at several CPU counts.
for cpus in 1 8 64; do
	: >"$tmp/why"
	"$fx" --cpus "$cpus" --filter kunit_shim >"$tmp/out" 2>"$tmp/err"
	rc=$?
	ok=0
	[ $rc = 0 ] && has "$tmp/out" "KTAP version 1" "1..1" \
		"    KTAP version 1" "    # Subtest: kunit_shim" "    1..13" \
		"    # shim_hooks: init and exit hooks ran" \
		"    ok 3 shim_skip # SKIP skipped on purpose" \
		"    # shim_mark_skipped: still running after kunit_mark_skipped()" \
		"    ok 4 shim_mark_skipped # SKIP marked, then went on" \
		"        KTAP version 1" "        # Subtest: shim_param" \
		"        ok 1 value 1" "        ok 2 value 2" "        ok 3 value 4" \
		"    # shim_param: pass:3 fail:0 skip:0 total:3" "    ok 5 shim_param" \
		"    ok 6 shim_kthread_run_on_cpu" "    ok 7 shim_kthread_stop" \
		"    ok 9 shim_cpumask" "    ok 10 shim_random" "    ok 11 shim_kthread_adds" \
		"    ok 13 shim_kthread_waiter" \
		"    # suite_exit: 15 case inits, 15 case exits" \
		"# kunit_shim: pass:11 fail:0 skip:2 total:13" \
		"# Totals: pass:13 fail:0 skip:2 total:15" "ok 1 kunit_shim" && ok=1
	[ $ok = 1 ] || { echo "exit $rc" >>"$tmp/why"; cat "$tmp/out" "$tmp/err" >>"$tmp/why"; }
	result $ok "shim_suite_passes_cpus_$cpus" "$tmp/why"
done

# 4-6: the failing suite: texts, an assertion ends the case, exit 1.
: >"$tmp/why"
"$fx" --cpus 4 >"$tmp/out" 2>"$tmp/err"
rc=$?
l_eq=$(line_of 'KUNIT_EXPECT_EQ(test, got, 4);')
l_as=$(line_of 'KUNIT_ASSERT_GT_MSG(test, x, 2,')
ok=0
[ $rc = 1 ] && has "$tmp/out" \
	"    # fails_expect_eq: EXPECTATION FAILED at $src:$l_eq" \
	"    Expected got == 4, but" "        got == 3 (0x3)" \
	"    # fails_expect_eq: an expectation does not end the case" \
	"    not ok 1 fails_expect_eq" \
	"    # fails_assert: ASSERTION FAILED at $src:$l_as" \
	"    Expected x > 2, but" "        x == 1 (0x1)" "    x is 1" \
	"    not ok 2 fails_assert" && ok=1
# A literal side is not repeated (the kernel's is_literal()).
grep -qxF "        4 == 4 (0x4)" "$tmp/out" && { ok=0; echo "literal 4 repeated" >>"$tmp/why"; }
[ $ok = 1 ] || cat "$tmp/out" >>"$tmp/why"
result $ok "expectation_and_assertion_texts" "$tmp/why"

: >"$tmp/why"
ok=1
if grep -qF "NOT REACHED" "$tmp/out"; then
	ok=0
	echo "the case went on after a failed assertion" >>"$tmp/why"
fi
result $ok "assertion_ends_the_case" "$tmp/why"

: >"$tmp/why"
ok=0
has "$tmp/out" "    Expected 2 < 1 to be true, but is false" \
	"    Expected null == (void *)test, but" "        null == 0000000000000000" \
	"    Expected \"left\" == \"right\", but" \
	"    Expected null is not null, but is" \
	"    Expected ERR_PTR(-12) is not error, but is: -12" \
	"    plain failure 7" "    not ok 3 fails_kinds" \
	"        not ok 2 value 2" "    not ok 4 fails_one_param" \
	"# kunit_shim_fails: pass:0 fail:4 skip:0 total:4" \
	"# Totals: pass:2 fail:4 skip:0 total:6" "not ok 2 kunit_shim_fails" && ok=1
[ $ok = 1 ] || cat "$tmp/out" >>"$tmp/why"
result $ok "failure_kinds_and_totals" "$tmp/why"

# 7: --list names every case.
: >"$tmp/why"
"$fx" --list >"$tmp/out" 2>&1
ok=0
[ "$(wc -l <"$tmp/out")" = 21 ] && has "$tmp/out" "kunit_shim.shim_hooks" "kunit_shim.shim_kthread_queue" \
	"kunit_shim_fails.fails_one_param" "kunit_shim_robust.robust_after" && ok=1
[ $ok = 1 ] || cat "$tmp/out" >>"$tmp/why"
result $ok "list" "$tmp/why"

# 8: bad input: one line on stderr, exit 2, nothing on stdout; an unknown
# option named in it.
: >"$tmp/why"
ok=1
for args in "--cpus 0" "--cpus 4097" "--cpus x" "--cpus -1" "--cpus" "--seed -1" \
	"--seed 1x" "--bogus" "extra"; do
	# shellcheck disable=SC2086
	"$fx" $args >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc != 2 ] || [ "$(wc -l <"$tmp/err")" != 1 ] || [ -s "$tmp/out" ]; then
		ok=0
		echo "'$args': exit $rc, stderr: $(cat "$tmp/err")" >>"$tmp/why"
	fi
	# The line names what was wrong: an unknown option by itself.
	if [ "$args" = --bogus ] && ! grep -q "'--bogus'" "$tmp/err"; then
		ok=0
		echo "'$args': the error does not name it: $(cat "$tmp/err")" >>"$tmp/why"
	fi
done
result $ok "bad_input_exit_2" "$tmp/why"

# 9: make kunit on a tree that does not exist: bad input, never a SKIP.
: >"$tmp/why"
(unset MAKEFLAGS MAKELEVEL MFLAGS
 make --no-print-directory KERNEL_SRC="$tmp/nonexistent" kunit >"$tmp/out" 2>"$tmp/err")
rc=$?
ok=0
[ $rc = 2 ] && [ ! -s "$tmp/out" ] &&
	[ "$(head -1 "$tmp/err")" = "kunit: KERNEL_SRC=$tmp/nonexistent: no such directory" ] && ok=1
[ $ok = 1 ] || echo "exit $rc: $(cat "$tmp/out" "$tmp/err")" >>"$tmp/why"
result $ok "missing_tree_exit_2" "$tmp/why"
exit $failed
