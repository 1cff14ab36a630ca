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
echo "1..20"

mkdir -p "$tmp/r"
cp tests/seam/fixtures/report/report.json "$tmp/r/"
scripts/report --render "$tmp/r" >"$tmp/out" 2>&1
result $? reply_rendered "$(cat "$tmp/out")"

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
want=$(python3 - "$tmp/r/report.json" <<'PY'
import json, sys
sw = json.load(open(sys.argv[1]))["compaction"]["data"]["section6"]["sweep"]
def r(v, f):
    lo, hi = f % (round(min(v), 1) + 0.0), f % (round(max(v), 1) + 0.0)
    return lo if lo == hi else lo + " to " + hi
print("loss %s points, cut %s;" % (r([x for p in sw for x in p["loss_points"]], "%.1f"),
                                  r([x for p in sw for x in p["cut"]], "%.1fx")))
PY
)
tr '\n' ' ' <"$tmp/r/REPLY.txt" | tr -s ' ' | grep -qF -- "$want"
result $? reply_sweep_spans_seeds "REPLY.txt lacks '$want'"

# Which counter code the columns ran, with a tree: its own files, or
# lib/hpcc's laid out in its place (the report must not call those the
# tree's; rendered once, the latter). meta() tells the two apart by the
# files' git blobs.
mkdir -p "$tmp/kcopy" "$tmp/kt/lib" "$tmp/kt/include/linux"
json_set "$tmp/r/report.json" "$tmp/kcopy/report.json" \
	'meta.kernel_src={"path": "/k", "commit": null, "files": {}, "counter_is_lib_hpcc": true}' \
	'oom.latency.hpcc_source="/k"'
scripts/report --render "$tmp/kcopy" >/dev/null 2>&1
tr '\n' ' ' <"$tmp/kcopy/REPLY.txt" | grep -qF "Counters: lib/hpcc's percpu_counter_tree.c (the model);" &&
	tr '\n' ' ' <"$tmp/kcopy/REPORT.md" | grep -q "WARNING: this tree's lib/percpu_counter_tree.c and .* are lib/hpcc's own files" &&
	[ "$(grep -c "^Counter code: every hpcc column" "$tmp/kcopy/REPORT.md")" = 4 ]
result $? report_counter_code_tree_is_lib_hpcc "$(head -4 "$tmp/kcopy/REPLY.txt")"
cp lib/hpcc/percpu_counter_tree.c "$tmp/kt/lib/"
cp lib/hpcc/include/linux/percpu_counter_tree.h "$tmp/kt/include/linux/"
python3 - "$tmp/kt" "$tmp/kcopy/report.json" <<'PY'
import importlib.machinery, importlib.util, json, os, subprocess, sys
ld = importlib.machinery.SourceFileLoader("report", "scripts/report")
rep = importlib.util.module_from_spec(importlib.util.spec_from_loader("report", ld))
ld.exec_module(rep)
doc = json.load(open(sys.argv[2]))
doc["meta"]["kernel_src"]["counter_is_lib_hpcc"] = False
own = "the tree's own lib/percpu_counter_tree.c and include/linux/percpu_counter_tree.h"
assert rep.counter_code(doc) == own, rep.counter_code(doc)
assert own in rep.counter_lines(doc, "latency")[0], rep.counter_lines(doc, "latency")
def blobs():
    return {f: subprocess.run(["git", "hash-object", os.path.join(sys.argv[1], f)],
                              capture_output=True, text=True).stdout.strip() for f in rep.JUDGED[:2]}
assert rep.counter_is_lib_hpcc(blobs()), "lib/hpcc's files not recognised"
with open(os.path.join(sys.argv[1], rep.JUDGED[0]), "a") as f:
    f.write("/* a tree's own */\n")
assert not rep.counter_is_lib_hpcc(blobs()), "a changed counter file taken for lib/hpcc's"
PY
result $? report_counter_code_tree_own_and_lib_hpcc_detected

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
plant gnuplotfail ''
json_set "$tmp/gnuplotfail/report.json" "$tmp/gnuplotfail/report.json" 'plots_note="gnuplot failed: line 0"'
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
