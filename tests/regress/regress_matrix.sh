#!/usr/bin/env bash
# tier: long
# scripts/regress on a tiny matrix (issues 9 and 15; docs/regress.md),
# sharded by GNU parallel in its local mode (an sshloginfile of ':'
# entries): the aggregate KTAP stream and the JSON summary hold every cell,
# a baseline is written and merged, the comparison flags a throughput
# regression (Mann-Whitney on the samples, beyond the noise floor) and a
# failing cell (with its reproducer and replay file) but only reports
# margins, skipped cells make the verdict INCOMPLETE, the plan interleaves
# the scenarios, SIGINT to the script or its group stops everything (no
# orphan, partial summary, exit 130), and bad options are usage errors.
# Verdicts never depend on speed: the regressions are provoked by editing
# the baseline. KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
# scripts/regress runs $BUILD/stress: make check's STRESS (the tool built
# from lib/hpcc when KERNEL_SRC is set) wins.
if [ -n "${STRESS:-}" ]; then
	BUILD=$(realpath "$(dirname "$STRESS")")
else
	BUILD=$(realpath "${BUILD:-build/cc}")
fi
export BUILD
REGRESS="$root/scripts/regress"
summary=(python3 "$root/tests/lib/summary_expect.py")
n=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# shellcheck source=tests/lib/sh/common.sh
. "$root/tests/lib/sh/common.sh"

echo "KTAP version 1"
if ! command -v parallel >/dev/null; then
	echo "1..1"
	echo "ok 1 regress # SKIP GNU parallel not installed"
	exit 0
fi
printf ':\n:\n' >hosts		# two "hosts", both local

# 1. Eight cells (4 groups x 2 seeds) over two local slots: KTAP with one
#    result per cell + baseline.
# A budget far above the runs' (--max-run 1s): no cell is skipped, however slow.
"$REGRESS" --budget 120s --max-run 1s --cpus 1,3 --batch 2,256 --scenarios counter_storm \
	--seeds 2 --sshloginfile hosts --out run1 --baseline base.json --update-baseline >k1 2>e1
rc=$?
[ $rc = 0 ] && grep -q '^1\.\.9$' k1 && [ "$(grep -c '^ok [1-8] ' k1)" = 8 ] &&
	grep -q '^ok 9 baseline # SKIP no baseline' k1
result $? matrix_ktap_one_result_per_cell "rc=$rc $(tail -n 3 e1 k1 | tr '\n' ' ')"

# 2. The JSON summary: valid, eight passing cells (two seeds per group), merged
#    from both slots; each group keeps its throughput samples.
"${summary[@]}" cells run1/summary.json
result $? summary_json_has_every_cell

# 3. The baseline was written, and a comparison with itself passes.
"$REGRESS" --compare run1/summary.json --baseline base.json >k3 2>&1; rc=$?
[ $rc = 0 ] && grep -q '^ok 1 baseline' k3
result $? compare_with_own_baseline_passes "rc=$rc $(cat k3)"

# 4. A baseline 10x faster: the scenario's throughput (relative to the
#    calibration run) regressed: one flag for the scenario, 8 vs 8 samples.
#    With a noise floor of 0.95 (only a ratio below 0.05 counts), it does not.
json_set base.json fast.json 'groups.*.rel_samples=*10'
#    (load=inf,steal=1: however busy this host was during run 1.) A host too
#    busy (load=0: any runnable thread is too many) makes it inconclusive,
#    not regressed.
"$REGRESS" --compare run1/summary.json --baseline fast.json --tolerance load=inf,steal=1 \
	>k4 2>&1; rc=$?
"$REGRESS" --compare run1/summary.json --baseline fast.json \
	--tolerance floor=0.95,load=inf,steal=1 >k4b 2>&1; rc4b=$?
