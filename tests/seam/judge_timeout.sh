#!/usr/bin/env bash
# scripts/kernel-judge's unit and KUnit columns on a run cut short, with
# stand-ins (nothing built from a kernel tree):
#   1 a unit program that prints a failed case and then hangs, stopped at
#     its limit (scripts/unit-run --limit 1): the failed case with its
#     class, and one more failure "(timeout) crash -"; FAIL counts both
#   2 one that exits non-zero with no failed case: "(exit 3) crash -"; a
#     clean one: its counts, no record
#   3 a KUnit run stopped at scripts/kunit's limit after a failed case
#     (scripts/kunit-records): the case and "kfail (timeout)", a failure,
#     never "no result"; a finished run with a failed case as before
#   4 a finished KUnit run whose cases all passed but which WARNed
#     ("# warnings: N" after the results): a "kwarn N" record, a failure
# KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
# No tests/lib/sh/common.sh: it resolves python3, which this test does not need.
# shellcheck source=tests/lib/sh/ktap.sh
. "$root/tests/lib/sh/ktap.sh"
ktap_begin
cd "$tmp" || exit 1
echo "1..4"

# The unit runner's shape (tests/lib/ktap.c), then a hang: sleep is
# stopped by the limit whatever the machine's load (it never ends first).
cat >test_hang <<'EOS'
#!/bin/sh
printf '%s\n' 'KTAP version 1' '1..1' '  KTAP version 1' '  1..3' \
	'  ok 1 first checks=3' \
	'  # class=contract fn=percpu_counter_tree_approximate_compare_value' \
	'  not ok 2 second'
exec sleep 600
EOS
chmod +x test_hang
got=$("$root/scripts/unit-run" --limit 1 ./test_hang hang.out)
want=$'count\t1\t2\t0\n'
want+=$'ufail\ttest_hang\tsecond\tcontract\tapproximate_compare_value\n'
want+=$'ufail\ttest_hang\t(timeout)\tcrash\t-'
[ "$got" = "$want" ]
result $? unit_timeout_after_failed_case "got: $got"$'\n'"$(cat hang.out)"

printf '#!/bin/sh\nprintf "  ok 1 a\\n  ok 2 b # SKIP no\\n"\nexit 3\n' >test_exit
printf '#!/bin/sh\nprintf "  ok 1 a\\n  ok 2 b\\n"\n' >test_ok
chmod +x test_exit test_ok
ok=0
got=$("$root/scripts/unit-run" ./test_exit exit.out)
[ "$got" = $'count\t1\t1\t1\nufail\ttest_exit\t(exit 3)\tcrash\t-' ] || ok=1
got2=$("$root/scripts/unit-run" ./test_ok ok.out)
[ "$got2" = $'count\t2\t0\t0' ] || ok=1
result $ok unit_exit_and_clean "got: $got"$'\n'"$got2"

# As scripts/kunit leaves them when its limit expires mid-run.
printf '%s\n' 'KTAP version 1' '1..1' '    KTAP version 1' '    # Subtest: x' '    1..3' \
	'    ok 1 hpcc_a' '    # hpcc_b: class=contract: got 1' '    not ok 2 hpcc_b' >cut.ktap
printf 'kunit: no verdict: the time limit (1h) expired; KTAP so far in cut.ktap\n' >cut.log
got=$("$root/scripts/kunit-records" cut.log cut.ktap 4)
rc=$?
ok=0
[ "$rc" = 1 ] && [ "$got" = $'kunit\t1\t2\t0\nkfail\thpcc_b\nkfail\t(timeout)' ] || ok=1
cp cut.ktap done.ktap
printf '# Totals: pass:1 fail:1 skip:0\n' >>done.ktap
printf 'kunit: KTAP in done.ktap, exit 1\n' >done.log
got2=$("$root/scripts/kunit-records" done.log done.ktap 1)
rc2=$?
[ "$rc2" = 1 ] && [ "$got2" = $'kunit\t1\t1\t0\nkfail\thpcc_b' ] || ok=1
result $ok kunit_timeout_after_failed_case "got ($rc): $got"$'\n'"got ($rc2): $got2"

printf '%s\n' 'KTAP version 1' '1..1' '    KTAP version 1' '    # Subtest: x' '    1..2' \
	'    # hpcc_a: WARNING 3; first: x.c:1' '    ok 1 hpcc_a' '    ok 2 hpcc_b' \
	'# Totals: pass:2 fail:0 skip:0 total:2' 'ok 1 x' '# warnings: 3' >warn.ktap
printf 'kunit: KTAP in warn.ktap, exit 0\n' >warn.log
got=$("$root/scripts/kunit-records" warn.log warn.ktap 0)
rc=$?
[ "$rc" = 1 ] && [ "$got" = $'kunit\t2\t0\t0\nkwarn\t3' ]
result $? kunit_warn_is_a_finding "got ($rc): $got"
[ "$failed" = 0 ]
