#!/usr/bin/env bash
# scripts/san-cases, the asan column's failure records (docs/kernel-trees.md),
# on unit-program output without a sanitizer build:
#   1 a failed case carries the class and function the runner printed for
#     it (contract, approximate_compare_value), a case without a class line
#     the runner's wrong-answer; never every case wrong-answer
#   2 a program that timed out after a failed case: the case (the runner's
#     output for a case that never returned and was stopped at its case
#     limit: class crash) and one more record for the timeout
#   3 a sanitizer report (its file): the case the runner failed as a crash
#     carries its kind and frame; with no such case, one record for the
#     program
#   4 a report in the program's output (a forked case's UBSan report, no
#     file): the crashed case carries it
#   5 a non-zero exit without a failed case: crash, "exit N"; usage: exit 2
# KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
# No tests/lib/sh/common.sh: it resolves python3, which this test does not
# need, and that costs more than the test.
# shellcheck source=tests/lib/sh/ktap.sh
. "$root/tests/lib/sh/ktap.sh"
ktap_begin
cd "$tmp" || exit 1
sc=$root/scripts/san-cases
echo "1..5"

# The runner's shape (tests/lib/ktap.c): a failed case's summary line
# "# class=C fn=F" right before its "not ok".
cat >contract.out <<'EOF'
KTAP version 1
1..1
  KTAP version 1
  1..3
  # class=contract fn=percpu_counter_tree_approximate_compare_value tests/unit/x.c:9: got 0
  # compare_value_edges: 1 of 8 checks failed
  # class=contract fn=percpu_counter_tree_approximate_compare_value
  not ok 1 compare_value_edges
  ok 2 compare_pair checks=12
  # compare_value_quiet: no check was made
  not ok 3 compare_value_quiet
EOF
cases=$'afail\ttest_x\tcompare_value_edges\tcontract\tapproximate_compare_value\n'
cases+=$'afail\ttest_x\tcompare_value_quiet\twrong-answer\t-'
got=$("$sc" test_x contract.out 1)
[ "$got" = "$cases" ]
result $? runner_class_carried "got: $got"

# As test_hpcc_set prints it with KT_HANG_CASE=set_fresh_counter
# KT_CASE_TIMEOUT=1 (tests/lib/ktap.c), the program then stopped from outside.
cat >hang.out <<'EOF'
KTAP version 1
1..1
  KTAP version 1
  # Subtest: hpcc_set
  1..2
  # class=crash fn=- tests/lib/ktap.c:178: set_fresh_counter: timed out (KT_CASE_TIMEOUT) (signal 14)
  # set_fresh_counter: 1 of 0 checks failed
  # class=crash fn=-
  not ok 1 set_fresh_counter
EOF
got=$("$sc" test_hpcc_set hang.out 124)
want=$'afail\ttest_hpcc_set\tset_fresh_counter\tcrash\t'
printf '%s\n' "$got" | grep -q "^$want" &&
	[ "$(printf '%s\n' "$got" | tail -1)" = $'afail\ttest_hpcc_set\t-\tcrash\ttimeout' ] &&
	[ "$(printf '%s\n' "$got" | wc -l)" = 2 ]
result $? timeout_after_failed_case "got: $got"$'\n'"$(cat hang.out)"

ok=0
cat >report.1 <<'EOF'
==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6 at pc 0x5 bp 0x4 sp 0x3
WRITE of size 8 at 0x6 thread T0
    #0 0x5 in atomic_add_return_relaxed /src/lib/kcompat/include/linux/atomic.h:30
    #1 0x5 in percpu_counter_tree_add /k/lib/percpu_counter_tree.c:9
EOF
what='heap-buffer-overflow in percpu_counter_tree_add (lib/percpu_counter_tree.c:9)'
got=$("$sc" test_hpcc_set hang.out 1 report.1)
[ "$got" = $'afail\ttest_hpcc_set\tset_fresh_counter\tcrash\t'"$what" ] || ok=1
got2=$("$sc" test_x contract.out 1 report.1)
[ "$got2" = "$cases"$'\n'$'afail\ttest_x\t-\tcrash\t'"$what" ] || ok=1
result $ok report_on_crashed_case "got: $got"$'\n'"$got2"

cat >inline.out <<'EOF'
KTAP version 1
1..1
  KTAP version 1
  1..2
  ok 1 carry_named_edges # checks=74
/k/lib/percpu_counter_tree.c:214:34: runtime error: shift exponent -1 is negative
    #0 0x5 in __percpu_counter_tree_init /k/lib/percpu_counter_tree.c:214
    #1 0x5 in carry_batch_4g_one tests/unit/test_hpcc_carry.c:251

  # class=crash fn=- tests/lib/ktap.c:181: carry_batch_4g: exited with status 67 (sanitizer report?)
  # class=crash fn=-
  not ok 2 carry_batch_4g
EOF
got=$("$sc" test_hpcc_carry inline.out 1)
[ "$got" = $'afail\ttest_hpcc_carry\tcarry_batch_4g\tcrash\tshift exponent -1 is negative in __percpu_counter_tree_init (lib/percpu_counter_tree.c:214)' ]
result $? report_in_output "got: $got"

: >empty.out
ok=0
[ "$("$sc" test_x empty.out 139)" = $'afail\ttest_x\t-\tcrash\texit 139' ] || ok=1
[ -z "$("$sc" test_x empty.out 0)" ] || ok=1
"$sc" test_x empty.out bogus 2>err
[ $? = 2 ] && [ "$(wc -l <err)" = 1 ] || ok=1
result $ok exit_without_case_and_usage
[ "$failed" = 0 ]
