#!/usr/bin/env bash
# make report's machinery on tiny sizes (docs/report.md): every producer
# section runs, REPORT.md has sections 1-6 in order with parsable tables,
# spreads, seeds, commit and reproducer lines, the JSON is valid, sections 5
# and 6 come from the compaction producer when there is one, and bad input
# exits 2 with one line. The checker is shown to fire on broken reports.
# No number is asserted: tiny sizes answer nothing. The producer built
# against fixture trees: tests/seam/producer_seam.sh (make check-long).
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
BIN=$(realpath "${BUILD:-build/cc}/bench/hpcc-report")
CHECK="python3 $here/tests/lib/report_check.py"
# shellcheck source=tests/lib/sh/ktap.sh
. "$here/tests/lib/sh/ktap.sh"
ktap_begin
cd "$here" || exit 1
# shellcheck source=tests/lib/sh/producers.sh
. tests/lib/sh/producers.sh

# A stand-in for bench/compaction/report-section: the interface only.
cat >"$tmp/fake-compaction" <<'EOF'
#!/bin/sh
[ "$1" = --out ] || { echo "fake: bad option" >&2; exit 2; }
echo "$*" >"$2/args"
printf '## 5. Compaction stand-in\n\n    a  b\n    -  -\n    1  2\n' >"$2/section5.md"
printf '## 6. Compaction stand-in\n\ntext\n' >"$2/section6.md"
echo '{}' >"$2/compaction.json"
EOF
chmod +x "$tmp/fake-compaction"

REPORT_COMPACTION=/nonexistent scripts/report --bin "$BIN" --out "$tmp/r" --tiny \
	>"$tmp/out" 2>&1
rc=$?
result $rc report_tiny_runs "$(tail -n 3 "$tmp/out")"
$CHECK "$tmp/r" >"$tmp/chk" 2>&1
result $? report_tiny_passes_check "$(head -n 3 "$tmp/chk")"
c=$(grep -c 'producer (/nonexistent) is not present' "$tmp/r/REPORT.md")
result "$([ "$c" = 2 ]; echo $?)" report_compaction_absent_said "count $c"

STRESS=/nonexistent REPORT_COMPACTION="$tmp/fake-compaction" scripts/report --bin "$BIN" \
	--out "$tmp/c" --tiny >"$tmp/out" 2>&1 && $CHECK "$tmp/c" >"$tmp/chk" 2>&1
rc=$?
order=$(grep '^## ' "$tmp/c/REPORT.md" | cut -c4-5 | tr -d '\n ')
result "$([ $rc = 0 ] && [ "$order" = "1.2.3.4.5.6." ] &&
	grep -q '^## 5. Compaction stand-in' "$tmp/c/REPORT.md"; echo $?)" \
	report_compaction_sections_copied "rc $rc order $order $(head -n 2 "$tmp/chk")"

# KERNEL_SRC: the judged files' hashes are listed; a program built from
# lib/hpcc is said not to measure the tree.
fx=tests/seam/fixtures/koom/two-pass
REPORT_COMPACTION="$tmp/fake-compaction" scripts/report --bin "$BIN" --out "$tmp/k" --tiny \
	--kernel-src "$fx" >"$tmp/out" 2>&1
rc=$?
h=$(git hash-object "$fx/mm/oom_kill.c")
result "$([ $rc = 0 ] && grep -q "^    $h mm/oom_kill.c\$" "$tmp/k/REPORT.md" &&
	grep -q '^WARNING: the measuring program was built from' "$tmp/k/REPORT.md" &&
	grep -q "^Reproduce: make report KERNEL_SRC=$(realpath "$fx") " "$tmp/k/REPORT.md"
	echo $?)" report_kernel_src_hashes "rc $rc $(grep -A3 KERNEL_SRC "$tmp/k/REPORT.md")"

# Section 3's concurrent half: oom_race's quiescent shortfall distribution per
# CPU count, from its JSON report; without a ./stress it says so (control).
# Its quiescent points come every 2-5 ms: on a loaded host a run can have
# a kill in progress at each of them, nothing judged, which the report says
# (no verdict, exit 4).
python3 tests/lib/producer_check.py report-concurrent "$tmp/r" >"$tmp/conc" 2>&1
rc=$?
if [ $rc = 4 ]; then
	n=$((n + 1))
	echo "ok $n report_concurrent_distribution # SKIP $(tail -n 1 "$tmp/conc")"
