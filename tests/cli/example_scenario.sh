#!/usr/bin/env bash
# The example scenario of docs/writing-a-scenario.md: hidden unless
# STRESS_EXAMPLE is set; with it, a step-bounded threaded run and a serial
# replay (quiescent points at seeded step counts) pass; its option is
# range-checked like every other. KTAP on stdout.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib/sh/common.sh
. "$here/lib/sh/common.sh"
test_begin

echo "KTAP version 1"

env -u STRESS_EXAMPLE "$STRESS" --list >l.out 2>&1
! grep -q '^ *example' l.out
result $? hidden_by_default "$(head -c 300 l.out)"

export STRESS_EXAMPLE=1
"$STRESS" --list >l.out 2>&1
grep -q 'example' l.out
result $? listed_with_stress_example "$(head -c 300 l.out)"

"$STRESS" --scenario example --cpus 4 --steps 3000 --duration 0 --stat-interval 0 \
	--seed 3 >t.out 2>&1; rc=$?
[ $rc = 0 ] && grep -q 'PASS example' t.out
result $? threaded_steps_run_passes "rc=$rc; $(grep -E 'FAIL|invariant' t.out | head -3)"

if "$STRESS" --replay /dev/null 2>&1 | grep -q 'not supported in ThreadSanitizer'; then
	n=$((n + 1))
	echo "ok $n serial_replay_passes # SKIP serial replay uses fibers: not in TSan builds"
else
	replay_steps=20000 replay_file scenario example >r.txt
	"$STRESS" --replay r.txt >r.out 2>&1; rc=$?
	[ $rc = 0 ] && grep -q 'PASS example' r.out && grep -q 'quiescent=[1-9]' r.out
	result $? serial_replay_passes "rc=$rc; $(grep -E 'FAIL|invariant|error' r.out | head -3)"
fi

"$STRESS" --scenario example --example-max-add 0 >o 2>e; rc=$?
[ $rc = 2 ] && [ "$(wc -l <e)" = 1 ]
result $? option_range_checked "rc=$rc; $(head -c 200 e)"

[ "$failed" = 0 ]
