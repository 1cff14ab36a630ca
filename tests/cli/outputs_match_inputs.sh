#!/usr/bin/env bash
# Outputs checked against their inputs (tests/lib/outputs_match_inputs.py):
# a dozen random valid configurations, seeded, each run for a few steps;
# the JSON, text and KTAP reports must repeat what was parsed, count what
# was tallied and agree with the exit status. More in the long tier
# (tests/regress/outputs_match_inputs_long.sh). KTAP on stdout.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib/sh/common.sh
. "$here/lib/sh/common.sh"
test_begin
python3 "$here/lib/outputs_match_inputs.py" "$STRESS" "${OUTPUTS_SEED:-1}" 12
