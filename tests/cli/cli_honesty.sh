#!/usr/bin/env bash
# Input and output honesty, through ./stress itself (make check; under ASan
# in make check-asan): every bad input below exits 2 with one
# line on stderr and runs nothing; an output that cannot be written is
# exit 3 with its path and strerror (before the run when it is a file);
# an interrupted run says so in text, KTAP and JSON and exits 128 + signal.
# Bounded by steps and by the signal, never by time. KTAP on stdout.
set -u
STRESS=$(realpath "${STRESS:-${BUILD:-build/cc}/stress}")
unit_rcu=$(realpath "${BUILD:-build/cc}")/tests/test_rcu
here=$(cd "$(dirname "$0")/.." && pwd)
n=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# shellcheck source=tests/lib/sh/common.sh
. "$here/lib/sh/common.sh"


# usage_error NAME WANT CMD...: exit 2, nothing on stdout, exactly one line on
# stderr containing WANT (fixed string), no raw control byte in it.
usage_error() {
	local name=$1 want=$2 rc
	shift 2
	"$@" >o 2>e
	rc=$?
	[ $rc = 2 ] && [ ! -s o ] && [ "$(wc -l <e)" = 1 ] && grep -qF -- "$want" e &&
		! LC_ALL=C grep -q '[^[:print:]]' e
	result $? "$name" "exit $rc; stderr: $(head -c 300 e | cat -v)"
}

echo "KTAP version 1"
replay_file >ok.txt
"$STRESS" --replay ok.txt >probe.out 2>&1
if grep -q 'not supported in ThreadSanitizer' probe.out; then
	echo "1..1"
	echo "ok 1 cli_honesty # SKIP serial replay uses fibers: not in TSan builds"
	exit 0
fi


# --- item 1: replay files that used to corrupt a run (each was once accepted) ---
replay_file | sed 's/^args$/args --cpus=2/' >cpus2.txt
replay_file | sed -e 's/^args$/args --cpus=100/' -e 's/^ops none$/ops 9 9 9 9 9 9 9 9/' \
	>cpus100.txt
replay_file scenario oom_race | sed 's/^args$/args --oom-tasks=4096 --cpus=3/' >oomcpus3.txt
usage_error replay_args_cpus2_refused "'args': '--cpus=2' is not an option of scenario" \
	"$STRESS" --replay cpus2.txt
usage_error replay_args_cpus100_refused "'--cpus=100' is not an option" \
	"$STRESS" --replay cpus100.txt
usage_error replay_args_oom_tasks_cpus3_refused "'--cpus=3' is not an option of scenario oom_race" \
	"$STRESS" --replay oomcpus3.txt
usage_error shrink_args_cpus2_refused "'--cpus=2' is not an option" "$STRESS" --shrink cpus2.txt
# The scenario's own sizing option is fine: the run uses the file's 8 CPUs.
replay_file scenario oom_race steps 300 | sed 's/^args$/args --oom-tasks=4096/' >oomtasks.txt
"$STRESS" --replay oomtasks.txt >o 2>e; rc=$?
[ $rc = 0 ] && grep -q '^stress: PASS oom_race cpus=8 ' o
result $? replay_scenario_option_sizes_the_scenario "exit $rc; $(tail -2 o) $(head -2 e)"

# Unbounded and malformed input.
usage_error replay_dev_zero_bounded "/dev/zero: larger than 1048576 bytes" \
	"$STRESS" --replay /dev/zero
usage_error shrink_dev_zero_bounded "/dev/zero: larger than 1048576 bytes" \
	"$STRESS" --shrink /dev/zero
replay_file | sed 's/^seed 7$/seed 7\x00junk/' >nul.txt
usage_error replay_nul_byte_refused "nul.txt:4: byte 0x00 at column 7 is not text: 'seed 7\\x00junk'" \
	"$STRESS" --replay nul.txt
replay_file | head -n 12 >trunc-line.txt
usage_error replay_truncated_at_a_line_refused "no 'steps' line: the file is truncated" \
	"$STRESS" --replay trunc-line.txt
