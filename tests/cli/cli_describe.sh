#!/usr/bin/env bash
# ./stress --describe against the formulas and the example table of
# docs/spec/hpcc.md, and its bad input (the cases: tests/lib/describe_check.py).
set -u
STRESS=${STRESS:-${BUILD:-build/cc}/stress}
here=$(cd "$(dirname "$0")/.." && pwd)
python3 "$here/lib/describe_check.py" "$STRESS"
