#!/usr/bin/env bash
# Replay input that is not a regular file (docs/regress.md, docs/stress.md):
# --replay <(...) is read with the same size bound as a file, and a FIFO
# with no writer waits like any reader, yet SIGINT/SIGTERM still end that
# wait with the signal's exit status (130/143), never "Interrupted system
# call" and exit 2. The signal is what ends the wait (timeout -s sends it
# once), not a time limit of the test. KTAP on stdout.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib/sh/common.sh
. "$here/lib/sh/common.sh"
test_begin

echo "KTAP version 1"
replay_file >ok.txt
"$STRESS" --replay ok.txt >probe.out 2>&1
if grep -q 'not supported in ThreadSanitizer' probe.out; then
	echo "1..1"
	echo "ok 1 cli_replay_input # SKIP serial replay uses fibers: not in TSan builds"
	exit 0
fi

# 1. A pipe is a replay file like any other.
"$STRESS" --replay <(cat ok.txt) >o 2>e
rc=$?
[ $rc = 0 ] && grep -q '^stress: PASS counter_storm cpus=8 ' o
result $? replay_from_a_pipe "exit $rc; $(head -c 200 e)"

# 2. ... with the same bound: more than 1 MiB through a pipe is refused, exit 2.
"$STRESS" --replay <(head -c 2000000 /dev/zero) >o 2>e
rc=$?
[ $rc = 2 ] && [ "$(wc -l <e)" = 1 ] && grep -q 'larger than 1048576 bytes' e
result $? replay_pipe_bounded "exit $rc; $(head -c 200 e)"

# 3. A FIFO nobody writes: the signal ends the wait with its own status.
#    Sent to ./stress itself once it waits in the FIFO's open (its wchan;
#    where the kernel does not show it, once it sleeps with its handlers
#    set), not by timeout(1): under load that once ended with 142.
mkfifo fifo
bad=
for mode in replay shrink; do
	for sig in INT TERM; do
		want=$((128 + $(kill -l $sig)))
		"$STRESS" --$mode fifo >o 2>e &
		pid=$!
		wait_caught $pid
		for ((i = 0; i < 6000; i++)); do
			w=$(cat /proc/$pid/wchan 2>/dev/null) || break
			[ "$w" = wait_for_partner ] && break
			case "$w" in 0 | '') [ "$(awk '{ print $3 }' /proc/$pid/stat)" = S ] && break ;; esac
			sleep 0.01
		done
		kill -$sig $pid
		wait_bounded $pid
		rc=$?
		{ [ $rc = $want ] && ! grep -q 'Interrupted system call' e && [ ! -s o ]; } ||
			bad="$bad $mode/$sig:$rc:$(head -c 100 e)"
	done
done
[ -z "$bad" ]
result $? fifo_without_writer_stops_on_signal "failed:$bad"

# 4. A FIFO with a writer is read to its end.
cat ok.txt >fifo &
"$STRESS" --replay fifo >o 2>e
rc=$?
wait
[ $rc = 0 ] && grep -q '^stress: PASS counter_storm cpus=8 ' o
result $? replay_from_a_fifo "exit $rc; $(head -c 200 e)"

# 5. 'expect' and 'outcome fail' name an invariant some run reports: a typo
# is one line and exit 2, before anything runs; a known name is accepted
# (tests/cli/invariants_declared.sh: the declarations, and older names).
bad=
for line in 'expect nosuch' 'expect approx-window' 'outcome fail nosuch 1 0 0 0'; do
	replay_file | sed "s/^end\$/$line\nend/" >t.txt
	"$STRESS" --replay t.txt >o 2>e
	rc=$?
	{ [ $rc = 2 ] && [ "$(wc -l <e)" = 1 ] && [ ! -s o ] && grep -q "'${line%% *}'" e; } ||
		bad="$bad [$line]:$rc:$(head -c 100 e)"
done
replay_file | sed 's/^end$/expect approx_window\nend/' >t.txt
"$STRESS" --replay t.txt >o 2>e
rc=$?
[ $rc = 0 ] || bad="$bad [expect approx_window]:$rc:$(head -c 100 e)"
[ -z "$bad" ]
result $? replay_unknown_invariant_refused "failed:$bad"

# No plan at the end: KTAP puts it after the version line or leaves it out.
[ $failed = 0 ]
