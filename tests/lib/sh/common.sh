# shellcheck shell=bash
# Helpers shared by the tests/*/*.sh scripts (sourced, not run: make check
# runs only tests/*/*.sh). Each script keeps its own n/failed counters.

# python3, resolved once: a version manager's shim in PATH costs a
# shell script and a process or two per call, and tests call it often.
# scripts/run-tests resolves it once for the whole run (TEST_PYTHON3).
PYTHON3=${TEST_PYTHON3:-}
[ -x "$PYTHON3" ] ||
	PYTHON3=$(command python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
[ -x "$PYTHON3" ] || PYTHON3=$(command -v python3)
python3() { "$PYTHON3" "$@"; }

# shellcheck source=tests/lib/sh/ktap.sh
. "${BASH_SOURCE[0]%/*}/ktap.sh"

# test_begin: STRESS (the binary under test, from $STRESS or $BUILD), the
# n/failed counters, and a private temporary directory as the working
# directory, removed at exit.
test_begin() {
	STRESS=$(realpath "${STRESS:-${BUILD:-build/cc}/stress}")
	test_frame
	cd "$tmp" || exit 1
}

# wait_bounded PID: wait for PID to exit and return its status; killed
# after 300 s, a guard against a hang, not a time limit.
wait_bounded() {
	local i
	for ((i = 0; i < 30000; i++)); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.01
	done
	kill -KILL "$1" 2>/dev/null
	wait "$1"
}

# expect NAME FILE [ARG...]: the JSON report FILE meets the expectation
# NAME of tests/lib/report_expect.py (its usage lists them).
expect() {
	python3 "${BASH_SOURCE[0]%/*}/../report_expect.py" "$@"
}

# json_set IN OUT EDIT...: IN with some values changed, written to OUT
# (tests/lib/json_set.py).
json_set() {
	python3 "${BASH_SOURCE[0]%/*}/../json_set.py" "$@"
}

# replay_file [KEY VALUE]...: a complete version 2 replay file with those
# keys replaced (a value may not hold spaces). Steps: $replay_steps or 2000.
replay_file() {
	awk -v kv="$*" 'BEGIN { n = split(kv, w, " "); for (i = 1; i < n; i += 2) v[w[i]] = w[i + 1] }
		$1 in v { print $1 " " v[$1]; next } { print }' <<END
hpcc-stress-replay 2
scenario counter_storm
args
seed 7
cpus 8
batch 32
selectors 2
sched-seed 1
preempt 0.05
hop 0.01
selector-share 0.25
stutter 256-4096
steps ${replay_steps:-2000}
ops none
end
END
}

# wait_caught PID: wait (bounded by iterations) until PID catches SIGINT.
# A background job of a non-interactive shell starts with SIGINT ignored,
# so a signal sent before the program installs its handler is lost, and a
# --duration 0 run then never ends.
wait_caught() {
	local i cgt
	for ((i = 0; i < 6000; i++)); do
		cgt=$(awk '/^SigCgt:/ { print $2 }' "/proc/$1/status" 2>/dev/null) || return 1
		[ -n "$cgt" ] || return 1
		(( 0x$cgt & 2 )) && return 0
		sleep 0.01
	done
	return 1
}
