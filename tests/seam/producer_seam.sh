#!/usr/bin/env bash
# tier: long
# The bench and report producers built against fixture kernel trees (the
# long tier: each case builds a producer again, make check-long):
#  - each CPU count (hpcc-bench) and each point (hpcc-report) boots the
#    counter in a process of its own: on lib/hpcc laid out as a tree whose
#    percpu_counter_tree_subsystem_init() adds to static state
#    (tests/seam/fixtures/ktrees/accumulate.patch), booting 1, 2 then 4 CPUs in
#    one process would give the 4-CPU counters all three topologies'
#    accuracy, and the producers' own checks would fail. Every section runs
#    on it: one that booted twice in one process would be refused;
#    both producers come from one build of that tree (one build
#    directory: the second build compiles only its own program);
#  - the report's percpu_counter column is the tree's own
#    lib/percpu_counter.c when the tree has one: that tree also holds a
#    percpu_counter of ours (tests/seam/fixtures/ktrees/pcc), named as the
#    column's code in every section that times it; with its sum made to
#    leave out the folded count, the exact section's maxima disagree and
#    hpcc-report fails (the column runs the tree's code, not the model's);
#  - make report on a tree of an older API (int values,
#    tests/seam/fixtures/ktrees/int-items) falls back to the model's producer and
#    says what the tree's API leaves unmeasured; section 3's window is the
#    tree's own, through the adapter.
# Env: BUILD (default build/cc), CC. KTAP on stdout.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/sh/common.sh
. tests/lib/sh/accumulate.sh
. tests/lib/sh/producers.sh
echo "KTAP version 1"
skip_under_kernel_src fixture_trees
echo "1..4"
n=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset MAKEFLAGS MAKELEVEL MFLAGS
kf=$(realpath -m "${BUILD:-build/cc}/kfix")

ks=$kf/accumulate-src kb=$kf/accumulate acc=
accumulate_tree "$ks" && cp -R tests/seam/fixtures/ktrees/pcc/. "$ks/" && acc=1
[ -n "$acc" ] &&
make --no-print-directory -j2 KERNEL_SRC="$ks" BUILD="$kb" CC="${CC:-cc}" \
	"$kb/bench/hpcc-bench" >"$tmp/kb" 2>&1 &&
"$kb/bench/hpcc-bench" $BENCH_SMALL --out "$tmp/acc.json" >>"$tmp/kb" 2>&1 &&
bench_rows "$tmp/acc.json" >>"$tmp/kb" 2>&1 &&
python3 tests/lib/producer_check.py bench-source "$tmp/acc.json" "$ks" >>"$tmp/kb" 2>&1
result $? bench_point_per_process \
	"$(grep -v '^\(cc\|clang\|ar\|rm\|make\|#\) ' "$tmp/kb" | tail -n 3 | tr '\n' ' ')"

kfail=build
[ -n "$acc" ] &&
make --no-print-directory -j2 KERNEL_SRC="$ks" BUILD="$kb" CC="${CC:-cc}" \
	"$kb/bench/hpcc-report" >"$tmp/kb" 2>&1 && kfail=
[ -z "$kfail" ] &&
for s in latency order imprecision exact; do	# a second boot is refused
	"$kb/bench/hpcc-report" --tiny --section $s \
		--out "$tmp/acc-$s.json" >>"$tmp/kb" 2>&1 || { kfail=$s; break; }
done
[ -z "$kfail" ] &&
	python3 tests/lib/producer_check.py report-window "$tmp" "$ks" >>"$tmp/kb" 2>&1 &&
	python3 tests/lib/producer_check.py report-pcpu "$tmp" "$ks" >>"$tmp/kb" 2>&1
result $? report_point_per_process \
	"$(grep -v '^\(cc\|clang\|ar\|rm\|make\) ' "$tmp/kb" | tail -n 3 | tr '\n' ' ')"

# The same build with the tree's sum broken: only its two objects change.
rc=1
[ -z "$kfail" ] &&
sed -i 's/^\ttotal = fbc->count;$/\ttotal = 0;/' "$ks/lib/percpu_counter.c" &&
! grep -q 'total = fbc->count' "$ks/lib/percpu_counter.c" &&
make --no-print-directory -j2 KERNEL_SRC="$ks" BUILD="$kb" CC="${CC:-cc}" \
	"$kb/bench/hpcc-report" >"$tmp/kp" 2>&1 && rc=0
[ $rc = 0 ] && "$kb/bench/hpcc-report" --tiny --section exact \
	--out "$tmp/broken.json" >>"$tmp/kp" 2>&1 && rc=1
result "$([ $rc = 0 ] && grep -q 'maxima disagree' "$tmp/kp"; echo $?)" \
	report_pcpu_runs_the_trees_code "$(tail -n 2 "$tmp/kp" | tr '\n' ' ' | cut -c1-200)"

ki=tests/seam/fixtures/ktrees/int-items
make --no-print-directory -j2 report KERNEL_SRC="$ki" BUILD="$kf/report-int" \
	CC="${CC:-cc}" REPORT_DIR="$tmp/im" REPORT_ARGS=--tiny >"$tmp/ib" 2>&1
rc=$?
python3 tests/lib/producer_check.py report-int-window "$tmp/im/report.json" >>"$tmp/ib" 2>&1
wrc=$?
result "$([ $rc = 0 ] && [ $wrc = 0 ] && report_said_int "$tmp/im" &&
	grep -q "NOT THIS TREE'S COUNTER: [^.]*(percpu_counter_tree_precise_sum() present" \
		<(tr '\n' ' ' <"$tmp/im/REPORT.md" | sed 's/  */ /g'); echo $?)" \
	report_int_tree_make \
	"rc $rc $(grep -v '^\(cc\|clang\|ar\|rm\|make\) ' "$tmp/ib" | tail -n 2 | cut -c1-200)"

[ "$n" = 4 ] || { echo "# $n results, the plan says 4"; failed=1; }
exit $((failed > 0))
