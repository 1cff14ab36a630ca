#!/usr/bin/env bash
# The JSON report (--report json on stdout, --json FILE) validates against
# docs/stress-report.schema.json (tests/lib/json_check.py: python3-jsonschema,
# integers must be integer literals), for passing, failing and multi-run
# reports, and carries the numbers the text report shows. Seeds are decimal
# strings: one read back with jq (1.6 on Debian 12 reads numbers as doubles)
# reproduces the run.
set -u
STRESS=${STRESS:-${BUILD:-build/cc}/stress}
here=$(cd "$(dirname "$0")/.." && pwd)
schema=$here/../docs/stress-report.schema.json
check=$here/lib/json_check.py
n=0 failed=0
STRESS=$(realpath "$STRESS")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1	# files a run may write (e.g. replay files) stay in $tmp

# The number of results is known at the end only: no plan (KTAP allows it).
echo "KTAP version 1"

# shellcheck source=tests/lib/sh/common.sh
. "$here/lib/sh/common.sh"

valid() {	# valid FILE NAME
	python3 "$check" "$schema" "$1" >"$tmp/why"
	result $? "$2" "$(head -5 "$tmp/why" | tr '\n' ' ')"
}

# The validator itself rejects what it should (it must be able to fail).
echo '{"tool":"hpcc-stress"}' >"$tmp/bad.json"
! python3 "$check" "$schema" "$tmp/bad.json" >/dev/null
result $? validator_rejects_incomplete_report

# Passing run, JSON on stdout only.
"$STRESS" --scenario counter_storm --cpus 4 --steps 1000 --duration 0 --seed 5 --report json \
	--stat-interval 0 >"$tmp/pass.json" 2>"$tmp/err"
rc=$?
[ $rc = 0 ]
result $? json_pass_exit_0 "exit $rc"
valid "$tmp/pass.json" json_pass_matches_schema
expect pass-counts "$tmp/pass.json"
result $? json_pass_has_counts_and_margins
grep -q '^stress: PASS counter_storm' "$tmp/err"
result $? json_mode_verdict_on_stderr

# Failing run through --json FILE (text on stdout), two scenarios.
STRESS_SELFTEST=1 "$STRESS" --scenario counter_storm --scenario selftest --cpus 2 --steps 300 \
	--duration 0 --selftest-fail-after 50 --seed 6 --json "$tmp/fail.json" --stat-interval 0 \
	>"$tmp/out" 2>&1
rc=$?
[ $rc = 1 ]
result $? json_fail_exit_1 "exit $rc"
valid "$tmp/fail.json" json_fail_matches_schema
expect fail-reproducer "$tmp/fail.json"
result $? json_fail_has_failure_and_reproducer

# --until-fail: one run per round.
"$STRESS" --scenario counter_storm --cpus 2 --until-fail --rounds 2 --round 60s --steps 200 \
	--duration 0 --report json --stat-interval 0 >"$tmp/uf.json" 2>/dev/null
valid "$tmp/uf.json" json_until_fail_matches_schema
expect runs "$tmp/uf.json" 2
result $? json_until_fail_one_run_per_round

# Counts are exact integers: a checker that took 5.0 for an integer would
# let a count printed through a double pass (the old "%.9g").
sed 's/"ops":4000,/"ops":4000.0,/' "$tmp/pass.json" >"$tmp/float.json"
! cmp -s "$tmp/pass.json" "$tmp/float.json" && ! python3 "$check" "$schema" "$tmp/float.json" >/dev/null
result $? checker_rejects_an_integer_written_as_a_double

# A seed read back from JSON with jq reproduces the run. The seed comes from
# the clock (almost surely above 2^53, where a double drops digits); the
# deterministic fingerprint (--steps, no stutter) must match.
fingerprint='--scenario counter_storm --cpus 8 --steps 3000 --duration 0 --stutter off --stat-interval 0'
# shellcheck disable=SC2086
"$STRESS" $fingerprint --json "$tmp/seed.json" >"$tmp/first" 2>&1
seed=$(jq -r '.runs[0].seed' "$tmp/seed.json")
shown=$(sed -n 's/^stress: PASS counter_storm cpus=8 seed=\([0-9]*\) .*/\1/p' "$tmp/first")
# shellcheck disable=SC2086
"$STRESS" $fingerprint --seed "$seed" >"$tmp/again" 2>&1
a=$(grep '^# counter_storm final' "$tmp/first") b=$(grep '^# counter_storm final' "$tmp/again")
[ -n "$seed" ] && [ "$seed" = "$shown" ] && [ -n "$a" ] && [ "$a" = "$b" ] &&
	[ "$(jq -r '.config.seed' "$tmp/seed.json")" = "$seed" ]
result $? seed_round_trips_through_jq "seed '$seed' (text: '$shown'); final '$a' / '$b'"
# The same with the largest seed, and what jq does to it as a number.
big=18446744073709551615
"$STRESS" --scenario counter_storm --cpus 2 --steps 10 --duration 0 --seed $big --report json \
	--stat-interval 0 >"$tmp/big.json" 2>/dev/null
[ "$(jq -r '.runs[0].seed' "$tmp/big.json")" = $big ]
result $? largest_seed_exact_through_jq
echo "# jq $(jq --version 2>&1 | sed 's/jq-//') reads the number $big as $(echo "{\"s\":$big}" | jq .s)"

exit $((failed > 0))
