#!/usr/bin/env bash
# Honest accounting (docs/stress.md, "Output"): a run's elapsed time counts
# from the workers' first step, the time to create the threads is reported
# apart (startup= in text, startup_s in JSON), ops/s is ops over elapsed;
# --until-fail gives every scenario its share: with a total (--duration)
# none is left out, with --rounds and no --duration each gets its --round.
# A stall on a host that starves the run is INCOMPLETE (exit 4), not FAIL.
# Runs are bounded by steps or by short durations whose exact length does
# not matter to the checks. The run phase's CPU time (run_cpu_s) leaves
# out the setup and the teardown. KTAP on stdout.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
schema=$here/../docs/stress-report.schema.json
# shellcheck source=tests/lib/sh/common.sh
. "$here/lib/sh/common.sh"
test_begin

echo "KTAP version 1"

# 1. Thread creation made slow (10 ms per thread, 10 threads): startup holds
#    it, elapsed does not, ops/s is ops / elapsed. Enough steps that the
#    window carries a rate (1 ms at least: 1.6 million selftest steps take
#    about 8 ms of two fast cores); 100 steps ended in 0.6 ms once, at load.
STRESS_SELFTEST=1 "$STRESS" --scenario selftest --selftest-hang start-slow --cpus 8 --steps 200000 \
	--duration 0 --stat-interval 0 --seed 1 --json j.json >o 2>e
rc=$?
expect startup j.json
[ $? = 0 ] && [ $rc = 0 ] && grep -qE '^stress: PASS selftest .* elapsed=[0-9.]+s startup=[0-9.]+s ops=' o
result $? startup_apart_from_elapsed "exit $rc; $(grep '^stress: PASS' o | head -c 300)"
python3 "$here/lib/json_check.py" "$schema" j.json >schema.out
result $? startup_in_schema "$(head -c 300 schema.out)"

# 2. --until-fail with a total too short for a round of every scenario:
#    each still runs, with at least its fair share of the total.
"$STRESS" --until-fail --duration 150ms --round 100ms --cpus 1 --stat-interval 0 --seed 3 \
	>o 2>e
rc=$?
nr=$("$STRESS" --list | wc -l)
# A round the loaded host left without an operation is INCOMPLETE (exit 4),
# not a failure of the sharing.
{ [ $rc = 0 ] && grep -q "^stress: SUCCESS ($nr runs:" o ||
  { [ $rc = 4 ] && grep -q "^stress: INCOMPLETE ($nr runs:" o; }; } &&
	[ "$(grep -cE '^stress: (PASS|INCOMPLETE) .* duration=50ms ' o)" = "$nr" ] && [ "$nr" -ge 2 ]
result $? until_fail_total_shared_by_every_scenario "exit $rc; $(grep '^stress: ' o | cut -c1-90)"

# 3. --until-fail --rounds N without --duration: no total, every round runs
#    every scenario for its --round.
"$STRESS" --until-fail --rounds 2 --round 50ms --cpus 1 --stat-interval 0 --seed 3 \
	--report json >u.json 2>e
rc=$?
expect full-rounds u.json $((2 * nr)) 0.05
[ $? = 0 ] && { [ $rc = 0 ] || { [ $rc = 4 ] && grep -q '"verdict":"INCOMPLETE"' u.json; }; }
result $? until_fail_rounds_without_duration_full_rounds "exit $rc; $(head -c 200 e)"

# 4. The watchdog gives up on a stall while the host starves the run
#    (--selftest-starved: every look finds a thread starved of CPU): no
#    verdict on the code, INCOMPLETE, exit 4, a KTAP SKIP with its reason.
STRESS_SELFTEST=1 "$STRESS" --scenario selftest --selftest-hang step --selftest-starved --cpus 2 \
	--stall-timeout 100ms --duration 0 --stat-interval 0 --seed 1 --report ktap --json inc.json \
	>o 2>e
rc=$?
[ $rc = 4 ] && grep -q '^ok 1 selftest # SKIP incomplete: the host starved the run of CPU$' o &&
	grep -q '^# stress: INCOMPLETE (1 run: 0 passed, 0 failed, 1 skipped' o &&
	grep -q 'the host starving the run of CPU all along: incomplete' e &&
	! grep -q '^not ok' o && python3 "$here/lib/json_check.py" "$schema" inc.json >schema.out &&
	grep -q '"verdict":"INCOMPLETE"' inc.json && grep -q '"exit_status":4' inc.json
result $? starved_stall_is_incomplete "exit $rc; $(grep -v '^#  ' e | head -c 300)"

