#!/usr/bin/env bash
# What `make explore` runs is what docs/explore.md says it runs: for each of
# the target's configurations (EXPLORE_ARGS and EXPLORE_LEVEL_ARGS in
# mk/explore.mk) the arguments name their reduction, the doc's line for it
# names the same one and the executions and verdict that run gives, and the
# explorer run with those arguments gives them. EXPLORE_LEVEL_ARGS's tree
# has a level between the CPUs and the root (./stress --describe). KTAP on
# stdout.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=tests/lib/sh/common.sh
. "$here/lib/sh/common.sh"
XP=$(realpath -m "${BUILD:-build/cc}/explore/explore")
echo "KTAP version 1"
echo "1..5"
if [ ! -x "$XP" ]; then
	i=0
	for t in args_in_doc run_as_doc level_args_in_doc level_run_as_doc level_has_level; do
		i=$((i + 1))
		echo "ok $i explore_target_$t # SKIP no $XP"
	done
	exit 0
fi
test_begin

# check VAR NAME: the configuration VAR of mk/explore.mk against its doc line
# ("#   VAR  ...," then "#  --reduction R: N executions, "VERDICT"").
check() {
	local var=$1 name=$2 args red doc want_x want_v rc got_x
	args=$(sed -n "s/^${var}[[:space:]]*?=[[:space:]]*//p" "$root/mk/explore.mk")
	red=$(printf '%s\n' "$args" | sed -n 's/.*--reduction \([a-z]*\).*/\1/p')
	doc=$(grep -A1 "^#   $var  " "$root/docs/explore.md" | tr -s ' \n' ' ')
	want_x=$(printf '%s\n' "$doc" | sed -n 's/.*--reduction [a-z]*: \([0-9,]*\) executions.*/\1/p' | tr -d ,)
	want_v=$(printf '%s\n' "$doc" | sed -n 's/.*executions, "\([^"]*\)".*/\1/p')
	[ -n "$red" ] && [ -n "$want_x" ] && [ -n "$want_v" ] &&
		printf '%s\n' "$doc" | grep -q -- "--reduction $red:"
	result $? "${name}args_in_doc" "$var '$args', doc: '$doc'"

	# shellcheck disable=SC2086 # the target's arguments, split as make splits them
	"$XP" $args >"out.$var" 2>&1
	rc=$?
	got_x=$(sed -n 's/^# executions \([0-9]*\) .*/\1/p' "out.$var")
	[ $rc = 0 ] && [ "$got_x" = "$want_x" ] && grep -qx "# $want_v" "out.$var"
	result $? "${name}run_as_doc" "$var: exit $rc, $got_x executions (doc: $want_x, '$want_v'): $(grep -E '^# (complete|exhausted|FAIL)' "out.$var")"
}
check EXPLORE_ARGS explore_target_
check EXPLORE_LEVEL_ARGS explore_target_level_

# The second configuration reaches a level between the CPUs and the root.
cpus=$(sed -n 's/^EXPLORE_LEVEL_ARGS[[:space:]]*?=.*--cpus \([0-9]*\).*/\1/p' "$root/mk/explore.mk")
levels=$("$STRESS" --describe --cpus "${cpus:-0}" 2>&1 | sed -n 's/.*"nr_levels":\([0-9]*\).*/\1/p')
[ -n "$levels" ] && [ "$levels" -ge 2 ]
result $? explore_target_level_has_level "--cpus '$cpus': nr_levels '$levels' (2 or more wanted)"
[ "$failed" = 0 ]