"$REGRESS" --compare run1/summary.json --baseline fast.json --tolerance load=0 >k4c 2>&1
rc4c=$?
[ $rc = 1 ] && grep -q '^not ok 1 baseline' k4 &&
	[ "$(grep -c '^# regression counter_storm throughput: median ratio 0.1' k4)" = 1 ] &&
	[ $rc4b = 0 ] && grep -q 'within the noise floor' k4b &&
	[ $rc4c = 0 ] && grep -q '^ok 1 baseline' k4c && ! grep -q '^# regression' k4c &&
	grep -q '^# throughput counter_storm: inconclusive, not compared: the host was too busy (.* runnable threads per core >= 0)' k4c
result $? throughput_regression_flagged "rc=$rc/$rc4b/$rc4c $(grep -h 'regression\|inconclusive' k4 k4c)"

# 5. Margins depend on timing: a baseline with far smaller margins is
#    reported, never flagged.
json_set base.json tight.json 'groups.*.margins.*=-1.0'
"$REGRESS" --compare run1/summary.json --baseline tight.json >k5 2>&1; rc5=$?
[ $rc5 = 0 ] && grep -q 'margin .*timing-dependent: reported, not flagged' k5 &&
	! grep -q '^# regression' k5
result $? margins_reported_not_flagged "rc=$rc5"

# 6. Merging: a run of one more group keeps the others in the baseline.
"$REGRESS" --budget 60s --max-run 1s --cpus 2 --batch 32 --scenarios counter_storm \
	--seeds 1 --out run2 --baseline base.json --update-baseline >k6 2>&1; rc=$?
"${summary[@]}" groups base.json 5
result $? baseline_update_merges "rc=$rc"

# 7. A failing cell: not ok, the reproducer and the replay file in the
#    diagnostics, exit 1, and the baseline left alone.
cp base.json before.json
"$REGRESS" --budget 60s --max-run 1s --cpus 2 --batch 32 --selftest --scenarios selftest \
	--seeds 1 --extra "--selftest-fail-after 30" --out run3 --baseline base.json \
	--update-baseline >k7 2>&1; rc=$?
[ $rc = 1 ] && grep -q '^not ok 1 ' k7 && grep -q '^# reproduce: .*--seed 1' k7 &&
	grep -q 'replay file stress-replay-.*fails selftest' k7 &&
	ls run3/stress-replay-*.txt >/dev/null 2>&1 && cmp -s base.json before.json &&
	grep -q 'regression selftest/cpus=2/batch=32 verdict' k7
result $? failing_cell_reported_with_reproducer "rc=$rc $(grep -E '^(not )?ok' k7 | tr '\n' ' ')"

# 8. The budget holds: cells overrun (vCPU 0 stalls until the watchdog fails
#    the run, after 3 s or more), and the third cell, which could start by
#    5.3 s at the latest (6 s - 0.3 s run - 0.4 s overhead), is skipped:
#    it cannot start before 6 s. Slowness only makes that surer.
#    A skipped cell is counted per scenario and never gives PASS.
"$REGRESS" --budget 6s --cpus 1,2,3 --batch 32 --selftest --scenarios selftest --no-calibrate \
	--seeds 1 --extra "--selftest-stall --stall-timeout 3s --duration 30s" --no-baseline \
	--out run4 >k8 2>&1; rc=$?
grep -q '^ok 3 .* # SKIP budget exhausted' k8 &&
	! grep -E '^ok [12] ' k8 | grep -qv 'SKIP budget exhausted' && [ $rc != 0 ] &&
	"${summary[@]}" skipped run4/summary.json selftest
result $? cells_past_the_budget_are_skipped "rc=$rc $(grep -E '^(not )?ok' k8 | tr '\n' ' ')"

