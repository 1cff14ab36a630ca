#!/usr/bin/env bash
# scripts/kernel-series' --json checked against its inputs, as
# tests/cli/outputs_match_inputs.sh does for ./stress: a repository of six
# commits made here, then 5 seeded configurations (a range of it,
# options, a verdict per content and a checkpatch result per commit,
# standing in for the judge: nothing is built). Each run's JSON must repeat
# the configuration as given, name the range's commits in order with their
# subjects, the judged files they touch and their content keys (equal where
# the judged content is), count its events in its summary line, and give
# the exit status the run returned, which must follow from its events and
# checkpatch results. Env: KSERIES_JSON_SEED (default 1), KSERIES_JSON_RUNS
# (default 5). KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
echo "KTAP version 1"
python3 -B "$root/tests/lib/kernel_series_json.py" "$root/scripts/kernel-series" \
	"${KSERIES_JSON_SEED:-1}" "${KSERIES_JSON_RUNS:-5}"
