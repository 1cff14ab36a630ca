# shellcheck shell=bash
# What the bash kernel-* programs of scripts/ share (sourced, not run):
# their name, the repository's top, their refusals of bad input (one
# line on stderr, exit 2) and their handling of SIGINT and SIGTERM
# (guard; docs/kernel-trees.md).

# $me: the program's name; $root: the repository's top; $kernel_args:
# the arguments it was started with (this file is sourced with none).
me=${0##*/}
kernel_args=("$@")
# shellcheck disable=SC2034 # read by the programs that source this file
root=$(cd "${BASH_SOURCE[0]%/*}/.." && pwd)

# die MESSAGE...: one line "PROG: MESSAGE" on stderr, exit 2.
die() {
	echo "$me: $*" >&2
	exit 2
}

# usage [WHY...]: WHY as die says it (if any), then the line
# "usage: scripts/PROG $synopsis" (the program sets synopsis), exit 2.
usage() {
	[ $# = 0 ] || echo "$me: $*" >&2
	# shellcheck disable=SC2154 # set by the program
	echo "usage: scripts/$me $synopsis" >&2
	exit 2
}

# run_to OUT CMD...: CMD with its output and errors in OUT, its status
# returned; bash's own line for a CMD a signal stopped ("line N: PID
# Aborted  CMD > OUT 2>&1", the build's paths in it) kept off stderr: the
# caller reads the status and says so itself (scripts/stress-verdicts).
run_to() {
	local out=$1
	shift
	{ "$@" >"$out" 2>&1; } 2>/dev/null
}

# kernel_src DIR: $ksrc, DIR made absolute; not a directory: die.
kernel_src() {
	# shellcheck disable=SC2034 # read by the programs that source this file
	ksrc=$(cd "$1" 2>/dev/null && pwd) || die "$1: no such directory"
}

# guard [LIMIT [own]]: the rest of the program runs as a child in a
# process group of its own, under timeout(1), and this process only waits
# for it. SIGINT or SIGTERM sent to the program reaches that whole group
# as SIGINT (as a ^C at a terminal does: bash reports no "Terminated" for
# the commands it ends), and SIGTERM then ends what ignores SIGINT, so
# everything the program started stops (make, the compilers, the test
# programs, a kernel-* program below it); the child's EXIT trap cleans up
# what it made, and one line "PROG: stopped by SIGTERM; no verdict" ends
# it with 128+N (130, 143), not repeated by the guarded programs below.
# What ignores the signal too is killed after KERNEL_GUARD_GRACE (default
# 30 s; timeout(1)'s -k), and the status is still the signal's.
# LIMIT (timeout(1)'s duration; default none) stops the run the same way,
# with one line and exit 4. With "own" the child is a program that stops
# itself on SIGINT and SIGTERM and says so (scripts/kernel-series): the
# signal reaches it as it came, and its line is the only one. In the
# child guard returns, the program's arguments unchanged; call it after
# the checks of bad input, which need no child.
# The grace's KILL ends this program's group only: a guarded program
# below it has a group of its own, which would outlive it. So the top
# guard (the first in the run) owns a directory, KERNEL_GUARD_DIR, where
# every guard records its group (an empty file named by its id, written
# before the group exists); however the run ends, the top guard sends
# SIGTERM to every recorded group, SIGKILL to what is left 5 s later,
# and exits once none has a process (bounded: 5 s more). A guard below
# has no grace of its own (the top's TERM ends what its signal did not,
# and lets it clean up), and removes its record when its group has ended.
guard() {
	local limit=${1:-0} own=${2:-} grace=${KERNEL_GUARD_GRACE:-30} tpid rc sig='' pass=INT
	local kopt=()
	if [ -n "${KERNEL_GUARDED:-}" ]; then
		unset KERNEL_GUARDED
		export KERNEL_GUARD_QUIET=1
		# The first signal ends it; a second one (SIGTERM after SIGINT)
		# does not cut its EXIT trap's cleanup short.
		trap 'trap "" INT TERM; exit 130' INT
		trap 'trap "" INT TERM; exit 143' TERM
		return 0
	fi
	if ! [[ $grace =~ ^[0-9]+(\.[0-9]+)?[smhd]?$ ]] || ! [[ $grace =~ [1-9] ]]; then
		die "KERNEL_GUARD_GRACE ${grace@Q}: not a positive duration (N, Ns, Nm, Nh or Nd)"
	fi
	if [ -z "${KERNEL_GUARD_QUIET:-}" ] || [ ! -d "${KERNEL_GUARD_DIR:-}" ]; then
		KERNEL_GUARD_DIR=$(mktemp -d "${TMPDIR:-/tmp}/kernel-guard.XXXXXX") ||
			die "cannot create a temporary directory"
		export KERNEL_GUARD_DIR
		kopt=(-k "$grace")
	fi
	[ -z "$own" ] || pass=
	# The subshell's id is the group's: timeout(1) makes one of its own.
	(
		: >"$KERNEL_GUARD_DIR/$BASHPID"
		KERNEL_GUARDED=1 exec timeout -s "${pass:-TERM}" "${kopt[@]}" "$limit" "$0" \
			"${kernel_args[@]}"
	) &
	tpid=$!
	trap 'sig=TERM; kill -"${pass:-TERM}" "$tpid" 2>/dev/null' TERM
	trap 'sig=INT; kill -INT "$tpid" 2>/dev/null' INT
	# wait returns early when a trap ran; wait again for the status (bash's
	# "Killed" for the grace's KILL is not the program's line).
	while :; do
		{ wait "$tpid"; } 2>/dev/null
		rc=$?
		kill -0 "$tpid" 2>/dev/null || break
	done
	[ -z "$sig" ] && [ "$limit" != 0 ] && { [ "$rc" = 124 ] || [ "$rc" = 137 ]; } && sig=limit
	if [ ${#kopt[@]} != 0 ]; then
		guard_reap
	else
		# What ignores SIGINT (a shell's background job does) ends now.
		[ -z "$sig" ] || kill -TERM -- -"$tpid" 2>/dev/null
		guard_live "$tpid" || rm -f "$KERNEL_GUARD_DIR/$tpid"
	fi
	[ -n "$sig" ] || exit "$rc"
	if [ "$sig" = limit ]; then
		echo "$me: no verdict: the overall time limit ($limit) expired;" \
		     "every job was stopped" >&2
		exit 4
	fi
	[ -n "$own" ] || [ -n "${KERNEL_GUARD_QUIET:-}" ] ||
		echo "$me: stopped by SIG$sig; no verdict" >&2
	exit $((128 + $(kill -l "$sig")))
}

# guard_timeout LIMIT CMD...: timeout -k 10 LIMIT CMD..., its status.
# timeout(1) makes a process group of its own, which neither the signal
# of a guarded program nor the top guard's SIGTERM to the program's group
# reaches: so below a guard (KERNEL_GUARD_DIR a directory) that group is
# recorded there as a guard's is (the record written before the group
# exists, removed once it has ended: a later SIGTERM never hits a group
# that reused the id) and the top guard stops it however the run ends;
# the program, stopped, does not wait for it. Elsewhere plain timeout(1).
guard_timeout() {
	local pid rc
	if [ ! -d "${KERNEL_GUARD_DIR:-}" ]; then
		timeout -k 10 "$@"
		return
	fi
	# (Its stdin is /dev/null, as a background command's is.)
	(
		: >"$KERNEL_GUARD_DIR/$BASHPID" || exit 125
		exec timeout -k 10 "$@"
	) &
	pid=$!
	wait "$pid"
	rc=$?
	guard_live "$pid" || rm -f "$KERNEL_GUARD_DIR/$pid"
	return "$rc"
}

# guard_live GROUP: GROUP has a process that is not a zombie (one that
# has ended and waits for its parent, init for an orphan, to reap it).
guard_live() {
	local p st
	kill -0 -- -"$1" 2>/dev/null || return 1
	p=$(pgrep -g "$1") || return 0
	for p in $p; do
		{ read -r st <"/proc/$p/stat"; } 2>/dev/null || continue
		st=${st##*) }
		[ "${st%% *}" = Z ] || return 0
	done
	return 1
}

# guard_reap: SIGTERM to every group recorded in KERNEL_GUARD_DIR (those
# recorded meanwhile too), SIGKILL to those left 5 s later; back once none
# has a process, or 5 s after the KILL; the directory removed.
guard_reap() {
	local f g i live
	local -A sent=()
	for ((i = 0; ; i++)); do
		live=0
		for f in "$KERNEL_GUARD_DIR"/*; do
			g=${f##*/}
			[[ $g =~ ^[0-9]+$ ]] && guard_live "$g" || continue
			live=1
			if [ -z "${sent[$g]:-}" ]; then
				kill -TERM -- -"$g" 2>/dev/null
				sent[$g]=TERM
			elif [ "$i" -ge 50 ] && [ "${sent[$g]}" = TERM ]; then
				kill -KILL -- -"$g" 2>/dev/null
				sent[$g]=KILL
			fi
		done
		[ "$live" = 1 ] && [ "$i" -lt 100 ] || break
		sleep 0.1
	done
	rm -rf "$KERNEL_GUARD_DIR"
}
