#!/usr/bin/env bash
# tier: long
# The outputs-against-inputs property (tests/cli/outputs_match_inputs.sh)
# over 150 more configurations, from other seeds. KTAP on stdout.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib/sh/common.sh
. "$here/lib/sh/common.sh"
test_begin
python3 "$here/lib/outputs_match_inputs.py" "$STRESS" "${OUTPUTS_SEED:-1001}" 150