replay_file | head -c 150 >trunc-mid.txt
usage_error replay_truncated_mid_line_refused "no newline at the end: the file is truncated" \
	"$STRESS" --replay trunc-mid.txt
replay_file | sed '$d' >no-end.txt
usage_error replay_without_end_refused "no 'end' line" "$STRESS" --replay no-end.txt
printf '\033[31mHELLO\001\377 garbage\n' >garbage.txt
usage_error replay_garbage_header_escaped \
	"garbage.txt:1: byte 0x1b at column 1 is not text: '\\x1b[31mHELLO\\x01\\xff garbage'" \
	"$STRESS" --replay garbage.txt
usage_error shrink_garbage_header_refused "byte 0x1b at column 1" "$STRESS" --shrink garbage.txt
printf 'PK\003\004 not a replay file\n' >zip.txt
usage_error replay_foreign_text_refused "not a replay file" "$STRESS" --replay zip.txt

# --- a strict command line (docs/stress.md, "Options") ---
# Each option once (--scenario is the one list); no value is silently overridden.
usage_error repeat_cpus_refused "--cpus given twice" "$STRESS" --cpus 4 --cpus 8
usage_error repeat_short_and_long_refused "-c given twice" "$STRESS" -c 4 --cpus 8
usage_error repeat_json_refused "--json given twice" "$STRESS" --json a --json b
usage_error repeat_flag_refused "--until-fail given twice" "$STRESS" --until-fail --until-fail
usage_error repeat_inject_key_refused "hop given twice" "$STRESS" --inject hop=0.1,hop=0.2
usage_error repeat_scenario_option_refused "--storm-pattern given twice" \
	"$STRESS" --scenario counter_storm --storm-pattern small --storm-pattern mixed
"$STRESS" --scenario counter_storm --scenario oom_race --cpus 2 --steps 10 --duration 0 \
	--stat-interval 0 >o 2>e
rc=$?
[ $rc = 0 ] && [ "$(grep -c '^stress: PASS' o)" = 2 ]
result $? repeat_scenario_is_a_list "exit $rc; $(head -c 200 e)"
# One mode at a time, and nothing it would ignore.
usage_error mode_describe_until_fail_refused "--until-fail does not apply to --describe" \
	"$STRESS" --describe --until-fail
usage_error mode_list_cpus_refused "--cpus does not apply to --list" "$STRESS" --list --cpus 4
usage_error mode_replay_shrink_refused "--replay and --shrink are different modes" \
	"$STRESS" --replay ok.txt --shrink ok.txt
usage_error mode_version_list_refused "--version and --list are different modes" \
	"$STRESS" --version --list
# Decimal numbers only, in their ranges; durations of at least 1 ms.
usage_error number_hex_refused "'0x5' is not a" "$STRESS" --cpus 0x5
usage_error number_exponent_refused "'1e-9' is not a duration" "$STRESS" --duration 1e-9
usage_error number_hex_float_refused "'0x1p-3' is not a duration" "$STRESS" --duration 0x1p-3
usage_error number_sub_ms_refused "below the minimum of 1ms" "$STRESS" --duration 0.0005
usage_error number_round_sub_ms_refused "below the minimum of 1ms" \
	"$STRESS" --until-fail --round 0.5ms
usage_error number_stutter_zero_refused "'0' is not a stutter spec" "$STRESS" --stutter 0
usage_error number_duty_exponent_refused "'1e-1' is not a fraction" \
	"$STRESS" --selector-duty 1e-1
usage_error number_inject_exponent_refused "not an injection spec" "$STRESS" --inject hop=1e-2
usage_error number_scenario_option_blank_refused "is not an integer" \
	"$STRESS" --scenario oom_race --oom-tasks ' 5'
"$STRESS" --scenario counter_storm --cpus 2 --steps 10 --duration 1ms --stat-interval 0 \
	--stutter 1ms-2.5ms --selector-duty .5 >o 2>e
