#!/usr/bin/env bash
# Every run stops (docs/stress.md "Watchdog and signals"): the
# independent watchdog ends a run whose worker or controller hangs, or
# whose deadline passed by more than the stall timeout, with every
# thread's state; thread creation that outlasts the run ends at the
# deadline with no verdict; a signal during thread creation stops the run; a signal
# that is not honoured ends the process within the stop limit; a second
# SIGINT exits at once; a signal whose handler never runs (still pending)
# ends the process within the stop limit too; SIGINT stops --shrink and --replay-search with no
# orphan child; the same interrupt delivered twice at once is one. Every hang is a deterministic hook of the selftest
# scenario (--selftest-hang), never a timing: a check waits for the hook's
# marker line before it signals, and bounds a run only against a hang of
# the test itself (HANG_BOUND seconds). Elapsed times are diagnostics.
set -u
STRESS=$(realpath "${STRESS:-${BUILD:-build/cc}/stress}")
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib/sh/common.sh
. "$here/lib/sh/common.sh"	# replay_file (result is this script's own, below)
export STRESS_SELFTEST=1
HANG_BOUND=120
n=0 failed=0
tmp=$(mktemp -d)
export TMPDIR=$tmp	# replay children's files: their command lines name $tmp
trap 'pkill -KILL -f "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

result() {	# result RC NAME [DIAG]
	n=$((n + 1))
	[ -n "${3:-}" ] && printf '# %s\n' "$3"
	if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; failed=$((failed + 1)); fi
}

ms() { echo $((($(date +%s%N) - $1) / 1000000)); }

# run_bounded OUT ERR ARGS...: run ./stress, killing it only if it outlives HANG_BOUND.
run_bounded() {
	local out=$1 err=$2
	shift 2
	timeout -s KILL $HANG_BOUND "$STRESS" "$@" >"$out" 2>"$err"
}

# wait_line FILE TEXT: the hook's marker (bounded against a hang only).
wait_line() {
	local i
	for ((i = 0; i < HANG_BOUND * 50; i++)); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.02
	done
	return 1
}

no_orphan() { ! pgrep -f "$tmp/stress-trial" >/dev/null; }

# ThreadSanitizer builds have no serial replay (fibers): tests 9-11 skip there.
serial=1
"$STRESS" --replay /nonexistent 2>&1 | grep -q ThreadSanitizer && serial=0

# wait_exit PID: wait for a background ./stress (bounded against a hang only); its status.
wait_exit() {
	local i
	for ((i = 0; i < HANG_BOUND * 100; i++)); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.01
	done
	kill -KILL "$1" 2>/dev/null
	wait "$1"
}

# A watchdog test on a host that starved the run: exit 4, INCOMPLETE, no
# verdict on the code either way (docs/stress.md): a SKIP, not a result.
starved() {
	[ "$1" = 4 ] && grep -q 'the host starving the run of CPU all along: incomplete' "$2"
}
skip_starved() {
	n=$((n + 1))
	echo "ok $n $1 # SKIP the host starved the run: incomplete"
}

echo "KTAP version 1"

# 1. A worker deaf to stop, hung in its step: a watchdog failure naming it,
#    with every thread's state and its flight recorder; the run is reported.
#    A short stutter: the default one's start (250 ms to 1 s, from the seed)
#    against the 1 s stall timeout let the other threads count as stalled
#    on a loaded host, where exactly one (cpu 0) must be.
t0=$(date +%s%N)
run_bounded o1 e1 --scenario selftest --cpus 3 --selftest-hang step --duration 0 \
	--stutter 10ms --stall-timeout 1s --stat-interval 0
rc=$?
[ $rc = 1 ] && grep -q '^stress: FAIL selftest .* invariant=watchdog' o1 &&
	grep -q '^# failure 1: invariant=watchdog class=crash cpu=0: 1 thread(s) made no progress' o1 &&
	grep -q '^#   cpu 0 core .* state in-step steps 0 ' o1 &&
	grep -q '^#   selector 1 ' o1 && grep -q '^# flight recorder of cpu 0' o1 &&
	grep -q '^#   thread 0 op#0 selftest-step' o1
r=$?
if starved $rc e1; then skip_starved worker_hang_is_a_watchdog_failure; else result $r worker_hang_is_a_watchdog_failure "exit $rc after $(ms $t0) ms"; fi

# 2. The controller hung while creating threads (where a compaction_churn
#    run once stalled): no heartbeat for the stall timeout, so the
#    watchdog reports it itself and exits 1. (No deadline: only the
#    heartbeat can end it.)
t0=$(date +%s%N)
run_bounded o2 e2 --scenario selftest --cpus 3 --selftest-hang start --duration 0 \
	--stall-timeout 2s --stat-interval 0
rc=$?
[ $rc = 1 ] && grep -q 'the controller made no progress for 2.0s (phase: starting threads)' e2 &&
	grep -q '^stress: FAIL selftest .* invariant=watchdog' o2 &&
	grep -q '^#   cpu 0 core .* state waiting-start' o2 && grep -q '^#   cpu 1-2 not started' o2