else
	result $rc report_concurrent_distribution "$(tail -n 2 "$tmp/conc")"
fi
# What such a run's report.json says (16 CPUs: a kill at each of 3 points):
# the rendered report says so, the checker gives no verdict, never a pass
# (the run's own 8-CPU point may be unjudged too: "at 8, 16 CPUs").
cp -r "$tmp/r" "$tmp/p"
jq '.oom.imprecision.concurrent.points[1] |=
	(.quiescent_points = 3 | .judged_points = 0 | .shortfall |= {recorded_max})' \
	"$tmp/r/report.json" >"$tmp/p/report.json" && scripts/report --render "$tmp/p" >/dev/null 2>&1
python3 tests/lib/producer_check.py report-concurrent "$tmp/p" >"$tmp/conc" 2>&1
rc=$?
result "$([ $rc = 4 ] && grep -q '^no verdict: .*\(at\|,\) 16 CPUs$' "$tmp/conc" &&
	grep -q '^Not measured: 16 CPUs: a kill was in progress at each of its 3 ' \
		"$tmp/p/REPORT.md"; echo $?)" report_concurrent_unjudged_no_verdict \
	"rc $rc $(tail -n 2 "$tmp/conc"; grep -A1 'Not measured: 16' "$tmp/p/REPORT.md")"
c=$(grep -c '^Concurrent churn: not measured (no /nonexistent)' "$tmp/c/REPORT.md")
result "$([ "$c" = 1 ] && ! grep -q 'Concurrent churn: not measured' "$tmp/r/REPORT.md"; echo $?)" \
	report_concurrent_absent_said "count $c"

# Sections 5 and 6 are given the tree (the run without one is the control).
result "$(grep -q -- "--kernel-src $fx\$" "$tmp/k/compaction/args" &&
	! grep -q -- --kernel-src "$tmp/c/compaction/args"; echo $?)" \
	report_compaction_gets_kernel_src "$(cat "$tmp/k/compaction/args" "$tmp/c/compaction/args")"

# A tree's own selection: its column is marked and timed beside the model's
# twin. The producer's JSON is made to say so (a KERNEL_SRC build costs too
# much here; tests/seam/koom_seam.sh runs that build); the model-only render is
# the control.
cp -r "$tmp/k" "$tmp/t"
python3 tests/lib/report_tree_twin.py "$tmp/t/report.json"
scripts/report --render "$tmp/t" >/dev/null 2>&1
rc=$?
result "$([ $rc = 0 ] && grep -q '^    CPUs  procs .* v16 (tree)\( \|$\)' "$tmp/t/REPORT.md" &&
	grep -q '^    CPUs  procs .*tree v16' "$tmp/t/REPORT.md" &&
	grep -q '^    CPUs  procs .*tree/model$' "$tmp/t/REPORT.md" &&
	[ "$(grep -c '^Implementations: .*v16: kernel$' "$tmp/t/REPORT.md")" = 3 ] &&
	$CHECK "$tmp/t" >/dev/null 2>&1; echo $?)" report_tree_columns_named \
	"rc $rc $(grep -n 'Implementations\|tree' "$tmp/t/REPORT.md" | head -5)"
result "$(! grep -q '(tree)\|tree/model' "$tmp/k/REPORT.md" &&
	grep -q '^Implementations: .*v16: model' "$tmp/k/REPORT.md"; echo $?)" \
	report_model_columns_unmarked

# A tree of an older API (int values, tests/seam/fixtures/ktrees/int-items): the
# build refuses it, so make report falls back to the model's producer, runs
# to the end without ./stress or frag-bench, and every section says what the
# tree's API leaves unmeasured (tests/seam/producer_seam.sh runs that make). The
# long-API report ($tmp/k) is the control.
ki=tests/seam/fixtures/ktrees/int-items
STRESS="${BUILD:-build/cc}/stress" REPORT_COMPACTION="$tmp/fake-compaction" \
	scripts/report --bin "$BIN" --out "$tmp/i" --tiny --kernel-src "$ki" \
	--api-refused "precise_sum() returns int" >"$tmp/out" 2>&1
