#!/usr/bin/env bash
# What `make explore` runs is what docs/explore.md says it runs: the
# target's arguments (EXPLORE_ARGS in mk/explore.mk) name their reduction,
# the doc's `make explore` line names the same one and the executions and
# verdict that run gives, and the explorer run with those arguments gives
# them. KTAP on stdout.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/.." && pwd)
. "$here/lib/sh/common.sh"
XP=$(realpath -m "${BUILD:-build/cc}/explore/explore")
echo "KTAP version 1"
echo "1..2"
if [ ! -x "$XP" ]; then
	echo "ok 1 explore_target_args_in_doc # SKIP no $XP"
	echo "ok 2 explore_target_run_as_doc # SKIP no $XP"
	exit 0
fi
test_begin

args=$(sed -n 's/^EXPLORE_ARGS[[:space:]]*?=[[:space:]]*//p' "$root/mk/explore.mk")
red=$(printf '%s\n' "$args" | sed -n 's/.*--reduction \([a-z]*\).*/\1/p')
# The doc's line: "make explore  # ..., --reduction R: N executions, "VERDICT"" (two lines).
doc=$(grep -A1 '^make explore  *#' "$root/docs/explore.md" | tr -s ' \n' ' ')
want_x=$(printf '%s\n' "$doc" | sed -n 's/.*--reduction [a-z]*: \([0-9,]*\) executions.*/\1/p' | tr -d ,)
want_v=$(printf '%s\n' "$doc" | sed -n 's/.*executions, "\([^"]*\)".*/\1/p')
[ -n "$red" ] && [ -n "$want_x" ] && [ -n "$want_v" ] &&
	printf '%s\n' "$doc" | grep -q -- "--reduction $red:"
result $? explore_target_args_in_doc "EXPLORE_ARGS '$args', doc: '$doc'"

# shellcheck disable=SC2086 # the target's arguments, split as make splits them
"$XP" $args >out 2>&1
rc=$?
got_x=$(sed -n 's/^# executions \([0-9]*\) .*/\1/p' out)
[ $rc = 0 ] && [ "$got_x" = "$want_x" ] && grep -qx "# $want_v" out
result $? explore_target_run_as_doc "exit $rc, $got_x executions (doc: $want_x, '$want_v'): $(grep -E '^# (complete|exhausted|FAIL)' out)"
[ "$failed" = 0 ]
