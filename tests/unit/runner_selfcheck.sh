#!/usr/bin/env bash
# scripts/run-tests against fake programs: a pass, a failed case with exit
# 0, a short plan, silence, a crash and a hang must each fail their test,
# the repaired document must be valid KTAP (tests/lib/ktap_validate.py) and
# its "# Totals:" line must count as the kernel's kunit_parser counts
# (leaves; unreported planned cases fail; a failed program whose cases
# passed counts one more failure), and a unit binary's case that never
# returns must be stopped at the case limit, not the program's. KTAP on stdout.
set -u
bad=0
root=$(cd "$(dirname "$0")/../.." && pwd)
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
echo "KTAP version 1"
n=0
mk() {
	printf '#!/bin/sh\n%s\n' "$2" >"$d/$1"
	chmod +x "$d/$1"
}
mk good 'echo "KTAP version 1"; echo 1..2; echo "ok 1 a"; echo "ok 2 b # SKIP x"'
mk notok0 'echo 1..2; echo "ok 1 a"; echo "not ok 2 b"; exit 0'
mk short 'echo 1..3; echo "ok 1 a"; exit 0'
mk silent 'exit 0'
mk crash 'echo "ok 1 a"; kill -SEGV $$'
mk hang 'echo "ok 1 a"; exec sleep 30'
check() {	# check RC NAME: numbered as the cases run
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		bad=1
	fi
}
out=$(TEST_TIMEOUT=2 "$root/scripts/run-tests" "$d/good" "$d/notok0" "$d/short" \
	"$d/silent" "$d/crash" "$d/hang" 2>/dev/null)
rc=$?
lines=$(printf '%s\n' "$out" | grep -E '^(not )?ok [0-9]+ ' | tr '\n' '|')
want='ok 1 good|not ok 2 notok0|not ok 3 short|'
want+='not ok 4 silent # ERROR no test result; exit status 0|'
want+='not ok 5 crash # ERROR killed by signal 11 (Segmentation fault)|'
want+='not ok 6 hang # TIMEOUT timed out after 2s|'
[ "$lines" = "$want" ] || echo "# got: $lines"
[ "$lines" = "$want" ]
check $? runner_verdict_per_program
# The short program's unreported cases are failed results of their own.
printf '%s\n' "$out" | grep -qx '  not ok 3 case_3 # ERROR not reported: exit status 0'
check $? runner_reports_unreported_cases
# good 1 pass + 1 skip; notok0 1 pass 1 fail; short 1 pass 2 fail; silent 1 fail;
# crash 1 pass + 1 (the failed program); hang 1 pass + 1.
total=$(printf '%s\n' "$out" | tail -n 1)
want_total="# Totals: pass:5 fail:6 skip:1 total:12 contract:0 wrong-answer:1 crash:5"
[ "$total" = "$want_total" ] || echo "# got: $total"
[ "$total" = "$want_total" ]
check $? runner_totals
printf '%s\n' "$out" >"$d/out.ktap"
python3 "$root/tests/lib/ktap_validate.py" --totals --expect 5,6,1 "$d/out.ktap" >"$d/why"
rc2=$?
[ $rc2 = 0 ] || sed 's/^/# /' "$d/why"
check $rc2 runner_output_is_valid_ktap
if [ $rc -ne 0 ] && TEST_TIMEOUT=2 "$root/scripts/run-tests" "$d/good" >/dev/null 2>&1; then
	check 0 runner_exit_status
else
	echo "# exit status $rc with failures, or non-zero for a clean run"
	check 1 runner_exit_status
fi
# --jobs: the programs run at once, the document is the serial one.
par=$(TEST_TIMEOUT=2 "$root/scripts/run-tests" --jobs 4 "$d/good" "$d/notok0" "$d/short" \
	"$d/silent" "$d/crash" "$d/hang" 2>/dev/null)
[ "$par" = "$out" ] || diff <(printf '%s\n' "$out") <(printf '%s\n' "$par") | sed 's/^/# /'
[ "$par" = "$out" ]
check $? runner_jobs_same_document
"$root/scripts/run-tests" --jobs 0 "$d/good" >/dev/null 2>"$d/err"
rc3=$?
[ $rc3 = 2 ] && [ "$(wc -l <"$d/err")" = 1 ]
check $? runner_jobs_bad_value
# --order: the programs start longest CPU time first (one unrecorded: before
# them), the document keeps the command line's order, and the file then
# holds this run's times and the lines of programs it did not run.
for p in fast slow new; do
	mk "$p" "echo $p >>'$d/started'; echo 1..1; echo 'ok 1 a'"
done
printf 'fast 9.00 0.10\nslow 1.00 5.00\ngone 2.00 3.00\nfast 1.00 0.20\n' >"$d/order"
ord=$("$root/scripts/run-tests" --order "$d/order" "$d/fast" "$d/slow" "$d/new" 2>&1)
started=$(tr '\n' ' ' <"$d/started")
doc=$(printf '%s\n' "$ord" | grep -E '^ok [0-9]+ ' | tr '\n' '|')
kept=$(cut -d' ' -f1 "$d/order" | tr '\n' ' ')
[ "$started" = "new slow fast " ] && [ "$doc" = 'ok 1 fast|ok 2 slow|ok 3 new|' ] &&
	[ "$kept" = "fast slow new gone " ]
rc5=$?
[ $rc5 = 0 ] || echo "# started: $started; document: $doc; file: $kept"
check $rc5 runner_order_longest_first
# A case that never returns (KT_HANG_CASE) fails alone at the case limit
# the runner derives from the program's (30 s: 5 s), the next case runs.
# A program whose cases take milliseconds: under a sanitizer at load, the
# next case itself must end well inside those 5 s.
bin=${BUILD:-$root/build/cc}/tests/test_stress_verdict
printf '#!/bin/sh\n[ "$1" = --list ] && exec "%s" --list\n' "$bin" >"$d/test_hang_case"
printf 'KT_HANG_CASE=verdict_formats_agree exec "%s"\n' "$bin" >>"$d/test_hang_case"
chmod +x "$d/test_hang_case"
hc=$(env -u KT_CASE_TIMEOUT TEST_TIMEOUT=30 "$root/scripts/run-tests" "$d/test_hang_case" 2>/dev/null)
printf '%s\n' "$hc" | grep -q 'verdict_formats_agree: timed out (KT_CASE_TIMEOUT)' &&
	printf '%s\n' "$hc" | grep -qx '  not ok 1 verdict_formats_agree' &&
	printf '%s\n' "$hc" | grep -q '^  ok 2 unavailable_is_skip' &&
	! printf '%s\n' "$hc" | grep -q 'TIMEOUT timed out'
rc4=$?
[ $rc4 = 0 ] || printf '%s\n' "$hc" | sed 's/^/# /'
check $rc4 runner_case_limit
exit $bad