rc=$?
# Accepted: a run (a 1 ms window a loaded host left without an operation is INCOMPLETE, 4).
[ $rc = 0 ] || { [ $rc = 4 ] && grep -q '^stress: INCOMPLETE counter_storm ' o; }
result $? number_decimal_forms_accepted "exit $rc; $(head -c 200 e | tr '\n' ' ')"
# A user's bytes are escaped in every message, and get no "did you mean".
usage_error escape_unknown_option_no_suggestion "unknown option '--cpu\\xffs'" \
	"$STRESS" --cpu$'\xff's 4
! grep -q 'did you mean' e
result $? escape_unknown_option_has_no_suggestion "$(cat -v e)"
usage_error escape_newline_in_value "unknown scenario 'x\\ny'" "$STRESS" --scenario $'x\ny'
usage_error escape_control_in_number "'4\\x1b[31m' is not a" "$STRESS" --cpus $'4\e[31m'
usage_error escape_output_path "cannot write nodir/a\\nb" \
	"$STRESS" --cpus 2 --steps 10 --json $'nodir/a\nb'

# --- item 3: outputs that cannot be written ---
# A report file is prepared before the run: exit 2 at once, nothing run or printed.
"$STRESS" --scenario counter_storm --cpus 2 --steps 100 --stat-interval 0 \
	--json nodir/x.json >o 2>e; rc=$?
[ $rc = 2 ] && [ ! -s o ] && [ "$(cat e)" = "stress: cannot write nodir/x.json: No such file or directory" ]
result $? json_to_unwritable_path_before_the_run "exit $rc; $(head -c 300 e)"
"$STRESS" --scenario counter_storm --cpus 2 --steps 100 --stat-interval 0 \
	--replay-out nodir/r.txt >o 2>e; rc=$?
[ $rc = 2 ] && [ ! -s o ] && grep -q '^stress: cannot write nodir/r.txt: No such file' e
result $? replay_out_to_unwritable_path_before_the_run "exit $rc; $(head -c 300 e)"
"$STRESS" --replay ok.txt --json nodir/x.json >o 2>e; rc=$?
[ $rc = 2 ] && [ ! -s o ] && grep -q '^stress: cannot write nodir/x.json' e
result $? replay_json_to_unwritable_path "exit $rc; $(head -c 300 e)"
# A full disk: every report format, and the options that only print.
bad=
for fmt in text ktap json; do
	"$STRESS" --scenario counter_storm --cpus 2 --steps 100 --stat-interval 0 \
		--report $fmt >/dev/full 2>e; rc=$?
	[ $rc = 3 ] && grep -q '^stress: cannot write stdout (/dev/full): No space left on device$' e ||
		bad="$bad $fmt:$rc"
done
for opt in --help --list --version; do
	"$STRESS" $opt >/dev/full 2>e; rc=$?
	[ $rc = 3 ] && grep -q 'No space left on device' e || bad="$bad $opt:$rc"
done
"$STRESS" --replay ok.txt >/dev/full 2>e; rc=$?
[ $rc = 3 ] && grep -q 'cannot write stdout' e || bad="$bad replay:$rc"
[ -z "$bad" ]
result $? stdout_to_a_full_disk_is_exit_3 "failed:$bad; $(head -c 200 e)"
# A private full node (tests/cli/cli_outputs.sh): never the host's /dev/full by
# path, which a build that renames over its outputs would replace.
if mknod full c 1 7 2>/dev/null; then
	"$STRESS" --scenario counter_storm --cpus 2 --steps 100 --stat-interval 0 \
		--json full >o 2>e; rc=$?
	[ $rc = 3 ] && grep -q '^stress: cannot write full: No space left on device$' e
	result $? json_file_to_a_full_disk_is_exit_3 "exit $rc; $(head -c 300 e)"
else
	n=$((n + 1))
	echo "ok $n json_file_to_a_full_disk_is_exit_3 # SKIP mknod needs root"
fi