r=$?
if starved $rc e2; then skip_starved controller_hang_in_thread_start_ends_the_run; else result $r controller_hang_in_thread_start_ends_the_run "exit $rc after $(ms $t0) ms"; fi

# 3. The controller hung in a stutter, every worker parked.
t0=$(date +%s%N)
run_bounded o3 e3 --scenario selftest --cpus 3 --selftest-hang quiescent --duration 0 \
	--stutter 50ms --stall-timeout 2s --stat-interval 0
rc=$?
[ $rc = 1 ] && grep -q 'no progress for 2.0s (phase: stutter' e3 &&
	grep -q '^#   cpu 2 core .* state parked' o3 && grep -q 'invariant=watchdog' o3
r=$?
if starved $rc e3; then skip_starved controller_hang_in_stutter_ends_the_run; else result $r controller_hang_in_stutter_ends_the_run "exit $rc after $(ms $t0) ms"; fi

# 4. Thread creation slower than the run: at least 10 ms per thread
#    created (a heartbeat each time), 600 threads, a 200 ms run, a 2 s
#    stall timeout. Creation ends 1 s (half the stall timeout) past the
#    deadline (at most ~120 of 602 threads), the run stops with what it
#    has, and nothing was judged: INCOMPLETE, exit 4, before the watchdog's
#    deadline rule (2 s past it) would fail the run. Before, creation went on past the deadline
#    and the watchdog failed the run as a crash (mutant
#    engine-start-ignores-deadline).
t0=$(date +%s%N)
run_bounded o4 e4 --scenario selftest --cpus 600 --selftest-hang start-slow --duration 200ms \
	--stall-timeout 2s --stat-interval 0 --report ktap
rc=$?
started=$(sed -n 's/.*starting the threads outlasted the run (\([0-9]*\) of 602 in .*/\1/p' e4)
[ $rc = 4 ] && [ -n "$started" ] && [ "$started" -lt 602 ] &&
	grep -q '^# stress: INCOMPLETE selftest ' o4 &&
	grep -q '^ok 1 selftest # SKIP incomplete: ' o4
result $? thread_start_past_the_deadline_is_incomplete "exit $rc after $(ms $t0) ms; $(head -c 300 e4)"

# 4b. Alive but never done: the controller beats its heartbeat before
#    thread 1 and never creates it, deadline or not: only the watchdog's
#    deadline rule stops it, at 200 ms + the stall timeout (3 s):
#    ./stress --duration D never outlives D by more than the stall timeout.
t0=$(date +%s%N)
run_bounded o4b e4b --scenario selftest --cpus 8 --selftest-hang start-alive --duration 200ms \
	--stall-timeout 3s --stat-interval 0
rc=$?
[ $rc = 1 ] && grep -q 'the deadline passed by more than 3.0s (phase: starting threads)' e4b &&
	grep -q 'invariant=watchdog' o4b
r=$?
if starved $rc e4b; then skip_starved deadline_overrun_ends_the_run; else result $r deadline_overrun_ends_the_run "exit $rc after $(ms $t0) ms"; fi

# 5. The same hang in JSON mode: stdout is still one valid report document,
#    and --json FILE holds the same document.
run_bounded o5 e5 --scenario selftest --cpus 3 --selftest-hang start --duration 0 \
	--stall-timeout 1s --report json --json j5.json
rc=$?
[ $rc = 1 ] && python3 "$here/lib/json_check.py" "$here/../docs/stress-report.schema.json" o5 &&
	cmp -s o5 j5.json &&
	expect failed o5 watchdog
r=$?
if starved $rc e5; then skip_starved watchdog_exit_writes_valid_json; else result $r watchdog_exit_writes_valid_json "exit $rc"; fi

# 6. A signal while the controller creates threads stops the run (the hook
#    waits for it: with SIGTERM blocked during creation, as before, it
#    would wait forever).
"$STRESS" --scenario selftest --cpus 3 --selftest-hang start-until-signal --duration 60s \
	--stall-timeout 5s --stat-interval 0 >o6 2>e6 &
pid=$!
wait_line e6 'until a signal'
t0=$(date +%s%N)
kill -TERM $pid
wait_exit $pid
rc=$?
{ [ $rc = 0 ] || [ $rc = 143 ]; } && grep -q '^stress: .* selftest .* ops=0 .*interrupted' o6
result $? signal_during_thread_start_stops_the_run "exit $rc $(ms $t0) ms after SIGTERM"

# 7. A controller deaf to the signal: the watchdog ends the process within
#    the stop limit, exit 130, with the thread states.
"$STRESS" --scenario selftest --cpus 3 --selftest-hang start --duration 60s \
	--stall-timeout 15s --stat-interval 0 >o7 2>e7 &
pid=$!
wait_line e7 'hangs before creating'
t0=$(date +%s%N)
kill -INT $pid
wait_exit $pid
rc=$?
[ $rc = 130 ] && grep -q 'SIGINT was not honoured within' e7 &&
	grep -q '^#   cpu 1-2 not started' e7 && grep -q 'interrupted' o7
result $? ignored_sigint_ends_the_process "exit $rc $(ms $t0) ms after SIGINT"

