#!/usr/bin/env bash
# --known FILE and --findings-out FILE (docs/stress.md#known-findings), on
# the selftest scenario's two seeded findings: --selftest-known-after N
# fails selftest/contract/selftest_known at every step of vCPU 0 from N
# on, --selftest-fail-after N fails selftest/wrong-answer/- once at N.
#   (a) without --known the run stops at the first finding;
#   (b) with it known the run does every step, counts the hits, says so
#       in every report format, and still fails on the other finding;
#   (c) a known file that names nothing present changes nothing;
# and every malformed known file is one line, exit 2, before any run.
# Bounded by --steps, never by time.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib/sh/common.sh
. "$here/lib/sh/common.sh"
test_begin
export STRESS_SELFTEST=1
echo "KTAP version 1"

run=(--scenario selftest --cpus 2 --steps 300 --duration 0 --seed 6 --stat-interval 0
     --replay-search 0)
hdr='hpcc-stress findings 1'
printf '%s\nfinding selftest selftest contract selftest_known 0\n' "$hdr" >known
printf '%s\n# only other signatures\nfinding selftest selftest wrong-answer selftest_known 3\n' \
	"$hdr" >other
echo 'finding selftest selftest contract selftest_other 1' >>other
echo 'finding counter_storm compare contract approximate_compare_value 12' >>other

field() {	# field NAME FILE: the verdict line's NAME=value
	sed -n "s/^stress: [A-Z]* selftest .* $1=\([^ ]*\).*/\1/p" "$2"
}

# (a) no --known: the first finding fails the run, early.
"$STRESS" "${run[@]}" --selftest-known-after 10 --findings-out found >a.out 2>a.err
rc=$?
ops=$(field ops a.out)
[ $rc = 1 ] && grep -q '^stress: FAIL selftest .*invariant=selftest class=contract' a.out &&
	[ -n "$ops" ] && [ "$ops" -lt 600 ] && ! grep -q 'known=' a.out
result $? without_known_the_first_finding_fails "rc=$rc ops=$ops"
[ "$(head -n 1 found)" = "$hdr" ] &&
	grep -qx 'finding selftest selftest contract selftest_known [1-9][0-9]*' found &&
	[ "$(grep -c '^finding ' found)" = 1 ]
result $? findings_out_names_the_signature "$(cat found)"

# (b) known (the file (a) wrote): every step, the hits counted and shown.
"$STRESS" "${run[@]}" --selftest-known-after 10 --known found >b.out 2>b.err
rc=$?
[ $rc = 0 ] && grep -q '^stress: PASS selftest .* ops=600 .* known=1 (291 hits)$' b.out &&
	grep -q '^# known selftest/contract/selftest_known hits=291' b.out &&
	[ "$(grep -c '^#   e.g. ' b.out)" = 3 ] &&
	[ "$(grep -c 'known finding selftest/contract/selftest_known' b.err)" = 1 ]
result $? with_known_the_run_goes_to_its_end "rc=$rc $(tail -n 2 b.out)"

"$STRESS" "${run[@]}" --selftest-known-after 10 --known known --report ktap >k.out 2>&1
rc=$?
[ $rc = 0 ] && grep -q '^ok 1 selftest$' k.out && grep -q '^# stress: PASS .* known=1 (291 hits)' k.out
result $? ktap_says_known "rc=$rc"
"$STRESS" "${run[@]}" --selftest-known-after 10 --known known --report json >j.out 2>/dev/null
rc=$?
[ $rc = 0 ] && python3 "$here/lib/json_check.py" "$here/../docs/stress-report.schema.json" j.out \
	>j.chk 2>&1 && expect known j.out 600 291 selftest_known contract >>j.chk
result $? json_lists_known "rc=$rc $(head -c 300 j.chk)"

# (b) a second, different finding still fails the run; both are written out.
"$STRESS" "${run[@]}" --selftest-known-after 10 --selftest-fail-after 200 --known known \
	--findings-out both >c.out 2>c.err