# 9. Skipped cells and nothing failed: INCOMPLETE, exit 4.
#    Four 3 s cells (--duration 3s wins over the planned 0.34 s) in 7 s:
#    the fourth cannot start before 9 s, its latest start is 6.3 s.
"$REGRESS" --budget 7s --cpus 1,2,3,4 --batch 32 --selftest --scenarios selftest \
	--no-calibrate --seeds 1 --extra "--duration 3s" --no-baseline \
	--out run5 >k9 2>&1; rc=$?
{ { [ $rc = 4 ] && grep -q '^# regress: INCOMPLETE' k9; } ||
	{ [ $rc = 1 ] && grep -q '^not ok' k9; }; } &&	# (a loaded host may fail a cell first)
	# --no-baseline with the default baseline file there: the comparison is off,
	# not "no baseline".
	grep -q '^ok [0-9]* baseline # SKIP comparison off (--no-baseline)$' k9 &&
	! grep -q 'no baseline (' k9
result $? skipped_cells_make_the_verdict_incomplete "rc=$rc $(tail -1 k9) $(grep baseline k9)"

# 10. The plan interleaves the scenarios: a budget that runs out skips
#    cells of every scenario alike.
"$REGRESS" --plan --cpus 1,2 --batch 32 --seeds 2 >k10 2>&1
awk 'NR <= 3 { sub(/^[0-9]+-/, ""); sub(/-c.*/, ""); print }' k10 | sort -u | wc -l |
	grep -qx 3 && [ "$(grep -c ' duration=' k10)" = 12 ]
result $? plan_interleaves_scenarios "$(head -4 k10 | tr '\n' ' ')"

# 11. The statistics: one-sided Mann-Whitney p-values, exact (ties too: the
#     same as counting every split of the pooled values) and approximated.
python3 "$root/tests/lib/regress_stats_check.py" "$REGRESS"
result $? mann_whitney_exact_and_approx

# 12. Bad options: one line on stderr, exit 2.
bad=0
for args in "--budget 0" "--budget x" "--cpus 0" "--batch 3" "--tolerance speed=1" \
	    "--scenarios nosuch" "--sshloginfile /nonexistent" "--budget 1s"; do
	# shellcheck disable=SC2086
	"$REGRESS" $args --out bad >o 2>e; rc=$?
	if [ $rc != 2 ] || [ "$(wc -l <e)" != 1 ]; then
		echo "# $args: rc=$rc $(head -c 200 e)"
		bad=1
	fi
done
result $bad bad_options_are_usage_errors

# 13-14. SIGINT to the script's PID, then to its process group: GNU parallel
#    and every ./stress child are gone, the partial summary is written, exit
#    130. (Waits for a running cell first; bounded against a hang only.)
for target in pid group; do
	out=sig-$target
	setsid "$REGRESS" --budget 300s --max-run 20s --cpus 2 --batch 32 --seeds 4 \
		--scenarios counter_storm --no-baseline --out $out >k-$target 2>&1 &
	pid=$!
	# A cell of THIS run: a ./stress working in $out (the handlers are set by then).
	for ((i = 0; i < 6000; i++)); do
		for p in $(pgrep -x stress); do
			[ "$(readlink /proc/$p/cwd 2>/dev/null)" = "$tmp/$out" ] && break 2
		done
		sleep 0.02
	done
	t0=$(date +%s%N)
	if [ $target = pid ]; then kill -INT $pid; else kill -INT -- -$pid; fi
	for ((i = 0; i < 12000; i++)); do kill -0 $pid 2>/dev/null || break; sleep 0.01; done
	wait $pid
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	sleep 0.1
	left=0
	for p in $(pgrep -f "$tmp/$out/"; pgrep -x stress; pgrep -x parallel); do
		case "$(readlink /proc/$p/cwd 2>/dev/null)" in "$tmp/$out"*) left=$((left + 1));; esac
		grep -qs "$tmp/$out/" /proc/$p/cmdline && left=$((left + 1))
	done
	[ $rc = 130 ] && [ "$left" = 0 ] && grep -q '^# regress: INTERRUPTED' k-$target &&
		"${summary[@]}" verdict "$out/summary.json" INTERRUPTED 'interrupted_cells>=1'
	result $? "sigint_to_${target}_stops_everything" "exit $rc ${ms} ms after SIGINT, $left left"
done

[ $failed = 0 ]
