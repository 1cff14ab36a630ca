#!/usr/bin/env bash
# The explorer's memory models (docs/explore.md#memory-models): each
# barrier pattern passes under sc, tso and pso with its barrier; with the
# barrier planted out, the model that shows the reordering fails it (SB
# under tso and pso, MP and the RCU publish under pso only) and the
# stronger ones pass, with --reduction none and with sleep sets; sc keeps
# the counts it had; a failing schedule replays under its saved model;
# bad --memory-model and dpor with a weak model are exit 2.
set -u
XP=${BUILD:-build/cc}/explore/explore
echo "KTAP version 1"
NR=30
echo "1..$NR"
if [ ! -x "$XP" ]; then
	for i in $(seq 1 $NR); do echo "ok $i explore_memmodel_$i # SKIP no $XP"; done
	exit 0
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
rc=0
n=0

# expect NAME WANT_RC GREP ARGS...: run the explorer, check exit and output.
expect() {
	local name=$1 want=$2 pat=$3 got runs
	shift 3
	n=$((n + 1))
	"$XP" "$@" >"$dir/out" 2>&1
	got=$?
	runs=$(sed -n 's/^# executions \([0-9]*\) .*/\1/p' "$dir/out")
	if [ "$got" -eq 0 ] && [ -n "$runs" ] && [ "$runs" -le 1 ]; then
		got="$got (only $runs execution)"
	fi
	if [ "$got" = "$want" ] && grep -q -- "$pat" "$dir/out"; then
		echo "ok $n $name"
		grep -E '^# (executions|traces|FAIL)' "$dir/out"
	else
		sed 's/^/# /' "$dir/out" | tail -12
		echo "not ok $n $name # exit $got, want $want and '$pat'"
		rc=1
	fi
}

# Which model shows each pattern's reordering once its barrier is gone.
declare -A shows=([sb]="tso pso" [mp]="pso" [publish]="pso")
declare -A inv=([sb]=sb_both_zero [mp]=mp_stale_data [publish]=publish_unfilled)
for h in sb mp publish; do
	for m in sc tso pso; do
		expect "explore_${h}_${m}" 0 "^ok 1 explore $h" \
			--harness "$h" --memory-model "$m" --bound -1 --reduction none
		if [[ " ${shows[$h]} " == *" $m "* ]]; then
			expect "explore_${h}_plant_${m}_found" 1 "^# FAIL ${inv[$h]}" \
				--harness "$h" --plant --memory-model "$m" --bound -1 --reduction none
		else
			expect "explore_${h}_plant_${m}_hidden" 0 '^# complete (unbounded)$' \
				--harness "$h" --plant --memory-model "$m" --bound -1 --reduction none
		fi
	done
done
# Sleep sets cut executions, not the weak outcome, nor add one.
expect explore_sb_plant_tso_sleep 1 '^# FAIL sb_both_zero' \
	--harness sb --plant --memory-model tso --bound -1 --reduction sleep
expect explore_mp_plant_pso_sleep 1 '^# FAIL mp_stale_data' \
	--harness mp --plant --memory-model pso --bound -1 --reduction sleep
expect explore_publish_pso_sleep 0 '^# complete (unbounded)$' \
	--harness publish --memory-model pso --bound -1 --reduction sleep
# Flushes are scheduled steps under the preemption bound: a flush once
# its fiber has ended costs none, so the lazy default shows MP at bound 0.
expect explore_mp_plant_pso_b0_found 1 'with 7 steps and 0 preemptions' \
	--harness mp --plant --memory-model pso --bound 0 --reduction none
expect explore_mp_pso_b2 0 '^# complete within bound 2$' \
	--harness mp --memory-model pso --bound 2 --reduction none
# sc is the model of before: the same counts.
expect explore_storm_sc_counts 0 '^# traces 2402$' \
	--cpus 2 --adds 3 --readers 1 --batch 2 --bound 2 --reduction none --memory-model sc
# The lock-free counter's own code under store buffers (bound 1).
expect explore_storm_tso_b1 0 '^ok 1 explore counter_storm tso$' \
	--cpus 2 --adds 3 --readers 1 --batch 2 --bound 1 --reduction sleep --memory-model tso
expect explore_compaction_tso_b1 0 '^ok 1 explore compaction tso$' \
	--harness compaction --bound 1 --reduction sleep --memory-model tso
# The model is in the schedule file: its replay fails again, under pso.
expect explore_mp_plant_save 1 '^# FAIL mp_stale_data' \
	--harness mp --plant --memory-model pso --bound -1 --save "$dir/sched"
if grep -q '^memory-model pso$' "$dir/sched" 2>/dev/null; then
	expect explore_mp_plant_replay 1 '^# replay .*: FAIL mp_stale_data' \
		--replay-schedule "$dir/sched"
else
	n=$((n + 1))
	echo "not ok $n explore_mp_plant_replay # no memory-model line saved"
	rc=1
fi
# Bad input.
n=$((n + 1))
"$XP" --memory-model arm >"$dir/out" 2>&1
got=$?
if [ "$got" -eq 2 ] && grep -q "bad --memory-model 'arm'" "$dir/out"; then
	echo "ok $n explore_memmodel_bad_name"
else
	echo "not ok $n explore_memmodel_bad_name # exit $got"
	rc=1
fi
n=$((n + 1))
"$XP" --harness sb --memory-model tso --reduction dpor >"$dir/out" 2>&1
got=$?
if [ "$got" -eq 2 ] && grep -q 'dpor explores sc only' "$dir/out"; then
	echo "ok $n explore_memmodel_dpor_refused"
else
	echo "not ok $n explore_memmodel_dpor_refused # exit $got"
	rc=1
fi
if [ "$n" -ne "$NR" ]; then
	echo "# planned $NR, ran $n"
	rc=1
fi
exit $rc
