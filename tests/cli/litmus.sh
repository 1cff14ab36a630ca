#!/usr/bin/env bash
# Litmus tests (docs/explore.md#litmus-tests): our own tests/litmus/*.litmus,
# translated by scripts/litmus and explored under sc, tso and pso, keep the
# rule: no outcome LKMM says Never is observed, and each test's weak
# outcome is observed under exactly the models its Shown-under: line names
# (SB and R under tso and pso, MP, S, ISA2, 2+2W and a critical section read
# without its lock under pso, a reader that starts after a grace period
# under all three, double-checked locking without acquire and release
# under pso, LB, WRC, IRIW and Z6.0 under none; a filter clause keeps the
# roach-motel tests' Never). Their table is
# docs/litmus.md's, row for row (with, for each Never, whether pso shows it
# once its ordering is taken out), and has a row of each pattern, verdict
# and primitive family (locks, RCU, atomics, dependencies) that
# docs/litmus-kernel.md reports for the kernel's own tests. The check is
# shown to fail on a Never that is observed and on a wrong Shown-under:
# line; an unsupported primitive is a skipped row; bad input is exit 2. A
# weak outcome's schedule names the test's variables.
set -u
XP=${BUILD:-build/cc}/explore/explore
here=$(cd "$(dirname "$0")/../.." && pwd)
echo "KTAP version 1"
NR=8
echo "1..$NR"
if [ ! -x "$XP" ]; then
	for i in $(seq 1 $NR); do echo "ok $i litmus_$i # SKIP no $XP"; done
	exit 0
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
rc=0
n=0
lit() { python3 "$here/scripts/litmus" --explore "$XP" "$@"; }
# result NAME CONDITION-STATUS DETAIL
result() {
	n=$((n + 1))
	if [ "$2" -eq 0 ]; then
		echo "ok $n $1"
	else
		printf '%s\n' "$3" | sed 's/^/# /' | tail -15
		echo "not ok $n $1"
		rc=1
	fi
}

out=$(lit --check "$here"/tests/litmus/*.litmus 2>&1)
got=$?
nr=$(find "$here/tests/litmus" -name '*.litmus' | wc -l)
[ $got -eq 0 ] && grep -q "^# $nr translated, 0 skipped, 0 failing" <<<"$out" &&
	grep -q '^| .SB. | Sometimes | - | never ([0-9]*) | observed ([0-9]*) | observed' <<<"$out" &&
	grep -q '^| .MP. | Sometimes | - | never ([0-9]*) | never ([0-9]*) | observed' <<<"$out" &&
	grep -q '^| .LB+ctrl+mb. | Never | ctrl | .* | never under pso ([0-9]*): trivial here |' <<<"$out" &&
	grep -q '^| .MP+locks. | Never | lock | .* | pso observes it ([0-9]*) |' <<<"$out" &&
	diff <(grep '^|' <<<"$out") <(grep '^|' "$here/docs/litmus.md") >"$dir/diff"
result own_litmus_tests_match_docs $? "exit $got (make docs-litmus rewrites docs/litmus.md)
$(cat "$dir/diff")
$out"

# Each pattern (the name up to its first '+', less a trailing -N), verdict
# and primitive family of the kernel's table has a test of ours; a kernel
# file without a Result: line ('?'), any verdict.
missing=$(awk -F' [|] ' '
	FNR == 1 { k++ }
	/^[|] `/ && NF >= 8 { name = $1; sub(/^[|] `/, "", name); sub(/[+`].*/, "", name)
		   sub(/-[0-9]+$/, "", name); fam = name " " $3
		   if (k == 1) { if ($2 == "?") any[fam] = 1; else want[fam " " $2] = 1 }
		   else { have[fam " " $2] = 1; seen[fam] = 1 } }
	END { for (w in want) if (!(w in have)) print w
	      for (a in any) if (!(a in seen)) print a }' \
	"$here/docs/litmus-kernel.md" "$here/docs/litmus.md" | sort)
[ -z "$missing" ] && grep -q '^| `SB+poonceonces` | Sometimes' "$here/docs/litmus-kernel.md" &&
	grep -q '^| `RCU+sync+free` | Never | ptr,rcu' "$here/docs/litmus-kernel.md"
result kernel_patterns_covered $? "no test of ours for: $missing"

# SB claimed Never: observed under tso and pso, the check must fail.
sed 's/Result: Sometimes/Result: Never/; /Shown-under/d' "$here/tests/litmus/SB.litmus" \
	>"$dir/SB-never.litmus"
out=$(lit --check "$dir/SB-never.litmus" 2>&1)
got=$?
[ $got -eq 1 ] && grep -q '^# FAIL SB: LKMM says Never' <<<"$out"
result never_observed_fails $? "exit $got
$out"

# The weak outcome's schedule names the test's variables (the explorer
# given the translation's own form directly: SB, observed under tso).
printf '%s\n' 'var a 0' 'var b 0' 'thread' 'st a 1 once' 'ld r0 b once' 'thread' \
	'st b 1 once' 'ld r0 a once' 'exists 0:r0=0 1:r0=0' >"$dir/sb.xp"
out=$("$XP" --harness litmus --litmus "$dir/sb.xp" --memory-model tso --bound -1 2>&1)
got=$?
[ $got -eq 1 ] && grep -q '^#  *[0-9]* fiber 0 write a$' <<<"$out" &&
	grep -q '^#  *[0-9]* fiber 1 read a$' <<<"$out" && ! grep -q 'fiber .* 0x' <<<"$out"
result schedule_names_variables $? "exit $got
$out"

# MP claimed shown under tso too: pso alone shows it.
sed 's/Shown-under: pso/Shown-under: tso pso/' "$here/tests/litmus/MP.litmus" >"$dir/MP-tso.litmus"
out=$(lit --check "$dir/MP-tso.litmus" 2>&1)
got=$?
[ $got -eq 1 ] && grep -q '^# FAIL MP: Shown-under: pso tso' <<<"$out"
result wrong_shown_under_fails $? "exit $got
$out"

# A primitive kcompat's translation lacks: a skipped row, no verdict (4).
sed 's/WRITE_ONCE(\*a, 1);/atomic_andnot(1, a);/' "$here/tests/litmus/SB.litmus" \
	>"$dir/SB-andnot.litmus"
out=$(lit --check "$dir/SB-andnot.litmus" 2>&1)
got=$?
[ $got -eq 4 ] && grep -q "skipped: 'atomic_andnot(1, a)'" <<<"$out"
result unsupported_is_skipped $? "exit $got
$out"

# Bad input: not a litmus file, and a missing one.
printf 'hello\n' >"$dir/bad.litmus"
out=$(lit "$dir/bad.litmus" 2>&1)
got=$?
[ $got -eq 2 ] && grep -q "no 'C NAME' line" <<<"$out"
result bad_file_exit_2 $? "exit $got
$out"
out=$(lit "$dir/missing.litmus" 2>&1)
got=$?
[ $got -eq 2 ]
result missing_file_exit_2 $? "exit $got
$out"
exit $rc
