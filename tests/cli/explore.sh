#!/usr/bin/env bash
# Systematic exploration (docs/explore.md): small exhaustive configurations
# of counter_storm, oom, compaction and zone_desc must complete within their
# preemption bound, over more than one execution; a planted lost update
# must be found with the fewest preemptions (none at bound 0), and its
# saved schedule must reproduce it, also through ./stress --replay;
# schedule files name every harness.
# DPOR must cover as many distinct traces as the full search within the
# bound, in fewer executions (with and without spin locks), and its searches must pass the harnesses the
# interleaving mutants break.
set -u
XP=${BUILD:-build/cc}/explore/explore
STRESS=${BUILD:-build/cc}/stress
lib=$(cd "$(dirname "$0")/../lib" && pwd)
echo "KTAP version 1"
NR=35
echo "1..$NR"
if [ ! -x "$XP" ]; then
	# Not built for KERNEL_SRC or sanitizer builds (mk/explore.mk).
	for i in $(seq 1 $NR); do echo "ok $i explore_$i # SKIP no $XP"; done
	exit 0
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
rc=0
n=0

# expect NAME WANT_RC GREP ARGS...: run the explorer, check exit and output.
expect() {
	local name=$1 want=$2 pat=$3
	shift 3
	n=$((n + 1))
	"$XP" "$@" >"$dir/out" 2>&1
	local got=$? runs
	# A search that passes must have explored more than one schedule.
	runs=$(sed -n 's/^# executions \([0-9]*\) .*/\1/p' "$dir/out")
	if [ "$got" -eq 0 ] && [ -n "$runs" ] && [ "$runs" -le 1 ]; then
		got="$got (only $runs execution)"
	fi
	if [ "$got" = "$want" ] && grep -q -- "$pat" "$dir/out"; then
		echo "ok $n $name"
		grep -E '^# (executions|bound|FAIL)' "$dir/out"
	else
		sed 's/^/# /' "$dir/out" | grep -v '^# #  ' | tail -15
		echo "not ok $n $name # exit $got, want $want and '$pat'"
		rc=1
	fi
}

expect explore_storm_2x3_r1_b2 0 '^# complete within bound 2$' \
	--cpus 2 --adds 3 --readers 1 --batch 2 --bound 2 --reduction none
expect explore_storm_3x2_b2 0 '^# complete within bound 2$' \
	--cpus 3 --adds 2 --readers 0 --batch 2 --bound 2 --reduction none
expect explore_storm_3x2_sleep_unbounded 0 '^# complete (unbounded)$' \
	--cpus 3 --adds 2 --readers 0 --batch 4 --bound -1 --sleep
expect explore_storm_3x2_dpor_unbounded 0 '^# complete (unbounded)$' \
	--cpus 3 --adds 2 --readers 0 --batch 4 --bound -1 --reduction dpor
expect explore_planted_not_at_bound0 0 '^# complete within bound 0$' \
	--plant --bound 0 --reduction none
expect explore_planted_found 1 '^# FAIL planted_total' \
	--plant --bound 2 --save "$dir/sched" --reduction none
if [ -s "$dir/sched" ] && grep -q '^preemptions 1$' "$dir/sched"; then
	expect explore_planted_replay 1 '^# replay .*: FAIL planted_total (expected planted_total)' \
		--replay-schedule "$dir/sched"
else
	n=$((n + 1))
	echo "not ok $n explore_planted_replay # no schedule with 1 preemption saved"
	rc=1
fi
expect explore_oom_t3_f0_b2 0 '^# complete within bound 2$' \
	--harness oom --tasks 3 --forks 0 --bound 2 --reduction none
expect explore_oom_v16_f0_b2 0 '^# complete within bound 2$' \
	--harness oom --algo v16 --forks 0 --bound 2 --reduction none
expect explore_oom_f1_b1 0 '^# complete within bound 1$' \
	--harness oom --forks 1 --bound 1 --reduction none
# More than 16 tasks in the window: v16's budget runs out, its fallback
# selects (bound 0: the exiter before and after the selection).
expect explore_oom_v16_t19_b0 0 '^# complete within bound 0$' \
	--harness oom --algo v16 --tasks 19 --forks 0 --bound 0 --reduction none
