#!/usr/bin/env bash
# tier: long
# The kernel OOM selection seam, without a kernel tree: our own
# kernel-style fixtures (tests/seam/fixtures/koom/{two-pass,one-pass}) go through
# the same path as a real tree's mm/oom_kill.c:
#  - scripts/kextract on its own: extraction, #if branches, refusals (one
#    line naming the function, the file and what was expected; exit 2);
#  - scripts/koom-probe: variant, accuracy type, signature, accessors, and
#    its refusals on fixture variants derived from the good fixture;
#  - a KERNEL_SRC build per fixture tree (our lib/hpcc laid beside it):
#    test_oom and test_oom_rcu against the extracted code;
#  - a broken copy of the two-pass fixture must fail test_oom (live seam).
# Env: BUILD (default build/cc), CC. KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
. tests/lib/sh/seam.sh
seam_begin 8 koom-seam
fx=tests/seam/fixtures/koom

# 1. Extraction: exact text, source order, #line, nothing else.
bad=
src=$fx/two-pass/mm/oom_kill.c
out=$(scripts/kextract -DCONFIG_MMU "$src" select_bad_process oom_badness \
	max_precise_badness_sums 2>"$log") || bad+="kextract failed: $(cat "$log")"$'\n'
python3 tests/lib/extract_check.py oom "$src" <<<"$out" || bad+="extracted text differs from the file"$'\n'
result 1 kextract_verbatim_in_source_order

# 2. #if branches: the configuration picks one definition.
bad=
numa=$(scripts/kextract -DCONFIG_NUMA "$src" oom_cpuset_eligible 2>&1)
flat=$(scripts/kextract "$src" oom_cpuset_eligible 2>&1)
grep -q 'for_each_thread' <<<"$numa" || bad+="-DCONFIG_NUMA did not take the NUMA branch"$'\n'
grep -q 'return true;' <<<"$flat" && ! grep -q 'for_each_thread' <<<"$flat" ||
	bad+="without CONFIG_NUMA: not the #else branch: $flat"$'\n'
opt=$(scripts/kextract "$src" '?no_such_function' oom_unkillable_task 2>&1) &&
	grep -q '^static bool oom_unkillable_task' <<<"$opt" ||
	bad+="an optional missing name is an error: $opt"$'\n'
result 2 kextract_if_branches_and_optional

# 3. kextract refusals, one clear line each.
bad=
v=$work/variants
mkdir -p "$v"
refused missing no_such_function "$src" scripts/kextract "$src" no_such_function
refused declared-only mm_trace_fixture "$v/decl.c" \
	bash -c "printf 'void mm_trace_fixture(int x);\n' > $v/decl.c; scripts/kextract $v/decl.c mm_trace_fixture"
sed -e 's/^static int oom_evaluate_task(/\tstatic int oom_evaluate_task(/' "$src" >"$v/indented.c"
refused indented oom_evaluate_task "$v/indented.c" scripts/kextract "$v/indented.c" oom_evaluate_task
python3 tests/lib/extract_check.py brace "$src" "$v/brace.c"
refused closing-brace oom_badness "$v/brace.c" scripts/kextract "$v/brace.c" oom_badness
printf 'static void fixture_twice(void)\n{\n}\n\nstatic void fixture_twice(void)\n{\n}\n' >"$v/twice.c"
refused duplicate fixture_twice "$v/twice.c" scripts/kextract "$v/twice.c" fixture_twice
printf '#ifdef CONFIG_NUMA\nstatic void fixture_numa(void)\n{\n}\n#endif\n' >"$v/numa.c"
refused configured-out fixture_numa "$v/numa.c" scripts/kextract "$v/numa.c" fixture_numa
printf 'static void fixture_open(void)\n{\n\tif (1) {\n}\n' >"$v/open.c"
refused unbalanced fixture_open "$v/open.c" scripts/kextract "$v/open.c" fixture_open
refused unreadable oom_badness "$v/none.c" scripts/kextract "$v/none.c" oom_badness
result 3 kextract_refuses_with_one_line

# Trees: a fixture's two files plus our hpcc, as a kernel tree is laid out.
mktree() {	# DIR VARIANT
	mkdir -p "$1/mm" "$1/include/linux" "$1/lib"
	cp "$fx/$2/mm/oom_kill.c" "$1/mm/"
	cp "$fx/$2/include/linux/mm.h" "$1/include/linux/"
	cp lib/hpcc/percpu_counter_tree.c "$1/lib/"
	cp lib/hpcc/include/linux/percpu_counter_tree.h "$1/include/linux/"
}
for t in two-pass one-pass; do
	mktree "$work/tree-$t" "$t"
done

# 4. The probe: what it found, written for the build.
bad=
for t in two-pass one-pass; do
	if ! scripts/koom-probe "$work/tree-$t" "$work/probe-$t" "$work/probe-$t" >"$log" 2>&1; then
		bad+="$t: $(cat "$log")"$'\n'
		continue
	fi
	api=$work/probe-$t/oom_api.h
	case $t in
	two-pass) want='TWO_PASS	1|ACC_TYPE	unsigned long|BADNESS_ARGS	5|ACCESSORS	"fixture_mm_counter fixture_mm_rss mm_pgtables_bytes"|ACC_ADAPT	0' ;;
	one-pass) want='TWO_PASS	0|BADNESS_ARGS	2|ACCESSORS	"fixture_counter_sum fixture_rss_sum mm_pgtables_bytes"' ;;
	esac
	IFS='|' read -ra keys <<<"$want"
	for k in "${keys[@]}"; do
		grep -qF "#define OOM_API_$k" "$api" || bad+="$t: oom_api.h lacks OOM_API_$k"$'\n'
	done
