#!/usr/bin/env bash
# scripts/unit-run --reuse (docs/kernel-trees.md, "Checking a series"): a
# unit program whose file holds the bytes of one that ended by itself is
# not run again, its output and records are the kept run's; a file with
# other bytes under the same name is run, so is the same file under
# another KT_* environment, and a crash is never kept. Two runs of the
# same bytes at once run the program once: the second waits for the
# first's kept run.
# Fixture programs: shell scripts of ours printing KTAP case lines, each
# run appending a line to $MARK (the runs counted).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/lib/sh/ktap.sh"
ktap_begin
echo "1..6"
export MARK
# prog DIR BODY: DIR/test_fixture, a program printing BODY's lines.
prog() {
	mkdir -p "$tmp/$1"
	printf '#!/bin/sh\necho run >>"$MARK"\n%s\n' "$2" >"$tmp/$1/test_fixture"
	chmod +x "$tmp/$1/test_fixture"
}
# run DIR: unit-run --reuse on DIR's program, its records in $rec.
run() {
	rec=$("$root/scripts/unit-run" --reuse "$tmp/runs" "$tmp/$1/test_fixture" \
		"$tmp/$1/out")
}
runs() {	# the runs made so far under $MARK
	wc -l 2>/dev/null <"$MARK" || echo 0
}

MARK=$tmp/mark.same
prog a "echo '  ok 1 one'"
prog b "echo '  ok 1 one'"	# other path, the same bytes: another commit
run a && first=$rec && run b
[ "$(runs)" = 1 ] && [ "$rec" = "$first" ] && [ "$rec" = "$(printf 'count\t1\t0\t0')" ] &&
	cmp -s "$tmp/a/out" "$tmp/b/out"
result $? same_bytes_run_once "runs=$(runs) records: $rec"

MARK=$tmp/mark.other
prog c "echo '  not ok 1 one'; echo '  # class=wrong-answer fn=one'; exit 1"
run c
[ "$(runs)" = 1 ] && [ "$(printf '%s\n' "$rec" | head -n 1)" = "$(printf 'count\t0\t1\t0')" ]
result $? other_bytes_same_name_run "runs=$(runs) records: $rec"

KT_CASE_TIMEOUT=7 run a
[ "$(runs)" = 2 ]
result $? other_environment_run "runs=$(runs) (2 expected)"

MARK=$tmp/mark.crash
prog d "echo '  ok 1 one'; exit 3"
run d && run d
[ "$(runs)" = 2 ] && printf '%s\n' "$rec" | grep -q '(exit 3)'
result $? crash_never_kept "runs=$(runs) records: $rec"

# The first run holds its program until $GATE exists; the second starts
# meanwhile (its run, without the wait, would be a second line in $MARK).
MARK=$tmp/mark.concurrent GATE=$tmp/gate
export GATE
prog e "while [ ! -e \"\$GATE\" ]; do sleep 0.1; done; echo '  ok 1 one'"
prog f "while [ ! -e \"\$GATE\" ]; do sleep 0.1; done; echo '  ok 1 one'"
(run e; printf '%s\n' "$rec" >"$tmp/rec.e") &
pe=$!
for _ in $(seq 100); do [ "$(runs)" = 1 ] && break; sleep 0.1; done
(run f; printf '%s\n' "$rec" >"$tmp/rec.f") &
pf=$!
# The second's own run, if it makes one, shows within 3 s.
for _ in $(seq 30); do [ "$(runs)" = 2 ] && break; sleep 0.1; done
touch "$GATE"
wait "$pe" "$pf"
rec=$(cat "$tmp/rec.e" 2>/dev/null)
[ "$(runs)" = 1 ] && [ -s "$tmp/rec.f" ] && [ "$(cat "$tmp/rec.f")" = "$rec" ] &&
	[ "$rec" = "$(printf 'count\t1\t0\t0')" ] && cmp -s "$tmp/e/out" "$tmp/f/out"
result $? concurrent_same_bytes_run_once "runs=$(runs) records: $(cat "$tmp/rec.f" 2>/dev/null)"

# A first run that crashes is not kept: the second, which waited, runs it.
MARK=$tmp/mark.ccrash GATE=$tmp/gate.crash
prog g "while [ ! -e \"\$GATE\" ]; do sleep 0.1; done; echo '  ok 1 one'; exit 3"
(run g; printf '%s\n' "$rec" >"$tmp/rec.g1") &
pe=$!
for _ in $(seq 100); do [ "$(runs)" = 1 ] && break; sleep 0.1; done
(run g; printf '%s\n' "$rec" >"$tmp/rec.g2") &
pf=$!
sleep 0.5
touch "$GATE"
wait "$pe" "$pf"
[ "$(runs)" = 2 ] && grep -q '(exit 3)' "$tmp/rec.g1" && grep -q '(exit 3)' "$tmp/rec.g2"
result $? concurrent_crash_runs_again "runs=$(runs) (2 expected)"

[ "$failed" = 0 ]
