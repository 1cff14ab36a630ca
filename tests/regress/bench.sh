#!/usr/bin/env bash
# hpcc-bench on quick, small sweeps (docs/bench.md): every section runs and
# its JSON has one row per CPU count (each count is measured in a forked
# process of its own; tests/seam/producer_seam.sh checks it on a tree whose
# percpu_counter_tree_subsystem_init() accumulates across calls). Bad input
# exits 2 with one line. No speed number is asserted.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
BIN=$(realpath "${BUILD:-build/cc}/bench/hpcc-bench")
# shellcheck source=tests/lib/sh/ktap.sh
. "$here/tests/lib/sh/ktap.sh"
ktap_begin
cd "$here" || exit 1
# shellcheck source=tests/lib/sh/producers.sh
. tests/lib/sh/producers.sh

"$BIN" $BENCH_SMALL --out "$tmp/q.json" >"$tmp/out" 2>&1
rc=$?
result $rc bench_quick_runs "$(grep -v '^#' "$tmp/out" | tail -n 3 | tr '\n' ' ')"
bench_rows "$tmp/q.json" >"$tmp/chk" 2>&1
result $? bench_quick_rows "$(tail -n 2 "$tmp/chk" | tr '\n' ' ')"

# Bad input: exit 2, one line.
bad_input sections "$BIN" --sections shape,nope
bad_input batch "$BIN" --batch 48

exit $((failed > 0))
