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
# LIMIT (timeout(1)'s duration; default none) stops the run the same way,
# with one line and exit 4. With "own" the child is a program that stops
# itself on SIGINT and SIGTERM and says so (scripts/kernel-series): the
# signal reaches it as it came, and its line is the only one. In the
# child guard returns, the program's arguments unchanged; call it after
# the checks of bad input, which need no child.
guard() {
	local limit=${1:-0} own=${2:-} tpid rc sig='' pass=INT
	if [ -n "${KERNEL_GUARDED:-}" ]; then
		unset KERNEL_GUARDED
		export KERNEL_GUARD_QUIET=1
		trap 'exit 130' INT
		trap 'exit 143' TERM
		return 0
	fi
	[ -z "$own" ] || pass=
	KERNEL_GUARDED=1 timeout -s "${pass:-TERM}" -k 30 "$limit" "$0" "${kernel_args[@]}" &
	tpid=$!
	trap 'sig=TERM; kill -"${pass:-TERM}" "$tpid" 2>/dev/null' TERM
	trap 'sig=INT; kill -INT "$tpid" 2>/dev/null' INT
	# wait returns early when a trap ran; wait again for the status.
	while :; do
		wait "$tpid"
		rc=$?
		kill -0 "$tpid" 2>/dev/null || break
	done
	[ "$limit" != 0 ] && { [ "$rc" = 124 ] || [ "$rc" = 137 ]; } && sig=limit
	[ -n "$sig" ] || exit "$rc"
	# What ignores SIGINT (a shell's background job does) ends now.
	kill -TERM -- -"$tpid" 2>/dev/null
	if [ "$sig" = limit ]; then
		echo "$me: no verdict: the overall time limit ($limit) expired;" \
		     "every job was stopped" >&2
		exit 4
	fi
	[ -n "$own" ] || [ -n "${KERNEL_GUARD_QUIET:-}" ] ||
		echo "$me: stopped by SIG$sig; no verdict" >&2
	exit $((128 + $(kill -l "$sig")))
}