rc=$?
[ $rc = 1 ] && grep -q '^stress: FAIL selftest .*invariant=selftest class=wrong-answer known=1 (19[0-9] hits)$' c.out &&
	grep -qx 'finding selftest selftest wrong-answer - 1' both &&
	grep -qx 'finding selftest selftest contract selftest_known 19[0-9]' both
result $? a_new_finding_still_fails "rc=$rc $(grep '^stress: FAIL' c.out) $(cat both)"

# (c) a known file naming nothing present changes nothing.
"$STRESS" "${run[@]}" --selftest-known-after 10 --known other >d.out 2>d.err
rc=$?
ops=$(field ops d.out)
[ $rc = 1 ] && grep -q '^stress: FAIL selftest .*invariant=selftest class=contract' d.out &&
	[ "$ops" -lt 600 ] && ! grep -q 'known=\|known finding' d.out d.err
result $? unrelated_known_changes_nothing "rc=$rc ops=$ops"
"$STRESS" "${run[@]}" --known other >e.out 2>&1
rc=$?
[ $rc = 0 ] && grep -q '^stress: PASS selftest .* ops=600 ' e.out && ! grep -q 'known=' e.out
result $? clean_run_with_known_is_a_plain_pass "rc=$rc"

# Malformed known files: one line, exit 2, nothing run.
bad() {	# bad NAME CONTENT EXPECTED-TEXT
	printf '%b' "$2" >"bad-$1"
	"$STRESS" "${run[@]}" --known "bad-$1" >bad.out 2>bad.err
	local rc=$?
	[ $rc = 2 ] && [ ! -s bad.out ] && [ "$(wc -l <bad.err)" = 1 ] &&
		grep -q "^stress: --known bad-$1.*$3" bad.err
	result $? "known_file_refused_$1" "rc=$rc $(cat bad.err)"
}
bad empty '' 'empty'
bad header 'findings\n' 'first line'
bad fields "$hdr\nfinding selftest selftest contract selftest_known\n" 'expected'
bad keyword "$hdr\nknown selftest selftest contract x 1\n" 'expected'
bad scenario "$hdr\nfinding no_such selftest contract x 1\n" 'unknown scenario'
bad invariant "$hdr\nfinding selftest no_such contract x 1\n" 'unknown invariant'
bad watchdog "$hdr\nfinding selftest watchdog crash - 1\n" 'hang'
bad class "$hdr\nfinding selftest selftest wrong x 1\n" 'class'
bad function "$hdr\nfinding selftest selftest contract Fn() 1\n" 'function'
bad hits "$hdr\nfinding selftest selftest contract x -1\n" 'hits'
bad huge "$hdr\nfinding selftest selftest contract x 99999999999999999999999\n" 'hits'
bad twice "$hdr\nfinding selftest selftest contract x 1\nfinding selftest selftest contract x 2\n" 'twice'
bad control "$hdr\nfinding selftest selftest contract x 1\x01\n" 'printable'
bad long "$hdr\n# $(printf '%0700d' 0)\n" 'longer'
"$STRESS" "${run[@]}" --known . >bad.out 2>bad.err
rc=$?
[ $rc = 2 ] && grep -q 'not a regular file' bad.err
result $? known_directory_refused "rc=$rc"
"$STRESS" "${run[@]}" --known missing >bad.out 2>bad.err
rc=$?
[ $rc = 2 ] && grep -q 'No such file' bad.err
result $? known_missing_refused "rc=$rc"
"$STRESS" "${run[@]}" --findings-out nodir/f >bad.out 2>bad.err
rc=$?
[ $rc = 2 ] && [ ! -s bad.out ] && grep -q 'cannot write nodir/f' bad.err
result $? findings_out_checked_before_the_run "rc=$rc $(cat bad.err)"

# No plan at the end: KTAP puts it after the version line or leaves it out.
[ $failed = 0 ]
