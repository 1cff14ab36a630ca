#!/usr/bin/env bash
# The hand-off benchmark (bench/handoff/README.md) on a quick run: every
# case runs with both builds (the -old programs report the broadcast
# turn, the new ones the spinning one), its JSON has every case with both
# sides, and the vCPU cases' add counts were checked by the program; its
# goal verdicts follow their medians (a timed-out run's CPU time a lower
# bound). Bad input exits 2 with one line. No speed number is asserted.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(realpath "${BUILD:-build/cc}/bench")
# shellcheck source=tests/lib/sh/ktap.sh
. "$here/tests/lib/sh/ktap.sh"
ktap_begin
echo "1..7"
cd "$here" || exit 1

"$dir/handoff/handoff-bench" turn --ops 100 >"$tmp/new" 2>&1 &&
	"$dir/handoff/handoff-bench-old" turn --ops 100 >"$tmp/old" 2>&1
rc=$?
grep -q '^turn spin ' "$tmp/new" && grep -q '^turn broadcast ' "$tmp/old" || rc=1
result $rc handoff_builds_differ "$(cat "$tmp/new" "$tmp/old" | tr '\n' ' ')"

bench/handoff/run --quick --reps 1 --dir "$dir" --out "$tmp/h.json" >"$tmp/out" 2>&1
rc=$?
result $rc handoff_quick_runs "$(tail -n 3 "$tmp/out" | tr '\n' ' ')"
python3 tests/lib/producer_check.py handoff "$tmp/h.json" >"$tmp/chk" 2>&1
result $? handoff_json_cases "$(tail -n 2 "$tmp/chk" | tr '\n' ' ')"
python3 tests/lib/producer_check.py handoff-goals bench/handoff/run >"$tmp/goals" 2>&1
result $? handoff_goal_verdicts "$(tail -n 2 "$tmp/goals" | tr '\n' ' ')"

# Bad input: exit 2, one line.
bad_input case "$dir/handoff/handoff-bench" spin
bad_input ops "$dir/handoff/handoff-bench" turn --ops 0
bad_input reps bench/handoff/run --reps x --dir "$dir" --out "$tmp/x.json"

[ "$n" = 7 ] || { echo "# $n results, the plan says 7"; failed=1; }
exit $((failed > 0))