expect explore_oom_bounded_t19_b0 0 '^# complete within bound 0$' \
	--harness oom --algo bounded --tasks 19 --forks 0 --bound 0 --reduction none
# A zone descriptor replaced under RCU while a reader walks it: complete
# under sc at bound 2; under pso (where a plain publish shows) at bound 1.
expect explore_zone_desc_b2 0 '^# complete within bound 2$' \
	--harness zone_desc --bound 2 --reduction none
expect explore_zone_desc_pso_b1 0 '^# complete within bound 1$' \
	--harness zone_desc --bound 1 --reduction none --memory-model pso
expect explore_compaction_b2 0 '^# complete within bound 2$' \
	--harness compaction --bound 2 --reduction none

# The budget at its threshold: the search's own count of executions T
# (exhaustive within the bound); a budget of T - 1 cuts it there, T and
# T + 1 let it complete. A cut search has no verdict (exit 4, SKIP), says
# what it left, and the cut bound counts the executions it made there.
b_args=(--cpus 2 --adds 2 --readers 0 --batch 2 --bound 1 --reduction none)
"$XP" "${b_args[@]}" >"$dir/full"
T=$(sed -n 's/^# executions \([0-9]*\) .*/\1/p' "$dir/full")
T0=$(sed -n 's/^# bound 0: \([0-9]*\) executions$/\1/p' "$dir/full")
expect explore_budget_below_total 4 \
	"^# cut by budget at $((T - 1)) executions (bound 1 not exhausted): no verdict$" \
	"${b_args[@]}" --budget $((T - 1))
# cut_counts NAME BOUND0 BOUND1: the last output's per-bound counts and its
# result line.
cut_counts() {
	local per
	n=$((n + 1))
	per=$(sed -n 's/^# bound \([01]\): \([0-9]*\) executions$/\1=\2/p' "$dir/out" | tr '\n' ' ')
	if [ "$per" = "0=$2 1=$3 " ] &&
		grep -qx 'ok 1 explore counter_storm # SKIP no verdict: cut by budget' "$dir/out"; then
		echo "ok $n $1"
	else
		echo "not ok $n $1 # bounds '$per', want 0=$2 1=$3: $(grep '^ok\|^not ok' "$dir/out")"
		rc=1
	fi
}
cut_counts explore_budget_cut_bound_counts "$T0" $((T - 1 - T0))
# Cut inside bound 0 of a search to bound 2: the bounds it never reached.
expect explore_budget_cut_names_the_rest 4 \
	"^# cut by budget at $((T0 - 1)) executions (bound 0 not exhausted, bounds 1 to 2 not explored): no verdict$" \
	--cpus 2 --adds 2 --readers 0 --batch 2 --bound 2 --reduction none --budget $((T0 - 1))
expect explore_budget_at_total 0 '^# complete within bound 1$' "${b_args[@]}" --budget "$T"
expect explore_budget_above_total 0 '^# complete within bound 1$' "${b_args[@]}" --budget $((T + 1))

# same_traces NAME ARGS...: --reduction dpor covers the distinct traces that
# --reduction none does, over fewer executions, both passing.
same_traces() {
	local name=$1 nx dx nt dt
	shift
	n=$((n + 1))
	"$XP" --reduction none "$@" >"$dir/none" 2>&1
	"$XP" --reduction dpor "$@" >"$dir/dpor" 2>&1
	nx=$(sed -n 's/^# executions \([0-9]*\) .*/\1/p' "$dir/none")
	dx=$(sed -n 's/^# executions \([0-9]*\) .*/\1/p' "$dir/dpor")
	nt=$(sed -n 's/^# traces \([0-9]*\)$/\1/p' "$dir/none")
	dt=$(sed -n 's/^# traces \([0-9]*\)$/\1/p' "$dir/dpor")
	if grep -q '^ok 1 ' "$dir/none" && grep -q '^ok 1 ' "$dir/dpor" && [ -n "$nt" ] &&
	   [ "$nt" -gt 1 ] && [ "$nt" = "$dt" ] && [ "$dx" -lt "$nx" ]; then
		echo "ok $n $name"
		echo "# none: $nx executions, $nt traces; dpor: $dx executions, $dt traces"
	else
		echo "not ok $n $name # none: ${nx:-?} executions, ${nt:-?} traces;" \
			"dpor: ${dx:-?} executions, ${dt:-?} traces"
		rc=1
	fi
}

