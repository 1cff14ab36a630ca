#!/usr/bin/env bash
# scripts/stress-verdicts, the reader of ./stress's verdicts for
# scripts/kernel-judge, on JSON reports ./stress writes here: a PASS, a FAIL
# (its invariant and class), an INCOMPLETE (the watchdog finds the host
# starving the run: a record "INCOMPLETE", exit 4, never dropped or a pass),
# a scenario the report names but never ran ("none"), a missing and a
# malformed report ("stress - none", exit 4), a record whose text could
# break the tab-separated file, and a ./stress a signal stopped before its
# report (a stand-in that prints a failure line and aborts, as glibc does
# on a heap the tree corrupted): a FAIL of class crash naming the signal
# and the failure line, a SIGSEGV with no line one too, a SIGKILL (sent
# from outside) no verdict, and a report that was written wins over the
# status. kernel-judge runs ./stress by scripts/kernel-lib.sh's run_to: of
# the stand-in that aborts, its status and output kept, and no line of
# bash's on stderr ("line N: PID Aborted ...", the build's paths in it).
# KTAP on stdout.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
sv=$here/../scripts/stress-verdicts
# shellcheck source=tests/lib/sh/common.sh
. "$here/lib/sh/common.sh"
test_begin
echo "KTAP version 1"
echo "1..9"
st() {	# st JSON OUT ARGS...: the selftest scenario, its exit status echoed
	local j=$1 o=$2
	shift 2
	STRESS_SELFTEST=1 "$STRESS" --scenario selftest --cpus 2 --stat-interval 0 --seed 1 \
		--json "$j" "$@" >"$o" 2>&1
}

st pass.json pass.out --duration 0.1s
out=$("$sv" pass.json pass.out)
rc=$?
[ $rc = 0 ] && [ "$out" = "$(printf 'stress\tselftest\tPASS\t-')" ]
result $? pass "exit $rc: $out"

st fail.json fail.out --duration 2s --selftest-fail-after 100
out=$("$sv" fail.json fail.out)
rc=$?
[ $rc = 1 ] && [ "$out" = "$(printf 'stress\tselftest\tFAIL\tselftest, wrong-answer')" ]
result $? fail_invariant_and_class "exit $rc: $out"

st inc.json inc.out --selftest-hang step --selftest-starved --stall-timeout 100ms --duration 0
src=$?
out=$("$sv" inc.json inc.out)
rc=$?
[ $src = 4 ] && [ $rc = 4 ] && [ "$out" = "$(printf 'stress\tselftest\tINCOMPLETE\t-')" ]
result $? incomplete_is_a_record_exit_4 "stress exit $src, exit $rc: $out"

# The report asks for two scenarios and has one run: the other is "none".
json_set pass.json two.json 'config.scenarios=["selftest", "oom_race"]'
out=$("$sv" two.json)
rc=$?
[ $rc = 4 ] && [ "$(printf '%s\n' "$out" | cut -f2,3 | tr '\t\n' ' ')" = "selftest PASS oom_race none " ]
result $? asked_but_not_run_is_none "exit $rc: $out"

out1=$("$sv" nosuch.json)
rc1=$?
head -c 100 pass.json >cut.json
out2=$("$sv" cut.json)
rc2=$?
echo '{"tool": "other", "runs": [], "config": {}}' >other.json
out3=$("$sv" other.json)
rc3=$?
[ "$rc1$rc2$rc3" = 444 ] && [[ $out1 == $'stress\t-\tnone\tno JSON report nosuch.json' ]] &&
	[[ $out2 == $'stress\t-\tnone\tunreadable JSON report cut.json:'* ]] &&
	[[ $out3 == $'stress\t-\tnone\tother.json is not a ./stress report' ]]
result $? missing_or_malformed_report_is_none "$rc1$rc2$rc3: $out1 | $out2 | $out3"

# A FAIL whose invariant holds a tab and a newline: still one record of four fields.
json_set fail.json evil.json 'runs.0.failures.0.invariant="a\tb\nc\u001b[2J"'
out=$("$sv" evil.json)
rc=$?
[ $rc = 1 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] &&
	[ "$(printf '%s\n' "$out" | awk -F'\t' '{ print NF }')" = 4 ] && [[ $out != *$'\x1b'* ]]
result $? record_fields_sanitized "exit $rc: $out"

# kill_run SIG [LINE]: a stand-in ./stress that prints LINE, then is
# stopped by SIG, run as scripts/kernel-judge runs it; its output kept in
# SIG.out, its status echoed.
kill_run() {
	printf '#!/bin/sh\n%s\nkill -%s $$\n' "${2:+echo '$2' >&2}" "$1" >fake-stress
	chmod +x fake-stress
	{ ./fake-stress >"$1.out" 2>&1; } 2>/dev/null
	echo $?
}
ulimit -c 0
line='stress: counter_storm: invariant approx_window failed (class wrong-answer, cpu -1): approximate_sum is 7 off'
abrt=$(kill_run ABRT "$line") segv=$(kill_run SEGV) kill=$(kill_run KILL "$line")
# Each run's exit status and record, a line apiece (one Python start).
got=$(python3 -B "$here/lib/stress_verdicts_runs.py" "$sv" "$abrt" "$segv" "$kill")
want=$'1\tstress\tcounter_storm\tFAIL\tkilled by SIGABRT, crash; printed before: approx_window, wrong-answer\n'
want+=$'1\tstress\t-\tFAIL\tkilled by SIGSEGV, crash\n'
want+=$'4\tstress\t-\tnone\tkilled by SIGKILL\n'
want+=$'0\tstress\tselftest\tPASS\t-'
[ "$abrt" = 134 ] && [ "$(printf '%s\n' "$got" | head -1)" = "$(printf '%s\n' "$want" | head -1)" ]
result $? abort_after_failure_line_is_crash "stress exit $abrt: $got"
[ "$got" = "$want" ]
result $? segv_crash_kill_none_report_wins "statuses $abrt $segv $kill: $got"

# As kernel-judge runs it (a function of the shell that reaps it, its
# stderr the judge's).
kill_run ABRT "$line" >/dev/null
err=$(bash -c '. "$1/scripts/kernel-lib.sh"; run_to ABRT2.out ./fake-stress; echo "$?" >ABRT2.rc' \
	_ "$here/.." 2>&1)
[ -z "$err" ] && [ "$(cat ABRT2.rc)" = 134 ] && [ "$(cat ABRT2.out)" = "$line" ]
result $? run_to_abort_no_job_line "stderr: '$err'; exit $(cat ABRT2.rc 2>&1); output: $(cat ABRT2.out 2>&1)"
[ "$failed" = 0 ]
