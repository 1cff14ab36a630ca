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
	python3 tests/lib/producer_check.py bench-rows "$1"
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
