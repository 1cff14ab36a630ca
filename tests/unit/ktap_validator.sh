#!/usr/bin/env bash
# tests/lib/ktap_validate.py, the strict KTAP validator make check runs on every
# stream, must be able to fail: each broken document below is rejected with
# its own reason, and well-formed ones (nested, skipped, failed, plan-less
# with --no-plan) are accepted with the right counts. KTAP on stdout.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
v=$here/lib/ktap_validate.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0
echo "KTAP version 1"

# shellcheck source=tests/lib/sh/common.sh
. "$here/lib/sh/common.sh"

# A good document (a KUnit run of one suite) to break in one place at a time.
good='KTAP version 1
1..1
  KTAP version 1
  # Subtest: suite
  1..3
  ok 1 first # checks=3
  # second: a diagnostic
  not ok 2 second
  ok 3 third # SKIP not today
# suite: pass:1 fail:1 skip:1 total:3
not ok 1 suite
# Totals: pass:1 fail:1 skip:1 total:3'

accept() {	# accept NAME ARGS... (document on stdin)
	local name=$1
	shift
	cat >"$tmp/doc"
	python3 "$v" "$@" "$tmp/doc" >"$tmp/why" 2>&1
	result $? "accepts_$name" "$(head -3 "$tmp/why" | tr '\n' ' ')"
}

reject() {	# reject NAME REASON SED-SCRIPT [ARGS...]: break $good, expect REASON
	local name=$1 reason=$2 script=$3
	shift 3
	printf '%s\n' "$good" | sed "$script" >"$tmp/doc"
	python3 "$v" --totals "$@" "$tmp/doc" >"$tmp/why" 2>&1
	local rc=$?
	[ $rc = 1 ] && grep -qF -- "$reason" "$tmp/why"
	result $? "rejects_$name" "exit $rc: $(head -3 "$tmp/why" | tr '\n' ' ')"
}

accept kunit_style_suite --totals --expect 1,1,1 <<<"$good"
accept with_classes --totals <<<"${good/total:3
# Totals: pass:1 fail:1 skip:1 total:3/total:3
# Totals: pass:1 fail:1 skip:1 total:3 contract:0 wrong-answer:1 crash:0}"
reject no_version_line "must start with 'KTAP version 1'" '1d'
reject numbering_gap "result number 3, expected 2" 's/not ok 2 second/not ok 3 second/'
reject fewer_results_than_plan "has 2 results, its plan says 3" '/ok 3 third/d'
reject more_results_than_plan "beyond the plan 1..2" 's/  1\.\.3/  1..2/'
reject unnamed_nested_test "must name itself" '/# Subtest: suite/d'
reject name_mismatch "the names must match" 's/^not ok 1 suite/not ok 1 suites/'
reject ok_parent_of_failure "is ok but one of its subtests failed" 's/^not ok 1 suite/ok 1 suite/'
reject odd_indentation "indentation of 3 spaces" 's/^  ok 1 first/   ok 1 first/'
reject tab_indentation "a tab in the indentation" 's/^  ok 1 first/\tok 1 first/'
reject todo_directive "TODO directive is not recognized" 's/# SKIP not today/# TODO later/'
reject unknown_directive "unknown directive 'PENDING'" 's/# SKIP not today/# PENDING later/'
reject ok_with_timeout "needs 'not ok'" 's/ok 3 third # SKIP not today/ok 3 third # TIMEOUT 30s/'
reject wrong_totals "'# Totals: pass:2 fail:1" 's/Totals: pass:1/Totals: pass:2/'
reject wrong_statistics "statistics pass:1 fail:0" 's/suite: pass:1 fail:1/suite: pass:1 fail:0/'
reject missing_totals "no '# Totals:" '$d'
reject stray_line "not a KTAP line" 's/  # second: a diagnostic/  second: a diagnostic/'
reject empty_line "an empty line" 's/  # second: a diagnostic//'
reject case_named_like_suite "has the name of its subtest" 's/ok 1 first/ok 1 suite/'
reject nested_without_plan "no plan '1..N'" '/  1\.\.3/d'
reject top_without_plan "no plan '1..N'" '2d'
reject result_without_name "without a description" 's/ok 1 first # checks=3/ok 1 # checks=3/'
reject unclosed_suite "ends inside nested test 'suite'" '/^not ok 1 suite/,$d'
reject expected_counts "expected pass:3 fail:0 skip:0" '' --expect 3,0,0
reject classes_do_not_add_up "failures per class add up to 2, fail:1" \
	's/^# Totals: .*/& contract:0 wrong-answer:1 crash:1/'
reject classes_incomplete "failures per class need all of" 's/^# Totals: .*/& crash:1/'

# A plan-less stream is valid KTAP when allowed (the number of tests is not known).
accept planless_with_no_plan --no-plan --expect 1,1,0 \
	<<<$'KTAP version 1\nok 1 a\n# note\nnot ok 2 b # ERROR exploded'
# Two levels of nesting; a failed program whose cases passed counts one more failure.
printf '%s\n' 'KTAP version 1' '1..2' '  KTAP version 1' '  # Subtest: outer' '  1..1' \
	'    KTAP version 1' '    # Subtest: inner' '    1..2' '    ok 1 x' '    ok 2 y' \
	'  # inner: pass:2 fail:0 skip:0 total:2' '  ok 1 inner' \
	'# outer: pass:2 fail:0 skip:0 total:2' 'ok 1 outer' \
	'  KTAP version 1' '  # Subtest: prog' '  1..1' '  ok 1 z' \
	'# prog: pass:1 fail:1 skip:0 total:2' 'not ok 2 prog # ERROR exit status 1' \
	'# Totals: pass:3 fail:1 skip:0 total:4' >"$tmp/nested"
accept nested_levels --totals --expect 3,1,0 <"$tmp/nested"
exit $((failed > 0))
