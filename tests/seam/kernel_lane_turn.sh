#!/usr/bin/env bash
# tier: check
# A series' lane taken in the series' order (scripts/kernel-lane.sh,
# docs/kernel-trees.md "Checking a series"), without a build: three takers
# of one lane, tickets a, b, c in LANE/order. This shell takes a's ticket
# and its turn first; b and c start in the background and ask for theirs,
# each appending its name to a log once it has its turn and passing it on
# when told. While a holds its turn, neither may write (looked at until
# both hold their tickets, then 20 looks more); once a passes, the log
# must read a b c. Then a judge that ends without passing (its EXIT trap
# never ran, as after SIGKILL) holds nobody up forever: its turn passes
# after its bounded looks. KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/sh/ktap.sh
. "$root/tests/lib/sh/ktap.sh"
# shellcheck source=scripts/kernel-lane.sh
. "$root/scripts/kernel-lane.sh"
ktap_begin
echo "1..2"
lane=$tmp/lane
mkdir -p "$lane"
printf '%s\n' a b c >"$lane/order"
echo 1 >"$lane/turn"
# pause: a hundredth of a second, a read of a FIFO no one writes (no process).
mkfifo "$tmp/fifo"
exec {pfd}<>"$tmp/fifo"
pause() {
	read -r -t 0.01 -u "$pfd" _
}

# taker NAME: its ticket and turn, NAME into the log, then its turn passed
# once tmp/go.NAME exists (bounded: a hung test is a failed one).
taker() {
	local i
	# Not the ticket this shell holds (a judge is a process of its own).
	[ -z "${lane_fd:-}" ] || exec {lane_fd}>&-
	lane_ticket "$lane" "$1" && lane_turn && echo "$1" >>"$tmp/log" || return 1
	for ((i = 0; i < 3000; i++)); do
		[ -e "$tmp/go.$1" ] && break
		pause
	done
	lane_pass
}
# reap PID: PID waited for, killed after 30,000 pauses (a guard against a
# hang, not a time limit).
reap() {
	local i
	for ((i = 0; i < 30000; i++)); do
		kill -0 "$1" 2>/dev/null || break
		pause
	done
	kill -KILL "$1" 2>/dev/null
	wait "$1"
}
# held N: ticket N's lock is held by someone.
held() {
	! flock -n "$lane/ticket.$1" true
}

lane_ticket "$lane" a && lane_turn
: >"$tmp/log"
taker c &
pc=$!
taker b &
pb=$!
early=
for ((i = 0; i < 3000; i++)); do
	[ -s "$tmp/log" ] && break
	held 2 && held 3 && break
	pause
done
for ((i = 0; i < 20; i++)); do
	[ -s "$tmp/log" ] && { early=$(tr '\n' ' ' <"$tmp/log"); break; }
	pause
done
echo a >>"$tmp/log"
lane_pass
touch "$tmp/go.b" "$tmp/go.c"
reap $pb
reap $pc
got=$(tr '\n' ' ' <"$tmp/log")
result "$([ -z "$early" ] && [ "$got" = "a b c " ]; echo $?)" turns_in_series_order \
	"before a passed: [${early}]; the log: [$got]"

# 2. Ticket 1 gone without passing (its lock free, the turn still 1): b
#    waits its bounded looks (5 here), then goes.
echo 1 >"$lane/turn"
lane_looks=5
: >"$tmp/log"
rm -f "$tmp"/go.*
touch "$tmp/go.b"
taker b &
pb=$!
reap $pb
result "$([ "$(cat "$tmp/log")" = b ] && [ "$(lane_now)" = 3 ]; echo $?)" \
	turn_of_a_gone_ticket_passes "log [$(cat "$tmp/log")], turn $(lane_now)"
exit $((failed > 0))