# 7b. A controller that never runs the handler (it blocks the signals, as a
#    controller starved of CPU never gets to run it): the signal stays
#    pending, and the watchdog, which sees it pending, ends the process
#    within the stop limit, exit 130 (mutant watchdog-no-pending-signal-rule);
#    its report names the signal no handler saw.
"$STRESS" --scenario selftest --cpus 3 --selftest-hang start-deaf --duration 0 \
	--stat-interval 0 --report ktap >o7b 2>e7b &
pid=$!
wait_line e7b 'deaf to signals'
t0=$(date +%s%N)
kill -INT $pid
wait_exit $pid
rc=$?
[ $rc = 130 ] && grep -q 'SIGINT was not honoured within .* (still pending)' e7b &&
	grep -q '^ok 1 selftest # SKIP interrupted (SIGINT)$' o7b
result $? pending_sigint_ends_the_process "exit $rc $(ms $t0) ms after SIGINT"

# 8. A second SIGINT (0.5 s or more after the first): one line, exit 130 at once.
"$STRESS" --scenario selftest --cpus 3 --selftest-hang start --duration 60s \
	--stat-interval 0 >o8 2>e8 &
pid=$!
wait_line e8 'hangs before creating'
kill -INT $pid
# Two pending SIGINTs are one: send the second once the first was delivered.
for ((i = 0; i < 1000; i++)); do	# 20 s: a signal that stays pending is the bug
	pend=$(awk '/^(ShdPnd|SigPnd)/ { print $2 }' /proc/$pid/status 2>/dev/null | tr '\n' ' ')
	case "$pend" in *[1-9a-f]*) sleep 0.02 ;; *) break ;; esac
done
sleep 0.6	# within 0.5 s it would be the same interrupt twice (test 9)
kill -INT $pid
wait_exit $pid
rc=$?
[ $rc = 130 ] && [ "$(grep -c 'second interrupt' e8)" = 1 ]
result $? second_sigint_exits_at_once "exit $rc"

# 9. The same interrupt twice (as timeout(1) delivers a Ctrl-C: to ./stress
#    and to its group), back to back: one interrupt, a graceful stop with
#    the report, never the "exit now" path.
"$STRESS" --scenario selftest --cpus 3 --selftest-hang start-until-signal --duration 60s \
	--stall-timeout 5s --stat-interval 0 >o9 2>e9 &
pid=$!
wait_line e9 'until a signal'
kill -INT $pid
# Under load the first may already have ended it: no "No such process" in the KTAP stream.
kill -INT $pid 2>/dev/null
wait_exit $pid
rc=$?
{ [ $rc = 130 ] || [ $rc = 0 ]; } && ! grep -q 'second interrupt' e9 &&
	grep -q '^stress: .* selftest .*interrupted' o9
result $? same_interrupt_twice_is_one "exit $rc"

# 10. SIGINT during --shrink: the replay child (hung in a serial step) is
#    killed, no orphan, exit 130.
replay_file scenario selftest args --selftest-hang=replay-step seed 1 cpus 2 steps 1000 >hang.txt
if [ $serial = 0 ]; then
	for name in sigint_stops_shrink_no_orphan sigint_stops_replay_search_no_orphan \
		    replay_hang_ends_the_run; do
		n=$((n + 1))
		echo "ok $n $name # SKIP no serial replay in ThreadSanitizer builds"
	done
	[ $failed = 0 ]
	exit
fi
"$STRESS" --shrink hang.txt >o10 2>e10 &
pid=$!
for ((i = 0; i < HANG_BOUND * 50; i++)); do
	pgrep -f "$tmp/stress-trial" >/dev/null && break
	sleep 0.02
done
t0=$(date +%s%N)
kill -INT $pid
wait_exit $pid
rc=$?
sleep 0.1
[ $rc = 130 ] && grep -q 'shrink: interrupted' e10 && no_orphan
result $? sigint_stops_shrink_no_orphan "exit $rc $(ms $t0) ms after SIGINT"

# 11. SIGINT during the serial search after a concurrent failure.
"$STRESS" --scenario selftest --cpus 2 --selftest-fail-after 50 --selftest-hang replay-step \
	--steps 1000 --duration 0 --stat-interval 0 >o11 2>e11 &
pid=$!
for ((i = 0; i < HANG_BOUND * 50; i++)); do
	pgrep -f "$tmp/stress-trial" >/dev/null && break
	sleep 0.02
done
t0=$(date +%s%N)
kill -INT $pid
wait_exit $pid
rc=$?
sleep 0.1
[ $rc = 1 ] && grep -q 'serial search interrupted' o11 && no_orphan
result $? sigint_stops_replay_search_no_orphan "exit $rc $(ms $t0) ms after SIGINT"

# 12. The replay mode is watched too: a fiber hung in its step, no heartbeat.
run_bounded o12 e12 --replay hang.txt --stall-timeout 1s
rc=$?
[ $rc = 1 ] && grep -q 'no progress for 1.0s (phase: serial schedule)' e12
r=$?
if starved $rc e12; then skip_starved replay_hang_ends_the_run; else result $r replay_hang_ends_the_run "exit $rc"; fi

[ $failed = 0 ]
