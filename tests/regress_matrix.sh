#!/usr/bin/env bash
# scripts/regress on a tiny matrix (issue 9; docs/regress.md), sharded by
# GNU parallel in its local mode (an sshloginfile of ':' entries): the
# aggregate KTAP stream and the JSON summary hold every cell, a baseline
# is written and merged, the comparison flags a throughput or margin
# regression and a failing cell (with its reproducer and replay file),
# and bad options are usage errors. Verdicts never depend on speed: the
# regressions are provoked by editing the baseline. KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
# scripts/regress runs $BUILD/stress: make check's STRESS (the tool built
# from lib/hpcc when KERNEL_SRC is set) wins.
if [ -n "${STRESS:-}" ]; then
	export BUILD=$(realpath "$(dirname "$STRESS")")
else
	export BUILD=$(realpath "${BUILD:-build/cc}")
fi
REGRESS="$root/scripts/regress"
n=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

result() {	# result RC NAME [DIAG]
	n=$((n + 1))
	[ -n "${3:-}" ] && [ "$1" != 0 ] && printf '# %s\n' "$3"
	if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; failed=$((failed + 1)); fi
}

echo "KTAP version 1"
if ! command -v parallel >/dev/null; then
	echo "1..1"
	echo "ok 1 regress # SKIP GNU parallel not installed"
	exit 0
fi
echo "1..9"
printf ':\n:\n' >hosts		# two "hosts", both local

# 1. Four cells over two local slots: KTAP with one result per cell + baseline.
# A budget far above the runs' (--max-run 1s): no cell is skipped, however slow.
"$REGRESS" --budget 120s --max-run 1s --cpus 1,3 --batch 2,256 --scenarios counter_storm \
	--sshloginfile hosts --out run1 --baseline base.json --update-baseline >k1 2>e1
rc=$?
[ $rc = 0 ] && grep -q '^1\.\.5$' k1 && [ "$(grep -c '^ok [1-4] ' k1)" = 4 ] &&
	grep -q '^ok 5 baseline # SKIP no baseline' k1
result $? matrix_ktap_one_result_per_cell "rc=$rc $(tail -n 3 e1 k1 | tr '\n' ' ')"

# 2. The JSON summary: valid, four passing cells, merged from both slots.
python3 - run1/summary.json <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
cells = d["cells"]
assert len(cells) == 4 and d["verdict"] == "PASS" and d["slots"] == 2, d["verdict"]
assert sorted((c["cpus"], c["batch"]) for c in cells) == [(1, 2), (1, 256), (3, 2), (3, 256)]
assert all(c["verdict"] == "PASS" and c["ops_per_s"] > 0 for c in cells)
assert all(c["cpu_s"] > 0 and c["ops_per_cpu_s"] > 0 for c in cells)
assert all(c["calib_ops_per_cpu_s"] > 0 and c["rel_throughput"] > 0 for c in cells)
assert len(d["groups"]) == 4
EOF
result $? summary_json_has_every_cell

# 3. The baseline was written, and a comparison with itself passes.
"$REGRESS" --compare run1/summary.json --baseline base.json >k3 2>&1; rc=$?
[ $rc = 0 ] && grep -q '^ok 1 baseline' k3
result $? compare_with_own_baseline_passes "rc=$rc $(cat k3)"

# 4. A baseline 10x faster: every group's throughput (relative to the
#    calibration run) regressed.
python3 - base.json fast.json <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for g in d["groups"].values():
	g["ops_per_s"] *= 10
	g["ops_per_cpu_s"] *= 10
	g["rel_throughput"] *= 10
json.dump(d, open(sys.argv[2], "w"))
EOF
"$REGRESS" --compare run1/summary.json --baseline fast.json >k4 2>&1; rc=$?
[ $rc = 1 ] && grep -q '^not ok 1 baseline' k4 &&
	[ "$(grep -c 'regression .* rel_throughput' k4)" = 4 ]
result $? throughput_regression_flagged "rc=$rc $(head -5 k4)"

# 5. A baseline with smaller margins: flagged beyond the margin tolerance only.
python3 - base.json tight.json <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for g in d["groups"].values():
	g["margins"] = {m: -1.0 for m in g["margins"]}
json.dump(d, open(sys.argv[2], "w"))
EOF
"$REGRESS" --compare run1/summary.json --baseline tight.json >k5 2>&1; rc5=$?
"$REGRESS" --compare run1/summary.json --baseline tight.json \
	--tolerance margin=3 >k5b 2>&1; rc5b=$?
[ $rc5 = 1 ] && grep -q 'regression .* margin:' k5 && [ $rc5b = 0 ]
result $? margin_regression_flagged_beyond_tolerance "rc=$rc5/$rc5b"

# 6. Merging: a run of one more group keeps the others in the baseline.
"$REGRESS" --budget 60s --max-run 1s --cpus 2 --batch 32 --scenarios counter_storm \
	--out run2 --baseline base.json --update-baseline >k6 2>&1; rc=$?
python3 -c "import json,sys; g=json.load(open('base.json'))['groups']; sys.exit(len(g) != 5)"
result $? baseline_update_merges "rc=$rc"

# 7. A failing cell: not ok, the reproducer and the replay file in the
#    diagnostics, exit 1, and the baseline left alone.
cp base.json before.json
"$REGRESS" --budget 60s --max-run 1s --cpus 2 --batch 32 --selftest --scenarios selftest \
	--extra "--selftest-fail-after 30" --out run3 --baseline base.json \
	--update-baseline >k7 2>&1; rc=$?
[ $rc = 1 ] && grep -q '^not ok 1 ' k7 && grep -q '^# reproduce: .*--seed 1' k7 &&
	grep -q 'replay file stress-replay-.*fails selftest' k7 &&
	ls run3/stress-replay-*.txt >/dev/null 2>&1 && cmp -s base.json before.json &&
	grep -q 'regression selftest/cpus=2/batch=32 verdict' k7
result $? failing_cell_reported_with_reproducer "rc=$rc $(grep -E '^(not )?ok' k7 | tr '\n' ' ')"

# 8. The budget holds: cells overrun (vCPU 0 stalls until the watchdog fails
#    the run, after 1.5 s or more), and the third cell, which could start
#    by 2.9 s at the latest, is skipped. Slowness only makes that surer.
"$REGRESS" --budget 4s --cpus 1,2,3 --batch 32 --selftest --scenarios selftest --no-calibrate \
	--extra "--selftest-stall --stall-timeout 1.5s --duration 30s" --no-baseline \
	--out run4 >k8 2>&1; rc=$?
grep -q '^ok 3 .* # SKIP budget exhausted' k8 &&
	! grep -E '^ok [12] ' k8 | grep -qv 'SKIP budget exhausted'

result $? cells_past_the_budget_are_skipped "rc=$rc $(grep -E '^(not )?ok' k8 | tr '\n' ' ')"

# 9. Bad options: one line on stderr, exit 2.
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

[ $failed = 0 ]