# 5. The minimum a run must do (docs/stress.md, Exit status): one operation
#    per vCPU. --selftest-idle keeps every vCPU but 0 from stepping, --steps
#    bounds vCPU 0: at most 3 operations on 4 vCPUs (fewer if the host is
#    slow to run vCPU 0 in the window) is INCOMPLETE (exit 4, KTAP SKIP with
#    the numbers, no rate: ops/s=-, JSON null). Exactly 4, one step on each
#    of 4 vCPUs, is a PASS: that run ends when its steps are done, not at a
#    deadline, so its count does not depend on the host's speed.
STRESS_SELFTEST=1 "$STRESS" --scenario selftest --selftest-idle --cpus 4 --steps 3 \
	--duration 200ms --stat-interval 0 --seed 1 --report ktap --json m.json >o 2>e
rc=$?
[ $rc = 4 ] && grep -qx 'ok 1 selftest # SKIP incomplete: [0-3] operation(s) in the measured window, fewer than the minimum 4 (one per vCPU)' o &&
	grep -q '^# stress: INCOMPLETE selftest .* ops=[0-3] ops/s=- ' o &&
	python3 "$here/lib/json_check.py" "$schema" m.json >schema.out &&
	grep -q '"verdict":"INCOMPLETE"' m.json && grep -q '"ops_per_s":null' m.json &&
	grep -q '"exit_status":4}' m.json
result $? below_minimum_ops_is_incomplete "exit $rc; $(grep -E '^(ok|not ok|# stress: [A-Z]+ selftest)' o | head -c 300 | tr '\n' ' ')"
STRESS_SELFTEST=1 "$STRESS" --scenario selftest --cpus 4 --steps 1 --duration 0 \
	--stat-interval 0 --seed 1 >o 2>e
rc=$?
[ $rc = 0 ] && grep -q '^stress: PASS selftest .* ops=4 ops/s=[0-9]' o
result $? minimum_ops_is_judged "exit $rc; $(grep '^stress: [A-Z]* selftest' o | head -c 300 | tr '\n' ' ')"

# 6. --until-fail rounds too short to judge are never passes: each is
#    INCOMPLETE (counted skipped), the rounds go on, the exit status is 4.
STRESS_SELFTEST=1 "$STRESS" --scenario selftest --selftest-idle --cpus 2 --steps 1 \
	--until-fail --rounds 3 --round 50ms --stat-interval 0 --seed 1 >o 2>e
rc=$?
[ $rc = 4 ] && [ "$(grep -c '^stress: INCOMPLETE selftest ' o)" = 3 ] && ! grep -q '^stress: PASS' o &&
	grep -q '^stress: INCOMPLETE (3 runs: 0 passed, 0 failed, 3 skipped' o
result $? until_fail_short_round_is_no_pass "exit $rc; $(grep '^stress: ' o | cut -c1-120 | tr '\n' ' ')"

# 7. elapsed with three significant digits at least: a run of a few steps
#    is never elapsed=0.00s.
"$STRESS" --scenario counter_storm --cpus 1 --steps 1 --duration 0 --stat-interval 0 \
	--seed 1 >o 2>e
rc=$?
[ $rc = 0 ] && grep -qE '^stress: PASS counter_storm .* elapsed=([0-9]+\.[0-9]{2}|0\.0*[1-9][0-9]{2})s ' o
result $? elapsed_has_enough_digits "exit $rc; $(grep '^stress: PASS' o | head -c 300 | tr '\n' ' ')"

# 8. The run phase's CPU time (run_cpu_s in JSON): the whole process's,
#    from the workers' start to their stop. --selftest-busy-setup spends
#    50 ms of CPU (by the thread's CPU clock, whatever the load) in the
#    scenario's setup and 50 ms in its teardown, both outside that phase:
#    run_cpu_s is above 0 and at least 0.1 s below the process's total CPU
#    time (wait4), and the document still meets the schema.
out=$(STRESS_SELFTEST=1 python3 - "$STRESS" --scenario selftest --selftest-busy-setup --cpus 2 \
	--steps 2000 --duration 0 --stat-interval 0 --seed 1 --json c.json <<'PY' 2>&1
import json, os, subprocess, sys
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
_, status, ru = os.wait4(p.pid, 0)
total = ru.ru_utime + ru.ru_stime
run = json.load(open("c.json"))["runs"][0]["run_cpu_s"]
print("exit %d run_cpu_s=%s total=%.6f" % (os.waitstatus_to_exitcode(status), run, total))
sys.exit(0 if os.waitstatus_to_exitcode(status) == 0 and run is not None and
         0 < run <= total - 0.1 + 2e-6 else 1)
PY
)
[ $? = 0 ] && python3 "$here/lib/json_check.py" "$schema" c.json >schema.out
result $? run_cpu_is_the_run_phase "$out $(head -c 200 schema.out)"

# No plan at the end: KTAP puts it after the version line or leaves it out.
[ $failed = 0 ]
