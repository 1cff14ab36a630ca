#!/usr/bin/env bash
# CPU hotplug in ./stress (--hotplug; docs/stress.md): bad values are usage
# errors; the option reaches the header, the JSON config and the
# reproducer; off means no hotplug; CPUs go offline and come back at
# quiescent points of a serial replay (step-bounded: the same events every
# time) without failing a check, and a replay file keeps the rate; a
# threaded run bounded by --steps ends with every vCPU done. KTAP on stdout.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib/sh/common.sh
. "$here/lib/sh/common.sh"
test_begin

echo "KTAP version 1"
# The number of results is known at the end only: no plan (KTAP allows it).

bad() {
	local name=$1; shift
	"$STRESS" "$@" >o 2>e
	local rc=$? lines
	lines=$(wc -l <e)
	[ $rc = 2 ] && [ "$lines" = 1 ] && [ ! -s o ]
	result $? "bad_$name" "args: $*: exit $rc, $lines stderr line(s): $(head -c 300 e)"
}
bad hotplug_above_one --hotplug 2
bad hotplug_negative --hotplug -0.1
bad hotplug_word --hotplug often
bad hotplug_empty --hotplug ''
bad hotplug_junk --hotplug 0.5x

# Threaded, --steps: vCPUs whose CPU is offline wait parked; every one finishes.
run=(--scenario counter_storm --cpus 8 --duration 0 --steps 5000 --stutter 1ms
     --stat-interval 0 --seed 5)
"$STRESS" "${run[@]}" --hotplug 1 --json t.json >t.out 2>&1; rc=$?
[ $rc = 0 ] && grep -q "hotplug=1 " t.out && grep -q -- "--hotplug 1 " t.json &&
	grep -q '"hotplug": *"1"' t.json
result $? threaded_steps_run_passes_with_hotplug "rc=$rc; $(grep -E 'FAIL|failure|hotplug' t.out | head -3)"
"$STRESS" "${run[@]}" --hotplug off >off.out 2>&1; rc=$?
[ $rc = 0 ] && grep -q 'hotplug=off ' off.out && ! grep -q 'soft hotplug_' off.out
result $? hotplug_off_changes_no_cpu "rc=$rc; $(grep hotplug off.out | head -2)"

# Serial: quiescent points every 256-4096 steps, a hotplug event at each.
if "$STRESS" --replay /dev/null 2>&1 | grep -q 'not supported in ThreadSanitizer'; then
	echo "ok $((n + 1)) serial_hotplug # SKIP serial replay uses fibers: not in TSan builds"
	n=$((n + 1))
else
	replay_steps=40000 replay_file >h.txt
	sed -i 's/^end$/hotplug 1\nend/' h.txt
	"$STRESS" --replay h.txt --replay-out a.txt >a.out 2>&1; rc1=$?
	"$STRESS" --replay h.txt >b.out 2>&1; rc2=$?
	down=$(sed -n 's/^# soft hotplug_down=//p' a.out)
	[ $rc1 = 0 ] && [ $rc2 = 0 ] && [ "${down:-0}" -gt 0 ] &&
		grep -q 'soft hotplug_up=' a.out &&
		[ "$(grep -E 'soft hotplug|replay outcome' a.out)" = \
		  "$(grep -E 'soft hotplug|replay outcome' b.out)" ] &&
		grep -q '^hotplug 1$' a.txt
	result $? serial_hotplug_is_deterministic_and_kept "rc $rc1/$rc2 down=${down:-none}; $(grep -E 'FAIL|hotplug' a.out | head -3)"
fi

[ "$failed" = 0 ]