same_traces explore_dpor_traces_storm_2x1_r1_b2 --cpus 2 --adds 1 --readers 1 --bound 2
same_traces explore_dpor_traces_storm_3x2_b2 --cpus 3 --adds 2 --readers 0 --bound 2
same_traces explore_dpor_traces_oom_f0_b2 --harness oom --forks 0 --bound 2
same_traces explore_dpor_traces_compaction_b1 --harness compaction --bound 1
# Spin locks: a preemption of a lock holder that the preempting fiber blocks on.
same_traces explore_dpor_traces_oom_f1_b1 --harness oom --forks 1 --bound 1
expect explore_dpor_planted_found 1 '^# FAIL planted_total' \
	--plant --bound 2 --reduction dpor
# The configurations that catch the interleaving mutants, under DPOR.
expect explore_dpor_storm_2x3_r1_b2 0 '^# exhausted within bound 2 with DPOR' \
	--cpus 2 --adds 3 --readers 1 --batch 2 --bound 2 --reduction dpor
expect explore_dpor_storm_3x2_b2 0 '^# exhausted within bound 2 with DPOR' \
	--cpus 3 --adds 2 --readers 0 --batch 2 --bound 2 --reduction dpor
expect explore_dpor_oom_t3_f0_b2 0 '^# exhausted within bound 2 with DPOR' \
	--harness oom --tasks 3 --forks 0 --bound 2 --reduction dpor
expect explore_dpor_compaction_b2 0 '^# exhausted within bound 2 with DPOR' \
	--harness compaction --bound 2 --reduction dpor

# A schedule file for each new harness is read and followed (each fiber's
# start, the exiter first, then the default): nothing fails, "not reproduced".
# sched_v2 HARNESS FIBER...: a version 2 file with those starts, summed.
sched_v2() {
	python3 "$lib/sched_seal.py" --v2 "$@"
}
sched_v2 oom 1 0 >"$dir/oom"
expect explore_oom_replay_file 0 '^# replay .*: not reproduced' --replay-schedule "$dir/oom"
sched_v2 compaction 2 0 1 >"$dir/cmp"
expect explore_compaction_replay_file 0 '^# replay .*: not reproduced' --replay-schedule "$dir/cmp"
sched_v2 zone 0 >"$dir/bad"
expect explore_replay_bad_harness 2 "bad harness 'zone'" --replay-schedule "$dir/bad"

# ./stress --replay takes a saved schedule too: the explorer beside it runs
# it (exit 1 and the same invariant); a replay file stays ./stress's own.
n=$((n + 1))
"$STRESS" --replay "$dir/sched" >"$dir/out" 2>&1
got=$?
if [ $got = 1 ] && grep -q '^# replay .*: FAIL planted_total (expected planted_total)' "$dir/out" &&
	grep -q '^not ok 1 explore replay planted_total' "$dir/out"; then
	echo "ok $n stress_replay_runs_a_schedule"
else
	sed 's/^/# /' "$dir/out" | tail -5
	echo "not ok $n stress_replay_runs_a_schedule # exit $got"
	rc=1
fi
n=$((n + 1))
"$STRESS" --replay "$dir/sched" --json "$dir/j" >"$dir/out" 2>"$dir/err"
got=$?
if [ $got = 2 ] && [ ! -s "$dir/out" ] && [ "$(wc -l <"$dir/err")" = 1 ] &&
	grep -q 'is an explorer schedule' "$dir/err" && [ ! -e "$dir/j" ]; then
	echo "ok $n stress_replay_schedule_json_refused"
else
	echo "not ok $n stress_replay_schedule_json_refused # exit $got: $(head -c 200 "$dir/err")"
	rc=1
fi
exit $rc
