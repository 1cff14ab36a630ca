#!/usr/bin/env bash
# hpcc-bench on quick, small sweeps (docs/bench.md): every section runs and
# its JSON has one row per CPU count (each count is measured in a forked
# process of its own), and on a tree whose percpu_counter_tree_subsystem_init()
# accumulates across calls every accuracy row matches lib/shape's. Bad input
# exits 2 with one line. No speed number is asserted.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
BIN=$(realpath "${BUILD:-build/cc}/bench/hpcc-bench")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0
echo "KTAP version 1"
echo "1..5"
result() {	# result RC NAME [DIAG]
	n=$((n + 1))
	[ -n "${3:-}" ] && [ "$1" != 0 ] && printf '# %s\n' "$3"
	if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; failed=$((failed + 1)); fi
}
cd "$here" || exit 1
. tests/lib/sh/accumulate.sh

# Small sweeps: add and add_oversub at 2 and 8 CPUs, read at 1, 8 and 64,
# accuracy and memory at 1..64, the OOM section at 40 and 400 tasks.
SMALL="--quick --reps 5 --target-ms 1 --max-cpus 64 --max-add-cpus 8"

# The JSON's rows, one per CPU count of every sweep, in order, and every
# accuracy row's library range equal to lib/shape's.
check_rows() {	# FILE
	python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = lambda k, *f: [tuple(p[x] for x in f) for p in d[k]]
want = {
    "accuracy": [(c,) for c in (1, 2, 4, 8, 16, 32, 64)],
    "memory": [(c,) for c in (1, 2, 4, 8, 16, 32, 64)],
    "read": [(1,), (8,), (64,)],
}
for k, w in want.items():
    assert rows(k, "nr_cpus") == w, "%s rows %s" % (k, rows(k, "nr_cpus"))
got = rows("add", "nr_cpus", "threads")
assert got == [(2, 1), (2, 2), (8, 1), (8, 2)], "add rows %s" % got
got = rows("add_oversub", "nr_cpus", "threads")
assert got == [(2, 2), (8, 8)], "add_oversub rows %s" % got
assert set(d["precise_fit"]) >= {"hpcc", "split"} and "hpcc_vs_atomic" in d["approx_flatness"]
if d["oom"] is not None:
    got = [(p["workload"], p["tasks"]) for p in d["oom"]["points"]]
    assert [t for _, t in got] == [40, 400, 40, 400], "oom rows %s" % got
bad = [(a["nr_cpus"], a["hpcc"]["lib_under"], a["hpcc"]["lib_over"], a["hpcc"]["under"],
        a["hpcc"]["over"]) for a in d["accuracy"]
       if (a["hpcc"]["lib_under"], a["hpcc"]["lib_over"]) != (a["hpcc"]["under"], a["hpcc"]["over"])]
assert not bad, "library accuracy != lib/shape's (cpus, lib, shape): %s" % bad
PY
}

"$BIN" $SMALL --out "$tmp/q.json" >"$tmp/out" 2>&1
rc=$?
result $rc bench_quick_runs "$(grep -v '^#' "$tmp/out" | tail -n 3 | tr '\n' ' ')"
check_rows "$tmp/q.json" >"$tmp/chk" 2>&1
result $? bench_quick_rows "$(tail -n 2 "$tmp/chk" | tr '\n' ' ')"

# Each CPU count boots the counter in a process of its own: on a tree whose
# percpu_counter_tree_subsystem_init() adds to static state
# (tests/seam/fixtures/ktrees/accumulate.patch on lib/hpcc laid out as a tree),
# booting 1, 2 then 4 CPUs in one process gives the 4-CPU counters all three
# topologies' accuracy, and hpcc-bench's own check fails. Every section runs
# on it: one that booted twice in one process would be refused.
if [ -n "${KERNEL_SRC:-}" ]; then
	n=$((n + 1))
	echo "ok $n bench_point_per_process # SKIP already building against KERNEL_SRC"
else
	kf=$(realpath -m "${BUILD:-build/cc}/kfix")
	accumulate_tree "$kf/bench-accumulate-src" &&
	(unset MAKEFLAGS MAKELEVEL MFLAGS
	 make --no-print-directory -j2 KERNEL_SRC="$kf/bench-accumulate-src" \
		BUILD="$kf/bench-accumulate" CC="${CC:-cc}" \
		"$kf/bench-accumulate/bench/hpcc-bench") >"$tmp/kb" 2>&1 &&
	"$kf/bench-accumulate/bench/hpcc-bench" $SMALL --out "$tmp/acc.json" >>"$tmp/kb" 2>&1 &&
	check_rows "$tmp/acc.json" >>"$tmp/kb" 2>&1 &&
	python3 - "$tmp/acc.json" "$kf/bench-accumulate-src" >>"$tmp/kb" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["meta"]["hpcc_source"] == sys.argv[2], d["meta"]["hpcc_source"]
PY
	result $? bench_point_per_process \
		"$(grep -v '^\(cc\|clang\|ar\|rm\|make\|#\) ' "$tmp/kb" | tail -n 3 | tr '\n' ' ')"
fi

# Bad input: exit 2, one line.
bad() {	# NAME CMD...
	local name=$1
	shift
	"$@" >"$tmp/o" 2>"$tmp/e"
	local rc=$? lines
	lines=$(wc -l <"$tmp/e")
	result $([ $rc = 2 ] && [ "$lines" = 1 ]; echo $?) "bad_input_$name" \
		"rc $rc, $lines lines: $(head -n 2 "$tmp/e")"
}
bad sections "$BIN" --sections shape,nope
bad batch "$BIN" --batch 48

[ "$n" = 5 ] || { echo "# $n results, the plan says 5"; failed=1; }
exit $((failed > 0))
