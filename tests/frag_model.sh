#!/usr/bin/env bash
# The fragmentation model is seeded and deterministic: its direction goals
# (docs/compaction.md) and the vmstat invariants are checked on every run,
# and the same seed must print the same table twice.
set -u
BENCH=${BUILD:-build/cc}/bench/compaction/frag-bench
echo "KTAP version 1"
echo "1..2"
out1=$(mktemp) out2=$(mktemp)
trap 'rm -f "$out1" "$out2"' EXIT
"$BENCH" --check >"$out1" 2>&1
rc=$?
if [ $rc -eq 0 ]; then
	echo "ok 1 frag_model_goals"
else
	sed 's/^/# /' "$out1" | tail -20
	echo "not ok 1 frag_model_goals # exit $rc"
fi
"$BENCH" --check >"$out2" 2>&1
# Everything but the wall-time line must be identical.
if cmp -s <(grep -v ' s for the ' "$out1") <(grep -v ' s for the ' "$out2"); then
	echo "ok 2 frag_model_deterministic"
else
	echo "not ok 2 frag_model_deterministic"
	rc=1
fi
exit $rc
