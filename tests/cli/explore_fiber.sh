#!/usr/bin/env bash
# Fiber switches (docs/explore.md#fiber-switches): the explorer's own
# x86-64 switch and ucontext's swapcontext run the same searches to the
# same executions, traces and verdicts (spin locks and grace periods
# included), and a failure is found and replayed the same way under
# both; --fiber-switch takes only its two names. KTAP on stdout.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib/sh/common.sh
. "$here/lib/sh/common.sh"
XP=$(realpath -m "${BUILD:-build/cc}/explore/explore")
NR=5
echo "KTAP version 1"
echo "1..$NR"
if [ ! -x "$XP" ]; then
	for i in $(seq 1 $NR); do echo "ok $i explore_fiber_$i # SKIP no $XP"; done
	exit 0
fi
test_begin
# Not x86-64, or a sanitizer build: the explorer refuses the name (only
# the option is parsed: no search runs, so a broken switch cannot hide here).
if ! "$XP" --fiber-switch asm --help >/dev/null 2>&1; then
	for i in $(seq 1 $NR); do echo "ok $i explore_fiber_$i # SKIP ucontext only here"; done
	exit 0
fi

# same NAME ARGS...: both switches give the same counts and verdict lines.
same() {
	local name=$1 sw
	shift
	for sw in asm ucontext; do
		"$XP" --fiber-switch $sw "$@" >"$sw.out" 2>&1
		echo "exit $?" >>"$sw.out"
		grep -E '^# (bound|executions|traces|complete|exhausted|FAIL|replay)|^exit|ok 1' "$sw.out" |
			sed 's/ time [0-9.]* s$//' >"$sw.sum"
	done
	[ -s asm.sum ] && grep -qE '^# (executions [1-9]|replay .*: FAIL)' asm.sum && cmp -s asm.sum ucontext.sum
	result $? "$name" "asm: $(tr '\n' ' ' <asm.sum) ucontext: $(tr '\n' ' ' <ucontext.sum)"
}

same fiber_same_storm_2x3_r1_b2 --cpus 2 --adds 3 --readers 1 --batch 2 --bound 2 --reduction none
same fiber_same_oom_forks_b1 --harness oom --forks 1 --bound 1 --reduction dpor
same fiber_same_compaction_b1 --harness compaction --bound 1 --reduction none
"$XP" --fiber-switch ucontext --plant --bound 2 --save sched >/dev/null 2>&1
same fiber_same_replay --replay-schedule sched
"$XP" --fiber-switch bogus >out 2>err
rc=$?
[ $rc = 2 ] && [ ! -s out ] && [ "$(wc -l <err)" = 1 ]
result $? fiber_switch_bad_name_refused "exit $rc: $(cat err)"
[ "$failed" = 0 ] && [ "$n" = "$NR" ]
