# shellcheck shell=bash
# Checks shared by the bench and report producers' tests (tests/regress/bench.sh,
# tests/regress/report.sh) and their fixture-tree builds (tests/seam/producer_seam.sh).
# Sourced from the repository's top.

# hpcc-bench's small sweeps: add and add_oversub at 2 and 8 CPUs, read at 1,
# 8 and 64, accuracy and memory at 1..64, the OOM section at 40 and 400 tasks.
# shellcheck disable=SC2034 # read by the scripts that source this file
BENCH_SMALL="--quick --reps 5 --target-ms 1 --max-cpus 64 --max-add-cpus 8"

# bench_rows FILE: the JSON's rows, one per CPU count of every sweep, in
# order, and every accuracy row's library range equal to lib/shape's.
bench_rows() {
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

# report_said_int DIR: a report on a tree of an older API (int values): the
# model's numbers marked, nothing of the tree's claimed, and the checker
# (tests/lib/report_check.py) passes it.
report_said_int() {
	[ "$(grep -c "^Not measured on this tree's API" "$1/REPORT.md")" = 6 ] &&
	grep -q "^Concurrent churn: not measured on this tree's API" "$1/REPORT.md" &&
	grep -q "^NOT THIS TREE'S COUNTER: the producer cannot be built against" "$1/REPORT.md" &&
	! grep -q '^WARNING: the measuring program' "$1/REPORT.md" &&
	! ls "$1"/oom-race-*.json >/dev/null 2>&1 && [ ! -e "$1/compaction" ] &&
	python3 tests/lib/report_check.py "$1" >/dev/null 2>&1
}
