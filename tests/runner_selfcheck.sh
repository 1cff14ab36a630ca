#!/usr/bin/env bash
# scripts/run-tests against fake programs: a pass, a failed case with exit
# 0, a short plan, silence, a crash and a hang must each fail their line,
# and the closing "N passed, N failed" must count them. KTAP on stdout.
set -u
bad=0
root=$(cd "$(dirname "$0")/.." && pwd)
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
echo "KTAP version 1"
echo "1..3"
mk() {
	printf '#!/bin/sh\n%s\n' "$2" >"$d/$1"
	chmod +x "$d/$1"
}
mk good 'echo "KTAP version 1"; echo 1..2; echo "ok 1 a"; echo "ok 2 b # SKIP x"'
mk notok0 'echo 1..2; echo "ok 1 a"; echo "not ok 2 b"; exit 0'
mk short 'echo 1..3; echo "ok 1 a"; exit 0'
mk silent 'exit 0'
mk crash 'echo "ok 1 a"; kill -SEGV $$'
mk hang 'echo "ok 1 a"; exec sleep 30'
out=$(TEST_TIMEOUT=2 "$root/scripts/run-tests" "$d/good" "$d/notok0" "$d/short" \
	"$d/silent" "$d/crash" "$d/hang" 2>/dev/null)
rc=$?
lines=$(printf '%s\n' "$out" | grep -E '^(not )?ok [0-9]+ ' | tr '\n' '|')
want='ok 1 good|not ok 2 notok0|not ok 3 short|not ok 4 silent|not ok 5 crash|not ok 6 hang # TIMEOUT|'
if [ "$lines" = "$want" ]; then
	echo "ok 1 runner_verdict_per_program"
else
	echo "# got: $lines"
	echo "not ok 1 runner_verdict_per_program"
	bad=1
fi
total=$(printf '%s\n' "$out" | tail -n 1)
# Cases: good 1 pass + 1 skip; notok0 1 pass 1 fail; short 1 pass +1;
# silent +1; crash 1 pass +1; hang 1 pass +1.
if [ "$total" = "5 passed, 5 failed, 1 skipped" ]; then
	echo "ok 2 runner_totals"
else
	echo "# got: $total"
	echo "not ok 2 runner_totals"
	bad=1
fi
if [ $rc -ne 0 ] && TEST_TIMEOUT=2 "$root/scripts/run-tests" "$d/good" >/dev/null 2>&1; then
	echo "ok 3 runner_exit_status"
else
	echo "# exit status $rc with failures, or non-zero for a clean run"
	echo "not ok 3 runner_exit_status"
	bad=1
fi
exit $bad