# --- item 3: interrupted runs say so (docs/stress.md: KTAP "# SKIP interrupted") ---
# start_and_signal SIG OUT ARGS...: run ./stress, wait for its header (the
# handlers are installed by then), send SIG to ./stress itself, wait; sets rc.
# Not through timeout(1): under load, coreutils 9.1's "timeout --foreground"
# was seen to exit 130 on a SIGINT without passing it on, leaving ./stress
# running. The wait is bounded against a hang only (the watchdog ends a run
# deaf to the signal within its stop limit).
start_and_signal() {
	local sig=$1 out=$2 i
	shift 2
	"$STRESS" "$@" >"$out" 2>"$out.err" &
	local pid=$!
	for ((i = 0; i < 3000; i++)); do
		grep -q 'stress: hpcc-stress\|stress: replay ' "$out" "$out.err" 2>/dev/null && break
		sleep 0.1
	done
	kill -"$sig" $pid
	wait_bounded $pid
	rc=$?
}
start_and_signal INT k.out --scenario counter_storm --scenario oom_race --cpus 4 \
	--duration 0 --stat-interval 0 --report ktap --json k.json
[ $rc = 130 ] && grep -qx '1\.\.2' k.out &&
	grep -qx 'ok 1 counter_storm # SKIP interrupted (SIGINT)' k.out &&
	grep -qx 'ok 2 oom_race # SKIP interrupted (SIGINT) before it started' k.out &&
	! grep -q '^ok [0-9]* [a-z_]*$' k.out
result $? interrupted_ktap_is_skip_interrupted "exit $rc; $(grep -E '^(not )?ok|^1\.\.' k.out)"
python3 "$here/lib/json_check.py" "$here/../docs/stress-report.schema.json" k.json >schema.out &&
	expect interrupted k.json SIGINT oom_race
result $? interrupted_json_says_so "$(cat schema.out) $(head -c 300 k.json)"
start_and_signal TERM t.out --scenario counter_storm --cpus 4 --duration 0 --stat-interval 0
[ $rc = 143 ] && grep -q '^stress: INTERRUPTED counter_storm cpus=4 ' t.out &&
	! grep -q '^stress: PASS' t.out
result $? interrupted_text_verdict_and_exit_143 "exit $rc; $(grep '^stress: [A-Z]' t.out)"
replay_file steps 1000000000000 stutter off >long.txt
start_and_signal INT r.out --replay long.txt --replay-out long-out.txt --report ktap
[ $rc = 130 ] && grep -q '^# stress: replay outcome: INTERRUPTED ' r.out &&
	grep -qx 'ok 1 counter_storm # SKIP interrupted (SIGINT)' r.out && [ ! -e long-out.txt ] &&
	grep -q 'replay interrupted: long-out.txt not written' r.out.err
result $? interrupted_replay_says_so "exit $rc; $(grep -E 'outcome|^ok|^not ok' r.out)"
# A replay's KTAP document closes as a run's does: the totals line, counted.
python3 "$here/lib/ktap_validate.py" --totals --expect 0,0,1 r.out >why 2>&1 &&
	grep -q '^# stress: INTERRUPTED (1 run: ' r.out
result $? replay_ktap_has_totals "$(cat why) $(tail -2 r.out)"

# Environment models are bad input too: refused once, before anything runs.
# A unit binary runs each case in its own process: still one line, not one per case.
unit=$unit_rcu
for env in KC_RCU_FLAVOR=bogus KC_PCPU_OPS=bogus; do
	for prog in "$STRESS" "$unit"; do
		env "$env" "$prog" >o 2>e
		rc=$?
		[ $rc = 2 ] && [ "$(wc -l <e)" = 1 ] && [ ! -s o ]
		result $? "env_${env%%=*}_bogus_$(basename "$prog")_one_line_exit_2" \
			"exit $rc; $(head -c 300 e)"
	done
done

# No plan at the end: KTAP puts it after the version line or leaves it out
# (tests/lib/ktap_validate.py, run by make check, rejects a trailing one).
[ $failed = 0 ]
