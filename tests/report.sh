#!/usr/bin/env bash
# make report's machinery on tiny sizes (docs/report.md): every producer
# section runs, REPORT.md has sections 1-6 in order with parsable tables,
# spreads, seeds, commit and reproducer lines, the JSON is valid, sections 5
# and 6 come from the compaction producer when there is one, and bad input
# exits 2 with one line. The checker is shown to fire on broken reports.
# No number is asserted: tiny sizes answer nothing.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
BIN=$(realpath "${BUILD:-build/cc}/bench/hpcc-report")
CHECK="python3 $here/tests/report_check.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0
echo "KTAP version 1"
echo "1..22"
result() {	# result RC NAME [DIAG]
	n=$((n + 1))
	[ -n "${3:-}" ] && [ "$1" != 0 ] && printf '# %s\n' "$3"
	if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; failed=$((failed + 1)); fi
}
cd "$here" || exit 1

# A stand-in for bench/compaction/report-section: the interface only.
cat >"$tmp/fake-compaction" <<'EOF'
#!/bin/sh
[ "$1" = --out ] || { echo "fake: bad option" >&2; exit 2; }
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
result $([ "$c" = 2 ]; echo $?) report_compaction_absent_said "count $c"

REPORT_COMPACTION="$tmp/fake-compaction" scripts/report --bin "$BIN" --out "$tmp/c" \
	--tiny >"$tmp/out" 2>&1 && $CHECK "$tmp/c" >"$tmp/chk" 2>&1
rc=$?
order=$(grep '^## ' "$tmp/c/REPORT.md" | cut -c4-5 | tr -d '\n ')
result $([ $rc = 0 ] && [ "$order" = "1.2.3.4.5.6." ] &&
	grep -q '^## 5. Compaction stand-in' "$tmp/c/REPORT.md"; echo $?) \
	report_compaction_sections_copied "rc $rc order $order $(head -n 2 "$tmp/chk")"

# KERNEL_SRC: the judged files' hashes are listed; a program built from
# lib/hpcc is said not to measure the tree.
fx=tests/fixtures/koom/two-pass
REPORT_COMPACTION=/nonexistent scripts/report --bin "$BIN" --out "$tmp/k" --tiny \
	--kernel-src "$fx" >"$tmp/out" 2>&1
rc=$?
h=$(git hash-object "$fx/mm/oom_kill.c")
result $([ $rc = 0 ] && grep -q "^    $h mm/oom_kill.c\$" "$tmp/k/REPORT.md" &&
	grep -q '^WARNING: the measuring program was built from' "$tmp/k/REPORT.md" &&
	grep -q "^Reproduce: make report KERNEL_SRC=$(realpath "$fx") " "$tmp/k/REPORT.md"
	echo $?) report_kernel_src_hashes "rc $rc $(grep -A3 KERNEL_SRC "$tmp/k/REPORT.md")"

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
	result $([ $? = 1 ]; echo $?) "report_check_fires_$1" "$(cat "$tmp/mchk")"
}
mutate order 's/^## 2\./## 7./'
mutate spread '0,/^       8     10 /s/^\(       8     10  *\)\([0-9.e+]*\) [0-9.e+]*-[0-9.e+]*/\1\2/'
mutate width '0,/^    CPUs  procs/s/^    CPUs  procs/    CPUs                                           procs/'
mutate columns '0,/^       8     40 /s/  [0-9.]* [0-9.]*-[0-9.]*\(us\|ms\|s\)\?$//'
mutate commit 's/^Commit /Kommit /'

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
bad report_option scripts/report --bogus
bad report_seeds scripts/report --bin "$BIN" --out "$tmp/x" --seeds 0,a
bad report_reps scripts/report --bin "$BIN" --out "$tmp/x" --reps 1
bad report_bin scripts/report --bin /nonexistent --out "$tmp/x"
bad producer_section "$BIN" --section nope
bad producer_reps "$BIN" --section latency --reps 2
bad producer_seeds "$BIN" --section order --seeds 1,,x
bad producer_option "$BIN" --frobnicate
bad producer_no_section "$BIN" --tiny

# A REPORT.md the script did not write is never overwritten.
mkdir -p "$tmp/user" && echo "my notes" >"$tmp/user/REPORT.md"
bad foreign_report scripts/report --bin "$BIN" --out "$tmp/user" --tiny
result $([ "$(cat "$tmp/user/REPORT.md")" = "my notes" ]; echo $?) foreign_report_kept

[ "$n" = 22 ] || { echo "# $n results, the plan says 22"; failed=1; }
exit $((failed > 0))
