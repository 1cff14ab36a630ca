#!/usr/bin/env bash
# Replay input that is not a regular file (docs/regress.md, docs/stress.md):
# --replay <(...) is read with the same size bound as a file, and a FIFO
# with no writer waits like any reader, yet SIGINT/SIGTERM still end that
# wait with the signal's exit status (130/143), never "Interrupted system
# call" and exit 2. The signal is what ends the wait (timeout -s sends it
# once), not a time limit of the test. KTAP on stdout.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/sh/common.sh"
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
mkfifo fifo
bad=
for mode in replay shrink; do
	for sig in INT TERM; do
		want=$((128 + $(kill -l $sig)))
		timeout --preserve-status -s $sig 0.3 "$STRESS" --$mode fifo >o 2>e
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

# No plan at the end: KTAP puts it after the version line or leaves it out.
[ $failed = 0 ]
