#!/usr/bin/env bash
# Explorer schedule files (docs/explore.md#schedule-files), read as
# strictly as ./stress's replay files: a truncated or edited file, a bad
# step, an out-of-range size or a file of the first format is exit 2 with
# one line, never a replay, and so is a batch or algo the command line
# would refuse or a --batch/--algo other than the file's; sizes at the
# accepted extremes give no false failure; a saved counterexample of a
# seeded bug (mutants/hpcc-root-carry-read-set) replays on this tree as "not reproduced"
# (exit 0), and as its failure on the mutant's; --json/--save are written
# whole or not at all (exit 3), a pipe in place (exit 0); the watchdog
# gives no verdict (exit 4); the root's copy of ./stress replays a
# schedule; the 1 MiB limit at its edge; a stray line is told what was
# wanted there. KTAP on stdout.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib/sh/common.sh
. "$here/lib/sh/common.sh"
XP=$(realpath -m "${BUILD:-build/cc}/explore/explore")
NR=35
echo "KTAP version 1"
echo "1..$NR"
if [ ! -x "$XP" ]; then
	# Not built for KERNEL_SRC or sanitizer builds (mk/explore.mk).
	for i in $(seq 1 $NR); do echo "ok $i explore_schedule_$i # SKIP no $XP"; done
	exit 0
fi
build_rel=${BUILD:-build/cc}
test_begin

# resum FILE: the end line recomputed (a crafted file that passes the sum).
resum() {
	python3 "$here/lib/sched_seal.py" "$1"
}

# refused NAME FILE PATTERN [ARG...]: replaying FILE (with ARGs) is exit 2
# with one line matching PATTERN.
refused() {
	local rc
	"$XP" --replay-schedule "$2" "${@:4}" >out 2>err
	rc=$?
	[ $rc = 2 ] && [ ! -s out ] && [ "$(wc -l <err)" = 1 ] && grep -q -- "$3" err
	result $? "$1" "exit $rc, stdout $(wc -l <out) lines: $(head -c 300 err)"
}

"$XP" --plant --bound 2 --reduction none --save sched >out 2>&1
rc=$?
[ $rc = 1 ] && [ "$(head -1 sched)" = "hpcc-stress-schedule 2" ] &&
	grep -q '^step 2 0 start -$' sched && grep -qE '^end [0-9a-f]{16}$' sched &&
	grep -q '^expect planted_total$' sched
result $? schedule_saved_v2 "exit $rc: $(head -3 sched 2>/dev/null | tr '\n' ' ')"

"$XP" --replay-schedule sched >out 2>&1
rc=$?
[ $rc = 1 ] && grep -q '^# replay .*: FAIL planted_total (expected planted_total)' out
result $? schedule_replays_its_failure "exit $rc: $(grep '^# replay' out)"

# The size limit at its edge: 1 MiB is read (and refused for what it
# says), one byte more for its size.
head -c $((1 << 20)) /dev/zero | tr '\0' x >t
refused schedule_1mib_read t 'truncated (no newline at the end)'
echo x >>t
refused schedule_past_1mib_refused t 'not a schedule file (over 1 MiB)'
# A stray line says what was wanted there: a step among the steps, the
# end after the last.
awk '/^step / && !d { print "bogus"; d = 1; next } 1' sched >t
refused schedule_stray_line_wants_step t "want 'step FIBER ORDER KIND OBJECT' here, got 'bogus'"
sed '/^end /i bogus' sched >t
refused schedule_stray_line_wants_end t "want 'end SUM' here, got 'bogus'"
head -n -1 sched >t && refused schedule_no_end_refused t 'truncated: no .end'
head -n 30 sched >t && refused schedule_truncated_steps_refused t 'truncated: no .step'
head -n 9 sched >t && refused schedule_truncated_config_refused t "truncated: no 'sizes'"
sed 's/^harness counter_storm$/harness oom/' sched >t
refused schedule_harness_changed_refused t 'sum does not match'
sed 's/^expect planted_total$/expect final_precise/' sched >t
refused schedule_expect_changed_refused t 'sum does not match'
grep -v '^reads ' sched >t && resum t && refused schedule_missing_line_refused t "want 'reads"
sed '0,/^step 1 /s/^step 1 /step 7 /' sched >t && resum t
refused schedule_bad_fiber_refused t 'fiber 7, the configuration has 3'
sed '0,/^step 0 1 /s/^step 0 1 /step 0 5 /' sched >t && resum t
refused schedule_bad_order_refused t "fiber 0's point 5, want 1"
sed '0,/^step 0 1 write/s/^step 0 1 write/step 0 1 scribble/' sched >t && resum t
refused schedule_bad_kind_refused t 'want .step FIBER ORDER KIND OBJECT'
sed 's/^sizes default$/sizes -9223372036854775808/' sched >t && resum t
refused schedule_size_long_min_refused t 'bad sizes'
sed 's/^sizes default$/sizes 4503599627370497/' sched >t && resum t
refused schedule_size_over_2p52_refused t 'bad sizes'
sed 's/^batch 2$/batch 99999999999999999999/' sched >t && resum t
refused schedule_batch_overflow_refused t 'bad batch'
# The file's batch and algo are checked as the command line's are (not
# left to the harness), and are the replay's: a different --batch or
# --algo given with it is refused; the same ones replay.
sed 's/^batch 2$/batch 6/' sched >t && resum t
refused schedule_batch_not_power_of_two_refused t "bad batch '6' (a power of two"
sed 's/^algo bounded$/algo fastest/' sched >t && resum t
refused schedule_algo_unknown_refused t "bad algo 'fastest'"
refused schedule_other_batch_refused sched 'saved with --batch 2, not 4' --batch 4
refused schedule_other_algo_refused sched 'saved with --algo bounded, not v16' --algo v16
"$XP" --replay-schedule sched --batch 2 --algo bounded >out 2>&1
rc=$?
[ $rc = 1 ] && grep -q '^# replay .*: FAIL planted_total' out
result $? schedule_same_batch_algo_replays "exit $rc: $(grep '^# replay' out)"
printf 'harness counter_storm\ncpus 2\nschedule 0 1\nexpect planted_total\n' >t
refused schedule_first_format_refused t 'a schedule of the first format'