done
result 4 koom_probe_variants

# 5. Probe refusals on variants of the two-pass fixture.
bad=
variant() {	# NAME SED-EXPRESSION: a copy of the two-pass tree, changed
	mktree "$work/bad-$1" two-pass
	sed -i -e "$2" "$work/bad-$1/mm/oom_kill.c"
}
variant args 's/^long oom_badness(struct task_struct \*p, unsigned long totalpages, bool approximate,$/long oom_badness(struct task_struct *p, unsigned long totalpages, bool approximate)/; /^\t\t unsigned long \*accuracy_under, unsigned long \*accuracy_over)$/d'
refused signature oom_badness "$work/bad-args/mm/oom_kill.c" \
	scripts/koom-probe "$work/bad-args" "$work/bad-args/o" "$work/bad-args/o"
variant nopass 's/oc->approximate/oc->fixture_pass/g'
refused no-two-pass-state oom_evaluate_task "$work/bad-nopass/mm/oom_kill.c" \
	scripts/koom-probe "$work/bad-nopass" "$work/bad-nopass/o" "$work/bad-nopass/o"
variant noscan '/^static void select_bad_process_iter/,/^}/d'
refused no-iter select_bad_process_iter "$work/bad-noscan/mm/oom_kill.c" \
	scripts/koom-probe "$work/bad-noscan" "$work/bad-noscan/o" "$work/bad-noscan/o"
mktree "$work/bad-order" two-pass
python3 tests/lib/extract_check.py scan-first "$work/bad-order/mm/oom_kill.c"
refused helper-after-scan oom_evaluate_task "$work/bad-order/mm/oom_kill.c" \
	scripts/koom-probe "$work/bad-order" "$work/bad-order/o" "$work/bad-order/o"
mktree "$work/bad-acc" two-pass
sed -i -e 's/fixture_mm_rss(p->mm, approximate, accuracy_under, accuracy_over)/fixture_rss_total(p->mm)/' \
	"$work/bad-acc/mm/oom_kill.c"
refused no-accessors oom_badness "$work/bad-acc/mm/oom_kill.c" \
	scripts/koom-probe "$work/bad-acc" "$work/bad-acc/o" "$work/bad-acc/o"
result 5 koom_probe_refuses_with_one_line

# 6-7. Each tree through KERNEL_SRC: the OOM unit tests run the extracted code.
# The trees differ only in their mm/ files: each is laid in turn into one
# tree, $ks, built in one build directory, $kb, so that make rebuilds what
# depends on the files that differ (and probes each tree anew: the probe's
# stamp is removed), not the whole suite once per tree.
tests=(tests/test_oom tests/test_oom_rcu)
ks=$work/slot-src kb=$work/slot
mkdir -p "$ks"
cp -r "$work/tree-two-pass/lib" "$work/tree-two-pass/include" "$ks/"
kbuild() {	# TREE: lay its mm files into $ks, build the tests in $kb
	local f
	for f in mm/oom_kill.c include/linux/mm.h; do
		mkdir -p "$(dirname "$ks/$f")"
		cmp -s "$1/$f" "$ks/$f" || cp "$1/$f" "$ks/$f" || return 1
	done
	rm -f "$kb/koom/.probed"
	make --no-print-directory -j2 KERNEL_SRC="$ks" BUILD="$kb" CC="$cc" \
		"${tests[@]/#/$kb/}" >"$log" 2>&1
}
n=6
for t in two-pass one-pass; do
	bad=
	if ! kbuild "$work/tree-$t"; then
		bad+="build: $(tail -n 20 "$log")"$'\n'
	else
		want=$([ $t = two-pass ] && echo v16 || echo precise)
		"$kb/tests/test_oom" >"$log" 2>&1 || bad+="test_oom: $(grep -B3 '^ *not ok' "$log")"$'\n'
		grep -q "^ *# impl $want: kernel $ks/mm/oom_kill.c" "$log" ||
			bad+="test_oom did not run $want from the fixture: $(grep '^ *# impl' "$log")"$'\n'
		grep -Eq '^  ok [0-9]+ oom_kernel_matches_model( # checks=[0-9]+)?$' "$log" ||
			bad+="oom_kernel_matches_model did not pass"$'\n'
		"$kb/tests/test_oom_rcu" >"$log" 2>&1 || bad+="test_oom_rcu: $(grep -B3 '^ *not ok' "$log")"$'\n'
	fi
	result $n "koom_${t/-/_}_unit_tests"
	n=$((n + 1))
done

# 8. The seam is live: the fixture with v16's budget off by one fails.
bad=
sed -i -e 's/^static int max_precise_badness_sums = 16;/static int max_precise_badness_sums = 17;/' \
	"$work/tree-two-pass/mm/oom_kill.c"
if ! grep -q 'max_precise_badness_sums = 17' "$work/tree-two-pass/mm/oom_kill.c"; then
	bad+="could not break the fixture copy"$'\n'
elif ! kbuild "$work/tree-two-pass"; then
	bad+="build of the broken copy: $(tail -n 20 "$log")"$'\n'
elif "$kb/tests/test_oom" >"$log" 2>&1; then
	bad+="the broken copy passed test_oom: the seam is not live"$'\n'
else
	echo "# the broken copy fails $(grep -c '^  not ok' "$log") test_oom cases"
fi
result 8 koom_seam_live
[ "$failed" -eq 0 ]
