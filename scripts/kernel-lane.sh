# shellcheck shell=bash
# A series' build lane taken in the series' order (sourced by
# scripts/kernel-judge; docs/kernel-trees.md, "Checking a series").
#
# scripts/kernel-series writes LANE/order, the content directories it
# judges in the series' order, one a line, and LANE/turn, "1". A judge's
# ticket is the line of its directory there: it holds LANE/ticket.N (a
# lock) from its start until it leaves the lane or ends, and takes the
# lane only once LANE/turn has reached N. So the commits are built in the
# series' order, whatever order their jobs reach the lane in, and each
# rebuilds what changed since the commit before it, not since whichever
# commit happened to build last. No LANE/order, or a directory it does
# not list: no ticket, the lane taken as it comes.

# lane_ticket LANE DIR: DIR's ticket ($lane_n, "" for none), its lock held.
lane_ticket() {
	lane_dir=$1 lane_n=
	[ -f "$1/order" ] || return 0
	lane_n=$(grep -Fxn -- "$2" "$1/order" | head -n 1 | cut -d: -f1)
	[ -n "$lane_n" ] || return 0
	exec {lane_fd}>>"$1/ticket.$lane_n" && flock "$lane_fd"
}

# lane_now: the ticket whose turn it is (LANE/turn; unreadable: ours).
lane_now() {
	local t=
	{ read -r t <"$lane_dir/turn"; } 2>/dev/null
	[[ $t =~ ^[1-9][0-9]{0,8}$ ]] || t=$lane_n
	echo "$t"
}

# lane_turn: wait until every ticket before ours has passed, each wait
# blocked on the lock of the ticket whose turn it is. A free lock on a
# ticket that has not passed is one whose job has not started yet (GNU
# parallel starts them in order, so it will) or one killed past its EXIT
# trap: after $lane_looks looks (600) a tenth of a second apart its turn
# is passed for it. The order only saves compiles: the lane itself is
# LANE/busy.lock's.
lane_looks=600
lane_turn() {
	local t w i=0
	[ -n "$lane_n" ] || return 0
	while t=$(lane_now) && [ "$t" -lt "$lane_n" ]; do
		exec {w}>>"$lane_dir/ticket.$t" && flock "$w" || return 1
		exec {w}>&-
		[ "$(lane_now)" = "$t" ] || { i=0; continue; }
		if ((++i >= lane_looks)); then
			lane_set $((t + 1)) || return 1
			i=0
		else
			sleep 0.1
		fi
	done
}

# lane_set N: the turn moved on to ticket N (never back).
lane_set() {
	local l
	exec {l}>>"$lane_dir/turn.lock" && flock "$l" || return 1
	if [ "$(lane_now)" -lt "$1" ]; then
		echo "$1" >"$lane_dir/turn.new" && mv "$lane_dir/turn.new" "$lane_dir/turn" ||
			{ exec {l}>&-; return 1; }
	fi
	exec {l}>&-
}

# lane_pass: the turn passed to the next ticket, ours let go (once).
lane_pass() {
	[ -n "${lane_n:-}" ] || return 0
	lane_set $((lane_n + 1))
	exec {lane_fd}>&-
	lane_n=
}