# The explorer's own arithmetic at the extremes it accepts: 4 vCPUs x 8
# adds of 2^52 each way (sums of 2^57), every schedule of bound 0, no failure.
ok=0
for s in 4503599627370496 -4503599627370496; do
	"$XP" --cpus 4 --adds 8 --readers 1 --reads 1 --sizes "$s" --bound 0 --reduction none >out 2>&1
	rc=$?
	{ [ $rc = 0 ] && grep -q '^# complete within bound 0$' out; } ||
		{ ok=1; echo "# --sizes $s: exit $rc: $(grep -E '^# (FAIL|executions)' out)"; }
done
result $ok sizes_at_extremes_no_false_failure
ok=0
for s in -9223372036854775808 9223372036854775807 4503599627370497 -4503599627370497 \
	0x10 '1,' ' 1'; do
	"$XP" --sizes "$s" --bound 0 >out 2>err
	rc=$?
	{ [ $rc = 2 ] && [ ! -s out ] && [ "$(wc -l <err)" = 1 ]; } || { ok=1; echo "# --sizes '$s': exit $rc"; }
done
result $ok sizes_out_of_range_refused

# A regression test: the counterexample the explorer saved on the mutant
# hpcc-root-carry-read-set (the root's carry a read then a set) follows its
# steps here up to the access the fix no longer makes.
"$XP" --replay-schedule "$here/cli/schedules/hpcc-root-carry-read-set.sched" >out 2>&1
rc=$?
[ $rc = 0 ] && grep -q '^# replay .*: not reproduced (expected approx_window): step [0-9]*: fiber' out &&
	grep -q '^ok 1 explore replay not reproduced$' out
result $? saved_counterexample_not_reproduced "exit $rc: $(grep -E '^# (replay|FAIL)' out)"

# Output files: whole or not at all, exit 3 on failure.
no_tmp() {
	local f
	for f in *.tmp*; do [ -e "$f" ] && return 1; done
	return 0
}
echo old >j.json
"$XP" --bound 0 --json j.json >out 2>&1
rc=$?
[ $rc = 0 ] && python3 -m json.tool j.json >/dev/null &&
	no_tmp
result $? json_written_whole "exit $rc"
"$XP" --bound 0 --json /dev/full >out 2>err
rc=$?
[ $rc = 3 ] && grep -q 'cannot write /dev/full' err
result $? json_write_error_exit_3 "exit $rc: $(cat err)"
# A pipe is written in place, and that is a success (exit 0).
"$XP" --bound 0 --json /dev/stdout 2>err | grep '^{"harness":"counter_storm",' >out
rc=${PIPESTATUS[0]}
[ $rc = 0 ] && python3 -m json.tool <out >/dev/null 2>/dev/null
result $? json_onto_pipe_exit_0 "exit $rc: $(cat err)"
mkdir jdir
"$XP" --bound 0 --json jdir >out 2>err
rc=$?
[ $rc = 3 ] && [ -d jdir ] && no_tmp
result $? json_onto_directory_exit_3 "exit $rc: $(cat err)"
cp sched keep
"$XP" --plant --bound 2 --reduction none --save /dev/full >out 2>err
rc=$?
[ $rc = 3 ] && grep -q '^not ok 1 explore counter_storm planted_total' out &&
	grep -q 'cannot write /dev/full' err
result $? save_write_error_exit_3 "exit $rc: $(cat err)"

# The watchdog: a search that cannot end within 1 s (the oom harness with
# the forking fiber, bound 2: 287,615 executions) is no verdict, exit 4.
"$XP" --harness oom --forks 1 --bound 2 --reduction none --timeout 1 >out 2>&1
rc=$?
[ $rc = 4 ] && grep -q '^not ok 1 explore # no verdict: timeout' out
result $? watchdog_no_verdict_exit_4 "exit $rc: $(tail -2 out)"

# The root's ./stress is a copy of $(BUILD)/stress: it finds the explorer
# under the build directory it was built for.
# (A build directory given as an absolute path is found where it is.)
mkdir -p root
if [ "${build_rel#/}" = "$build_rel" ]; then
	mkdir -p root/"$build_rel"/explore && ln -s "$XP" root/"$build_rel"/explore/explore
fi
cp "$STRESS" root/stress
(cd root && ./stress --replay ../sched) >out 2>&1
rc=$?
[ $rc = 1 ] && grep -q '^# replay .*: FAIL planted_total (expected planted_total)' out
result $? root_stress_replays_schedule "exit $rc: $(tail -2 out)"
"$STRESS" --replay "$here/cli/schedules/hpcc-root-carry-read-set.sched" >out 2>&1
rc=$?
[ $rc = 0 ] && grep -q '^ok 1 explore replay not reproduced$' out
result $? stress_replay_not_reproduced "exit $rc: $(tail -2 out)"
[ "$n" = "$NR" ] || echo "# $n results, plan $NR"
[ "$failed" = 0 ] && [ "$n" = "$NR" ]
