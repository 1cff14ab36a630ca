#!/usr/bin/env bash
# scripts/unit-run --reuse (docs/kernel-trees.md, "Checking a series"): a
# unit program whose file holds the bytes of one that ended by itself is
# not run again, its output and records are the kept run's; a file with
# other bytes under the same name is run, so is the same file under
# another KT_* environment, and a crash is never kept.
# Fixture programs: shell scripts of ours printing KTAP case lines, each
# run appending a line to $MARK (the runs counted).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/lib/sh/ktap.sh"
ktap_begin
echo "1..4"
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

[ "$failed" = 0 ]
