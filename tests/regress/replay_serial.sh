#!/usr/bin/env bash
# Serial replay, replay files and shrinking (docs/regress.md):
# a replay is a pure function of its file (same outcome, same tightened
# file, every time); a concurrent failure writes a replay file that fails
# serially; a tightened file fails at the same step; --shrink finds a
# smaller reproducer that still fails; bad files are usage errors.
# Every run is bounded by steps, never by time. KTAP on stdout.
set -u
STRESS=$(realpath "${STRESS:-${BUILD:-build/cc}/stress}")
here=$(cd "$(dirname "$0")/.." && pwd)
replay_steps=30000
n=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export STRESS_SELFTEST=1

# shellcheck source=tests/lib/sh/common.sh
. "$here/lib/sh/common.sh"


echo "KTAP version 1"
replay_file >pass.txt
"$STRESS" --replay pass.txt >probe.out 2>&1
if grep -q 'not supported in ThreadSanitizer' probe.out; then
	echo "1..1"
	echo "ok 1 replay # SKIP serial replay uses fibers: not in TSan builds"
	exit 0
fi

# 1. Determinism: two replays of the same file, identical outcome and file.
"$STRESS" --replay pass.txt --replay-out a.txt >a.out 2>&1; rc1=$?
"$STRESS" --replay pass.txt --replay-out b.txt >b.out 2>&1; rc2=$?
grep -v '^origin' a.txt >a.cmp; grep -v '^origin' b.txt >b.cmp
[ $rc1 = 0 ] && [ $rc2 = 0 ] && cmp -s a.cmp b.cmp && grep -q '^outcome pass' a.txt &&
	[ "$(grep 'replay outcome' a.out)" = "$(grep 'replay outcome' b.out)" ]
result $? replay_is_deterministic "rc $rc1/$rc2; $(diff a.cmp b.cmp | head -3)"

# 2. Another schedule seed gives another interleaving (the seed is used).
replay_file sched-seed 99 >other.txt
"$STRESS" --replay other.txt --replay-out c.txt >/dev/null 2>&1
! cmp -s <(grep '^ops' a.txt) <(grep '^ops' c.txt)
result $? schedule_seed_changes_the_interleaving

# 3. A concurrent failure writes a replay file that fails serially.
"$STRESS" --scenario selftest --selftest-fail-after 40 --cpus 4 --duration 30s \
	--stat-interval 0 --seed 3 --replay-out conc.txt >conc.out 2>&1; rc=$?
[ $rc = 1 ] && grep -q 'stress: replay file conc.txt: the serial schedule fails selftest' \
	conc.out && grep -q '^expect selftest' conc.txt
result $? concurrent_failure_writes_replay_file "rc=$rc; $(grep replay conc.out | head -2)"

# 4. --replay of that file fails the same way 10 times out of 10.
for i in 1 2 3 4 5 6 7 8 9 10; do
	"$STRESS" --replay conc.txt >r$i.out 2>&1 && continue
	grep 'replay outcome' r$i.out >>outcomes
done
[ "$(wc -l <outcomes)" = 10 ] && [ "$(sort -u outcomes | wc -l)" = 1 ] &&
	grep -q 'FAIL invariant=selftest' outcomes
result $? replay_fails_10_of_10 "$(sort outcomes | uniq -c)"

# 5. The tightened file (--replay-out of a failing replay) stops right at
#    the failure: same step, and one step fewer passes.
"$STRESS" --replay conc.txt --replay-out tight.txt >/dev/null 2>&1
step=$(awk '/^outcome/ { print $4 }' tight.txt)
"$STRESS" --replay tight.txt >t.out 2>&1; rc=$?
sed -e "s/^steps .*/steps $((step - 1))/" -e "/^outcome /d" tight.txt >short.txt
"$STRESS" --replay short.txt >/dev/null 2>&1; rc_short=$?
[ $rc = 1 ] && [ $rc_short = 0 ] && grep -q "at step $step of $step" t.out
result $? tightened_file_stops_at_the_failure "step=$step rc=$rc short=$rc_short"

# 6. Shrinking: selftest fails on CPU 0's 40th operation, whatever the
#    others do: the smallest reproducer has 1 CPU and 40 operations.
"$STRESS" --shrink conc.txt --replay-out min.txt >shrink.out 2>shrink.err; rc=$?
[ $rc = 0 ] && grep -q '^cpus 1$' min.txt && grep -q '^ops 40$' min.txt &&
	grep -q 'stress: reproduce: .* --replay min.txt' shrink.out
result $? shrink_finds_the_smallest "rc=$rc; $(grep -E '^(cpus|ops)' min.txt | cut -c1-80)"

# 7. ... and it still fails.
"$STRESS" --replay min.txt >m.out 2>&1; rc=$?
[ $rc = 1 ] && grep -q 'FAIL invariant=selftest' m.out
result $? shrunk_reproducer_fails "rc=$rc"

# 8. A file that does not fail is no input for --shrink (exit 2, one message).
"$STRESS" --shrink pass.txt >/dev/null 2>s.err; rc=$?
[ $rc = 2 ] && grep -q 'does not fail' s.err && [ "$(wc -l <s.err)" = 1 ]
result $? shrink_of_a_passing_file_refused "rc=$rc"

# 9. Bad replay files: one line on stderr, exit 2.
bad=0
printf 'hpcc-stress-replay 3\n' >v3.txt
replay_file cpus 3 | sed 's/^ops none$/ops 1 2/' >ops.txt
replay_file | sed 's/^end$/bogus 3\nend/' >key.txt
replay_file scenario nosuch >sc.txt
replay_file preempt 2 >p.txt
for f in missing.txt v3.txt ops.txt key.txt sc.txt p.txt; do
	"$STRESS" --replay $f >o 2>e; rc=$?
	if [ $rc != 2 ] || [ "$(wc -l <e)" != 1 ] || [ -s o ]; then
		echo "# $f: rc=$rc, $(head -c 200 e)"
		bad=1
	fi
done
"$STRESS" --replay-search x >o 2>e; rc=$?
[ $rc = 2 ] || bad=1
result $bad bad_replay_files_are_usage_errors

[ $failed = 0 ]
