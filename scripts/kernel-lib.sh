# shellcheck shell=bash
# What the bash kernel-* programs of scripts/ share (sourced, not run):
# their name, the repository's top, their refusals of bad input (one
# line on stderr, exit 2; docs/kernel-trees.md).

# $me: the program's name; $root: the repository's top.
me=${0##*/}
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
