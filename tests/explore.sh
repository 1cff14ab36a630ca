#!/usr/bin/env bash
# Systematic exploration (docs/explore.md): small exhaustive configurations
# of counter_storm must complete within their preemption bound, a planted
# lost update must be found with the fewest preemptions (none at bound 0),
# and its saved schedule must reproduce it.
set -u
XP=${BUILD:-build/cc}/explore/explore
echo "KTAP version 1"
echo "1..6"
if [ ! -x "$XP" ]; then
	# Not built for KERNEL_SRC or sanitizer builds (mk/explore.mk).
	for i in 1 2 3 4 5 6; do echo "ok $i explore_$i # SKIP no $XP"; done
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
	local got=$?
	if [ "$got" -eq "$want" ] && grep -q -- "$pat" "$dir/out"; then
		echo "ok $n $name"
		grep -E '^# (executions|bound|FAIL)' "$dir/out"
	else
		sed 's/^/# /' "$dir/out" | grep -v '^# #  ' | tail -15
		echo "not ok $n $name # exit $got, want $want and '$pat'"
		rc=1
	fi
}

expect explore_storm_2x3_r1_b2 0 '^# complete within bound 2$' \
	--cpus 2 --adds 3 --readers 1 --batch 2 --bound 2
expect explore_storm_3x2_b2 0 '^# complete within bound 2$' \
	--cpus 3 --adds 2 --readers 0 --batch 2 --bound 2
expect explore_storm_3x2_sleep_unbounded 0 '^# complete (unbounded)$' \
	--cpus 3 --adds 2 --readers 0 --batch 4 --bound -1 --sleep
expect explore_planted_not_at_bound0 0 '^# complete within bound 0$' \
	--plant --bound 0
expect explore_planted_found 1 '^# FAIL planted_total' \
	--plant --bound 2 --save "$dir/sched"
if [ -s "$dir/sched" ] && grep -q '^preemptions 1$' "$dir/sched"; then
	expect explore_planted_replay 1 '^# replay .*: FAIL planted_total (expected planted_total)' \
		--replay-schedule "$dir/sched"
else
	n=$((n + 1))
	echo "not ok $n explore_planted_replay # no schedule with 1 preemption saved"
	rc=1
fi
exit $rc