rc=$?
result "$([ $rc = 0 ] && report_said_int "$tmp/i" && ! grep -q "this tree's API" "$tmp/k/REPORT.md"
	echo $?)" report_int_api_said "rc $rc $(grep -i "tree's api" "$tmp/i/REPORT.md" | head -n 2)"

c=$(grep -c "^Window code: 'window pages' is model lib/hpcc\( \|$\)" "$tmp/r/REPORT.md")
result "$([ "$c" = 1 ]; echo $?)" report_window_code_named "count $c"

# --render re-renders from report.json alone, byte for byte.
cp "$tmp/r/REPORT.md" "$tmp/before.md"
scripts/report --render "$tmp/r" >/dev/null 2>&1 && cmp -s "$tmp/before.md" "$tmp/r/REPORT.md"
result $? report_render_reproducible

# The checker fires: sections out of order, a spread dropped, a wide table,
# a table row short of a column, no commit line.
mutate() {	# NAME SED-SCRIPT
	rm -rf "$tmp/m" && cp -r "$tmp/r" "$tmp/m" && sed -i "$2" "$tmp/m/REPORT.md"
	if cmp -s "$tmp/r/REPORT.md" "$tmp/m/REPORT.md"; then	# the layout moved under it
		result 1 "report_check_fires_$1" "the mutation changed nothing"
		return
	fi
	$CHECK "$tmp/m" >"$tmp/mchk" 2>&1
	result "$([ $? = 1 ]; echo $?)" "report_check_fires_$1" "$(cat "$tmp/mchk")"
}
mutate order 's/^## 2\./## 7./'
mutate spread '0,/^       8     10 /s/^\(       8     10  *\)\([0-9.e+]*\) [0-9.e+]*-[0-9.e+]*/\1\2/'
mutate width '0,/^    CPUs  procs/s/^    CPUs  procs/    CPUs                                           procs/'
mutate columns '0,/^       8     40 /s/  [0-9.]* [0-9.]*-[0-9.]*\(us\|ms\|s\)\?$//'
mutate commit 's/^Commit /Kommit /'

# Bad input: exit 2, one line.
bad_input report_option scripts/report --bogus
bad_input report_seeds scripts/report --bin "$BIN" --out "$tmp/x" --seeds 0,a
bad_input report_reps scripts/report --bin "$BIN" --out "$tmp/x" --reps 1
bad_input report_bin scripts/report --bin /nonexistent --out "$tmp/x"
bad_input report_window_bin scripts/report --bin "$BIN" --out "$tmp/x" --window-bin "$BIN"
# Checked first: with the check gone the run stops at --bin, not at it.
REPORT_COMMIT=1a7c7 scripts/report --bin /nonexistent --out "$tmp/x" >/dev/null 2>"$tmp/e"
rc=$?
result "$([ $rc = 2 ] && [ "$(wc -l <"$tmp/e")" = 1 ] &&
	grep -q "bad REPORT_COMMIT '1a7c7'" "$tmp/e"; echo $?)" bad_input_report_commit \
	"rc $rc: $(head -n 2 "$tmp/e")"
bad_input producer_section "$BIN" --section nope
bad_input producer_reps "$BIN" --section latency --reps 2
bad_input producer_seeds "$BIN" --section order --seeds 1,,x
bad_input producer_option "$BIN" --frobnicate
bad_input producer_no_section "$BIN" --tiny

# A REPORT.md the script did not write is never overwritten.
mkdir -p "$tmp/user" && echo "my notes" >"$tmp/user/REPORT.md"
bad_input foreign_report scripts/report --bin "$BIN" --out "$tmp/user" --tiny
result "$([ "$(cat "$tmp/user/REPORT.md")" = "my notes" ]; echo $?)" foreign_report_kept

[ "$n" = 32 ] || { echo "# $n results, the plan says 32"; failed=1; }
exit $((failed > 0))
