#!/usr/bin/env bash
# Tests of the testers that need a run: checks a correct library passes
# whether or not they are as strict as their spec, so each test asserts the
# check was reached and covered what it must. Runs are bounded by --steps.
#  - oom_race's per-candidate oracle judges every algorithm under test at a
#    quiescent point (its oracle_coverage invariant, and the per-algorithm
#    counts in the report).
set -u
STRESS=${STRESS:-${BUILD:-build/cc}/stress}
STRESS=$(realpath "$STRESS")
# shellcheck source=tests/lib/sh/ktap.sh
. "$(dirname "$0")/../lib/sh/ktap.sh"
ktap_begin
cd "$tmp" || exit 1

# Both two-pass algorithms and the precise pass: every quiescent audit
# covers the three. A run may meet no quiescent point free of a kill, so a
# few seeds; at least one must audit.
ok=0 reached=0 why=
for seed in 1 2 3 4 5; do
	"$STRESS" --scenario oom_race --duration 0 --cpus 4 --steps 20000 --oom-algo both \
		--seed "$seed" >"$tmp/out" 2>&1
	rc=$?
	if [ $rc != 0 ]; then
		ok=1 why="seed $seed: exit $rc: $(grep -m1 FAIL "$tmp/out")"
		break
	fi
	line=$(grep -o 'per algorithm: precise [0-9]*, v16 [0-9]*, bounded [0-9]*' "$tmp/out")
	read -r p v b <<<"$(echo "$line" |
		sed 's/.*precise \([0-9]*\), v16 \([0-9]*\), bounded \([0-9]*\)/\1 \2 \3/')"
	if [ -n "${p:-}" ] && [ "$p" -gt 0 ]; then
		reached=1
		if [ "$v" != "$p" ] || [ "$b" != "$p" ]; then
			ok=1 why="seed $seed: $line"
		fi
	fi
done
[ $ok = 0 ] && [ $reached = 1 ]
result $? oom_oracle_covers_every_algorithm "${why:-no quiescent audit in 5 seeds}"

exit $((failed > 0))
