#!/usr/bin/env bash
# scripts/regress keeps "no verdict" apart from a failure (docs/regress.md):
#   1 cells ./stress reports INCOMPLETE (a run the host starved): "# SKIP
#     no verdict", verdict INCOMPLETE, exit 4, never FAIL
#   2 a cell that leaves no result (./stress crashed): ERROR, exit 4
#   3 one dead ssh host in --sshloginfile (127.0.0.1 on a port nobody
#     listens on): its cells run on this host, PASS, exit 0
#   4 --extra is words of argv, never shell text: "$(touch pwned)" runs
#     nothing
# A small matrix of the selftest scenario, seconds in all. KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ -n "${STRESS:-}" ]; then
	BUILD=$(realpath "$(dirname "$STRESS")")
else
	BUILD=$(realpath "${BUILD:-build/cc}")
fi
export BUILD
REGRESS="$root/scripts/regress"
. "$root/tests/lib/sh/common.sh"
test_begin
echo "KTAP version 1"
if ! command -v parallel >/dev/null; then
	echo "1..1"
	echo "ok 1 regress # SKIP GNU parallel not installed"
	exit 0
fi
echo "1..4"
small=(--budget 60s --cpus 2 --batch 32 --selftest --scenarios selftest --no-calibrate
       --seeds 2 --no-baseline)

# Stand-ins for ./stress (their --list is the real one's): one whose every
# run reports INCOMPLETE, as a run the host starved does (the real report
# with its verdict replaced, so that the test does not depend on the load),
# and one that dies without a report, as a crashed process does (exit 139).
real=$BUILD/stress
mkdir -p inc-stress crash-stress
cat >inc-stress/stress <<EOF
#!/bin/sh
[ "\$1" = --list ] && exec "$real" --list
"$real" "\$@" | sed 's/"verdict":"PASS"/"verdict":"INCOMPLETE"/; s/"exit_status":0/"exit_status":4/'
exit 4
EOF
cat >crash-stress/stress <<EOF
#!/bin/sh
[ "\$1" = --list ] && exec "$real" --list
exit 139
EOF
chmod +x inc-stress/stress crash-stress/stress

"$REGRESS" "${small[@]}" --stress "$PWD/inc-stress/stress" --extra "--duration 0.2s" \
	--out inc >k1 2>&1
rc=$?
[ $rc = 4 ] && [ "$(grep -c '^ok [12] .* # SKIP no verdict: INCOMPLETE$' k1)" = 2 ] &&
	! grep -q '^not ok' k1 && grep -q '^# regress: INCOMPLETE: 0/2 cells passed, 0 failed, 2 without verdict' k1 &&
	python3 "$root/tests/lib/summary_expect.py" verdict inc/summary.json INCOMPLETE \
		failed_cells=0 no_verdict_cells=2
result $? incomplete_cells_exit_4 "rc=$rc $(grep -E '^(not )?ok|^# regress' k1 | tr '\n' ' ')"

"$REGRESS" "${small[@]}" --seeds 1 --stress "$PWD/crash-stress/stress" --out err >k2 2>&1
rc=$?
[ $rc = 4 ] && grep -q '^ok 1 .* # SKIP no verdict: ERROR$' k2 && ! grep -q '^not ok' k2
result $? no_result_is_error_exit_4 "rc=$rc $(grep -E '^(not )?ok|^# regress' k2 | tr '\n' ' ')"

# Port 9 (discard) on the loopback: nobody listens there in a test box.
echo "1/ssh -o BatchMode=yes -o ConnectTimeout=5 -p 9 127.0.0.1" >hosts
"$REGRESS" "${small[@]}" --cpus 2,3 --sshloginfile hosts --jobs 2 --extra "--duration 0.2s" \
	--out dead >k3 2>&1
rc=$?
[ $rc = 0 ] && [ "$(grep -c '^ok [1-4] [0-9]*-selftest' k3)" = 4 ] && ! grep -q '^not ok' k3
result $? dead_host_loses_no_cell "rc=$rc $(grep -E '^(not )?ok|^# regress' k3 | tr '\n' ' ')"

"$REGRESS" "${small[@]}" --seeds 1 --extra '--duration 0.2s $(touch pwned) `touch pwned2`' \
	--out quoted >k4 2>&1
rc=$?
[ ! -e pwned ] && [ ! -e pwned2 ] && [ ! -e quoted/pwned ] && [ ! -e quoted/pwned2 ] &&
	{ [ $rc = 2 ] || [ $rc = 4 ]; }
result $? extra_is_never_shell_text "rc=$rc $(ls; ls quoted 2>/dev/null | head)"
[ "$failed" = 0 ]
