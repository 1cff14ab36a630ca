#!/usr/bin/env bash
# The explorer's outputs checked against its inputs
# (tests/lib/explore_outputs.py): a dozen random valid configurations,
# seeded, each a brief search with --json; the JSON and the KTAP header
# repeat what was parsed, the counts agree with the KTAP lines that tally
# them, the verdict with the exit status. KTAP on stdout.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
XP=$(realpath -m "${BUILD:-build/cc}/explore/explore")
NR=12
if [ ! -x "$XP" ]; then
	echo "KTAP version 1"
	echo "1..$NR"
	for i in $(seq 1 $NR); do echo "ok $i explore_outputs_$i # SKIP no $XP"; done
	exit 0
fi
# shellcheck source=tests/lib/sh/common.sh
. "$here/lib/sh/common.sh"
python3 "$here/lib/explore_outputs.py" "$XP" "${OUTPUTS_SEED:-1}" $NR
