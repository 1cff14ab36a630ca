#!/usr/bin/env bash
# make report's REPLY.txt (docs/report.md): rendered from a small fixture
# report.json (tests/seam/fixtures/report, a tiny run's data; the 3.5-minute
# report is not run here), it passes tests/lib/reply_check.py: 72 columns,
# six quoted questions, short answers saying model or kernel, every number
# traceable to report.json, and the plot data written beside it has no
# empty series. The checker is shown to fire on each defect.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/sh/common.sh
. "$here/tests/lib/sh/common.sh"
n=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$here" || exit 1
CHECK="python3 $here/tests/lib/reply_check.py"
echo "KTAP version 1"
echo "1..21"

# The renders and the checks that read report.json run in one Python
# process (tests/lib/report_reply.py): one line per check, NAME RC WHY.
python3 tests/lib/report_reply.py tests/seam/fixtures/report/report.json "$tmp" \
	>"$tmp/res" 2>&1
verdict() {	# NAME: the helper's verdict on check NAME
	local line
	line=$(grep "^$1 " "$tmp/res")
	[ -n "$line" ] || line="$1 1 no verdict: $(tail -3 "$tmp/res")"
	line=${line#"$1 "}
	result "${line%% *}" "$1" "${line#* }"
}
verdict reply_rendered

# Section 1's percpu_counter 'before', kernel threads and writer, section
# 4's layout, section 5's calibration and section 6's sweep and limit over
# time reach REPORT.md, REPLY.txt and the plot data.
miss=
for want in "REPLY.txt:one pass of percpu_counter_sum()" \
	    "REPLY.txt:kernel threads in the list" "REPLY.txt:With a writer charging" \
	    "REPLY.txt:straddle a cache line" "REPORT.md:### Kernel threads in the task list" \
	    "REPORT.md:### Layout: blocks that straddle" "latency.dat:# percpu_counter " \
	    "exact.dat:hpcc blocks line-aligned" "REPLY.txt:Calibrated off the ceiling" \
	    "REPLY.txt:Calibrated with P5 intended" "REPLY.txt:Swept, 9 points" \
	    "REPLY.txt:The limit over time" "REPORT.md:Calibrated off the ceiling" \
	    "limit.dat:# 2x, 1/8, candidates regenerate" "sweep.dat:# 4x, 1/32" \
	    "REPLY.txt:seeds 1,2,3 (min-max over points and seeds)"; do
	# Prose is wrapped at 72 columns: read each file as one line.
	tr '\n' ' ' <"$tmp/r/${want%%:*}" | grep -qF -- "${want#*:}" ||
		miss+="${want%%:*} lacks '${want#*:}'; "
done
result "$([ -z "$miss" ]; echo $?)" reply_latency_conditions_and_layout "$miss"

# Q6's sweep in REPLY.txt spans every point on every seed of report.json.
want=$(cat "$tmp/sweep-want" 2>/dev/null)
[ -n "$want" ] && tr '\n' ' ' <"$tmp/r/REPLY.txt" | tr -s ' ' | grep -qF -- "$want"
result $? reply_sweep_spans_seeds "REPLY.txt lacks '$want'"

# Which counter code the columns ran, with a tree: its own files, or
# lib/hpcc's laid out in its place (the report must not call those the
# tree's; rendered once, the latter). meta() tells the two apart by the
# files' git blobs.
tr '\n' ' ' <"$tmp/kcopy/REPLY.txt" | grep -qF "Counters: lib/hpcc's percpu_counter_tree.c (the model);" &&
	tr '\n' ' ' <"$tmp/kcopy/REPORT.md" | grep -q "WARNING: this tree's lib/percpu_counter_tree.c and .* are lib/hpcc's own files" &&
	[ "$(grep -c "^Counter code: every hpcc column" "$tmp/kcopy/REPORT.md")" = 4 ]
result $? report_counter_code_tree_is_lib_hpcc "$(head -4 "$tmp/kcopy/REPLY.txt")"
verdict report_counter_code_tree_own_and_lib_hpcc_detected
# The percpu_counter column: the tree's own file only when the producer
# was built from it; another tree's named as such; else our model.
verdict report_pcpu_code_names_the_trees_file

# Each defect planted in a copy of its own; one checker run judges them all.
plants=(wide untraced untraced6 untagged long order emptyplot limitshort nolimit sweepnarrow
	nosweep gnuplotfail)
plant() {	# NAME SED-SCRIPT
	cp -r "$tmp/r" "$tmp/$1"
	sed -i "$2" "$tmp/$1/REPLY.txt"
}
plant wide '0,/^\[model\]/s/^\[model\] /[model] ........................................................................ /'
plant untraced '0,/^\[model\]/s/^\[model\] /[model] 12345.6 /'
plant untraced6 's/^Swept, 9 points/Swept, 12345.6/'
plant untagged 's/\[model\] //; s/\[kernel\] //; s/Not measured/Not run/'
plant long '/^> 2\./{n;s/^$/\na\na\na\na\na\na\na\na\na\na\na\na\na\na\na\na\na\na\na\na\na\na\na\na\na/}'
plant order 's/^> 1\./> 7./'
plant emptyplot ''
sed -i '/^# v16 max batch/,/^$/{/^[0-9]/d}' "$tmp/emptyplot/imprecision.dat"
plant limitshort ''
sed -i '/^# 2x, 1\/8, candidates regenerate/{n;d}' "$tmp/limitshort/limit.dat"
plant nolimit ''
rm "$tmp/nolimit/limit.dat"
plant sweepnarrow ''
# One point's loss shown as its median alone, without the seeds' spread.
awk '/^# 1x, 1\/2$/ { print; getline; $5 = $2; $6 = $2 } { print }' "$tmp/r/sweep.dat" \
	>"$tmp/sweepnarrow/sweep.dat"
plant nosweep ''
rm "$tmp/nosweep/sweep.dat"
# gnuplotfail: the helper's copy, its report.json noting a failed gnuplot.
$CHECK "$tmp/r" "${plants[@]/#/$tmp/}" >"$tmp/chk" 2>&1
grep -qx "$tmp/r: ok" "$tmp/chk"
result $? reply_and_plots_pass_check "$(cat "$tmp/chk")"
for p in "${plants[@]}"; do
	line=$(grep "^$tmp/$p: " "$tmp/chk")
	result "$([ -n "$line" ] && [ "$line" != "$tmp/$p: ok" ]; echo $?)" \
		"reply_check_fires_$p" "checker: ${line:-no line}"
done

# hpcc-report --rss-file: bad input is one line and exit 2, before any run.
BIN=${BUILD:-build/cc}/bench/hpcc-report
printf '12\nabc\n' >"$tmp/rss-bad"
for f in /nonexistent "$tmp/rss-bad"; do
	"$BIN" --section imprecision --tiny --rss-file "$f" >"$tmp/o" 2>"$tmp/e"
	rc=$?
	result "$([ $rc = 2 ] && [ "$(wc -l <"$tmp/e")" = 1 ] && [ ! -s "$tmp/o" ]; echo $?)" \
		"bad_input_rss_file_${f##*/}" "rc $rc: $(cat "$tmp/e")"
done
[ "$failed" = 0 ]
