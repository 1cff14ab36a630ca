#!/usr/bin/env bash
# tier: long
# The KERNEL_SRC seam: kernel-shaped fixture trees, built
# unchanged through make KERNEL_SRC=, judged with the verdicts and failure
# classes the issue asks for. The fixtures are ours (never kernel text):
#   base            lib/hpcc laid out as a kernel tree; its header includes
#                   only what the kernel's does and its .c no <linux/export.h>
#                   (both rely on kcompat's include chains). Every unit test
#                   passes; breaking its root add makes the hpcc tests fail.
#   swapped         compare_delta's tolerances swapped: exactly the two
#                   compare-value cases fail, class contract, one line each;
#                   at the worst reachable states (test_hpcc_edges, T > over
#                   from 9 CPUs with batch 2) it gives wrong answers: both
#                   comparison cases fail, class wrong-answer
#   assign          accuracy_range assigns: probed, accumulate test SKIPs
#   count-order-int the carry bit from an unsigned int get_count_order():
#                   carry_batch_4g fails, class wrong-answer, nothing else
#   items-fn        items_size a plain function, no ITEMS_ALIGN: probed
#   rfc             the early RFC API: refused in one line, exit 2; the
#                   adapter (make adapt) judges it: every check the API
#                   can express passes, the others SKIP naming the limit
#   rfc-sign        compare_value answers sign(counter - v): both
#                   compare_value cases fail, class wrong-answer
#   rfc-cmp         precise_compare never answers 1: the pair case fails
#   rfc-lossy       half carries and an off-by-one set(): the conservation
#                   and set cases fail, and the pair case (b set one off),
#                   class wrong-answer
#   int-items       the intermediate API (int values, caller items, unsigned
#                   int batch and range): the adapter runs all but the long
#                   values check, which SKIPs naming the limit
# and ./stress through the adapter (make adapt-stress, --steps bounded): on
# rfc and int-items counter_storm passes and oom_race, compaction_churn SKIP
# with the reason; rfc-sign fails its compare invariant, rfc-lossy a window
# of the tree's own range (or a comparison its lost carries make wrong).
# Variants are base + tests/seam/fixtures/ktrees/<name>.patch (rfc-* patch the
# rfc tree); rfc and int-items are trees of their own. The variants are laid
# in turn into two slots under $BUILD/kfix (slot_of below): make rebuilds
# what depends on the files that differ, not the whole suite per variant.
# Env: BUILD (default build/cc), CC. KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
# shellcheck source=tests/lib/sh/ktree.sh
. tests/lib/sh/ktree.sh
echo "KTAP version 1"
if [ -n "${KERNEL_SRC:-}" ]; then
	echo "1..1"
	echo "ok 1 fixture_trees # SKIP already building against KERNEL_SRC"
	exit 0
fi
echo "1..16"

build=${BUILD:-build/cc}
fx=tests/seam/fixtures/ktrees
kfix=$build/kfix
cc=${CC:-cc}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Not a sub-make of the caller: no inherited jobserver or variables.
unset MAKEFLAGS MAKELEVEL MFLAGS
rc=0

fail_with_log() {
	sed -e 's/^/# /' "$log" | tail -n 30
	echo "not ok $1 $2"
	rc=1
}

# The variants share two slots (tests/lib/sh/ktree.sh), each tree laid in
# turn: lib (the full suite's trees: base, swapped, assign,
# count-order-int, then items-fn, whose header differs) and rfc (the
# adapter's: the rfc tree, rfc-*, then int-items, whose header differs).
# A tree whose header differs comes last in its slot, so that the objects
# that include the header are rebuilt once, not again for the next tree;
# kcompat and what else reads no tree file are built once a slot. The
# tree at $kfix/SLOT-src is built into $kfix/SLOT.
slot_of() {
	case $1 in
	rfc|rfc-*|int-items) echo rfc ;;
	*) echo lib ;;
	esac
}

# lay NAME: write NAME's tree (lib/hpcc + NAME.patch, or a tree of its own)
# into its slot; $slot names the slot.
lay() {
	local new=$kfix/lay
	slot=$(slot_of "$1")
	rm -rf "$new"
	mkdir -p "$new/lib" "$new/include/linux"
	if [ -d "$fx/$1" ]; then
		cp "$fx/$1/lib/percpu_counter_tree.c" "$new/lib/"
		cp "$fx/$1/include/linux/percpu_counter_tree.h" "$new/include/linux/"
	else
		case $1 in
		rfc-*)
			cp "$fx/rfc/lib/percpu_counter_tree.c" "$new/lib/"
			cp "$fx/rfc/include/linux/percpu_counter_tree.h" "$new/include/linux/"
			;;
		*)
			cp lib/hpcc/percpu_counter_tree.c "$new/lib/"
			cp lib/hpcc/include/linux/percpu_counter_tree.h "$new/include/linux/"
			;;
		esac
		[ "$1" = base ] || patch -s -d "$new" -p1 <"$fx/$1.patch" || return 1
	fi
	slot_place "$new" "$kfix/$slot-src" "$kfix/$slot"
}

# kbuild NAME TARGET...: lay NAME, build targets (paths under its slot's build dir).
kbuild() {
	lay "$1" || return 1
	shift
	kmake "$@"
}

# kmake TARGET...: build targets in the slot laid last.
kmake() {
	local t targets=()
	for t in "$@"; do
		targets+=("$kfix/$slot/$t")
	done
	make --no-print-directory -j2 KERNEL_SRC="$kfix/$slot-src" BUILD="$kfix/$slot" \
		CC="$cc" "${targets[@]}"
}

api_of() {
	sed -n 's/^#define HPCC_API_DESC "\(.*\)"/\1/p' "$kfix/$(slot_of "$1")/kinc/hpcc_api.h"
}

unit_tests=()
for f in tests/unit/test_*.c; do
	unit_tests+=("tests/$(basename "$f" .c)")
done

# 1. base: builds unchanged, every unit test passes. The test runner
#    (scripts/run-tests) reads no tree file: the suite's own, not one
#    built again in the slot.
if ! kbuild base "${unit_tests[@]}" >"$log" 2>&1 ||
   ! make --no-print-directory BUILD="$build" CC="$cc" "$build/ktap-run" >>"$log" 2>&1; then
	fail_with_log 1 base_builds_and_passes
	echo "ok 2 seam_live # SKIP no base build"
else
	progs=()
	for t in "${unit_tests[@]}"; do
		progs+=("$kfix/lib/$t")
	done
	if grep -q -- "$kfix/lib-src/lib/percpu_counter_tree.c" "$kfix/lib/.flags" &&
	   BUILD="$build" CC="$cc" scripts/run-tests "${progs[@]}" >"$log" 2>&1; then
		echo "# base: API $(api_of base); unit tests $(sed -n 's/^# Totals: //p' "$log" |
			sed 's/:\([0-9]\)/=\1/g')"
		echo "ok 1 base_builds_and_passes"
	else
		fail_with_log 1 base_builds_and_passes
	fi
	# 2. Break the copy: the root never receives carries. The tests must
	#    notice: one failing program answers the case, so the next is built
	#    and run only while none has failed.
	sed -i 's/^\([[:space:]]*\)atomic_long_add(inc, counter->approx_sum\.a);/\1(void)inc;/' \
		"$kfix/lib-src/lib/percpu_counter_tree.c"
	rm -f "$kfix/lib/hpcc/percpu_counter_tree.o"
	failed=0
	if cmp -s lib/hpcc/percpu_counter_tree.c "$kfix/lib-src/lib/percpu_counter_tree.c"; then
		echo "# could not find the root add to remove in lib/hpcc/percpu_counter_tree.c"
	else
		for t in test_hpcc_carry test_hpcc_accuracy; do
			kmake "tests/$t" >"$log" 2>&1 || break
			"$kfix/lib/tests/$t" >/dev/null 2>&1 || { failed=1; break; }
		done
	fi
	if [ $failed -gt 0 ]; then
		echo "ok 2 seam_live"
	else
		echo "# the broken copy passed: the seam is not live"
		echo "not ok 2 seam_live"
		rc=1
	fi
fi

# check N NAME TEST CASE...: build fixture NAME, run TEST; $out holds its output
# (one KTAP document: the suite's cases are indented two spaces).
out=$kfix/out
run_fixture() {
	local n=$1 name=$2 test=$3
	shift 3
	if ! kbuild "$name" "tests/$test" >"$log" 2>&1; then
		fail_with_log "$n" "$name"
		return 1
	fi
	"$kfix/$slot/tests/$test" "$@" >"$out" 2>&1
	return 0
}

# expect N NAME WHAT CONDITION...: report the outcome of a check on $out.
expect() {
	local n=$1 name=$2 what=$3
	shift 3
	if "$@"; then
		echo "ok $n $name"
	else
		sed -e 's/^/# /' "$out" | grep -E 'class=|not ok|SKIP' | head -n 12
		echo "# $name: $what"
		echo "not ok $n $name"
		rc=1
	fi
}

# 3. swapped tolerances: exactly the two compare-value cases, class contract.
swapped_ok() {
	[ "$(grep -c '^  not ok' "$out")" = 2 ] &&
	grep -q '^  not ok 1 compare_value_edges$' "$out" &&
	grep -q '^  not ok 2 compare_value_with_residual$' "$out" &&
	[ "$(grep -c '^  # class=contract fn=percpu_counter_tree_approximate_compare_value$' \
		"$out")" = 2 ] &&
	! grep -q 'class=wrong-answer\|class=crash' "$out" &&
	grep -q 'compare_value: v - approx = +under (+[0-9]*) returns 1; the documented range is \[-over, +under\] = .*, so the answer must be 0' "$out"
}
if run_fixture 3 swapped test_hpcc_compare; then
	expect 3 swapped "want exactly compare_value_edges and _with_residual, class contract" \
		swapped_ok
fi

# 4. the same swap at the worst reachable residuals: wrong answers,
#    the case classed by its worst check and named after the function
#    (the tree laid for 3 is still there: nothing but this test is built).
swapped_edges_ok() {
	grep -q '^  ok 1 residual_constructor' "$out" &&
	grep -q '^  not ok 2 compare_value_extremes$' "$out" &&
	grep -q '^  not ok 3 compare_pair_extremes$' "$out" &&
	grep -q '^  # class=wrong-answer fn=percpu_counter_tree_approximate_compare_value$' "$out" &&
	grep -q '^  # class=wrong-answer fn=percpu_counter_tree_precise_compare$' "$out" &&
	grep -q 'class=wrong-answer fn=percpu_counter_tree_precise_compare .*cpus=9 call=f(x,y) x=\[batch [0-9]* R [0-9]* approx -\?[0-9]* precise -\?[0-9]*\] y=\[batch [0-9]* R [0-9]*' "$out" &&
	grep -q 'failed by class: contract=0 wrong-answer=2 crash=0' "$out"
}
if run_fixture 4 swapped test_hpcc_edges; then
	expect 4 swapped_edges "want both comparison cases failing, class wrong-answer, with the configuration and both residuals" \
		swapped_edges_ok
fi

# 5. accuracy_range assigns: probed; the accumulate contract test is skipped.
assign_ok() {
	api_of assign | grep -q 'accuracy_range=assigns' &&
	grep -q '^  ok 4 accuracy_query_accumulates # SKIP .*assigns' "$out" &&
	! grep -q '^  not ok' "$out"
}
if run_fixture 5 assign test_hpcc_accuracy; then
	expect 5 assign "want accuracy_range=assigns probed and the accumulate test skipped" \
		assign_ok
fi

# 6. the wrapper lib/mm uses accumulates on that tree too: the OOM tests pass.
if run_fixture 6 assign test_oom; then
	expect 6 assign_oom "the OOM model must not depend on the variant" \
		bash -c "! grep -q '^  not ok' '$out' && grep -q '^  ok ' '$out'"
fi

# 7. unsigned int get_count_order: only the named batch >= 2^32 test fails.
count_order_ok() {
	[ "$(grep -c '^  not ok' "$out")" = 1 ] &&
	grep -q '^  not ok 2 carry_batch_4g$' "$out" &&
	grep -q '^  # class=wrong-answer fn=percpu_counter_tree_init$' "$out" &&
	grep -q 'batch 0x100000000 (2^32): carry bit 0x[0-9a-f]*, want 0x100000000' "$out"
}
if run_fixture 7 count-order-int test_hpcc_carry carry_batch_4g; then
	expect 7 count_order_int "want carry_batch_4g alone, class wrong-answer" count_order_ok
fi

# 8. items_size a function, no ITEMS_ALIGN: probed; the life cycle adapts.
items_fn_ok() {
	api_of items-fn | grep -q 'items_size=function items_align=no' &&
	! grep -q '^  not ok' "$out" && grep -q '^  ok 3 lifecycle_static_items' "$out"
}
if run_fixture 8 items-fn test_hpcc_lifecycle; then
	expect 8 items_fn "want items_size=function items_align=no and the life cycle passing" \
		items_fn_ok
fi

# 9. the RFC API: refused in one line naming what is missing, exit 2.
kbuild rfc stress >"$out" 2>&1
mrc=$?
refusals=$(grep -c '^hpcc-stress: .* is not supported: ' "$out")
if [ $mrc -ne 0 ] && [ "$refusals" = 1 ] &&
   grep -q "precise_sum() present as 'int (\*)(struct percpu_counter_tree \*)'.*missing percpu_counter_tree_subsystem_init().*RFC API" "$out" &&
   ! grep -q 'error:' "$out"; then
	echo "# $(grep '^hpcc-stress: ' "$out" | cut -c1-150)..."
	echo "ok 9 rfc_refused"
else
	sed -e 's/^/# /' "$out" | tail -n 10
	echo "not ok 9 rfc_refused"
	rc=1
fi

# 10-14. The adapter (lib/hpcc_adapt) on the RFC-shaped trees the full suite
#        refuses: the program builds, its probes name the shape.
# run_adapt N NAME [stress]: build and run the adapter's test program on
# NAME; with "stress", also the run tests 15-16 judge (while NAME is laid).
run_adapt() {
	local n=$1 name=$2
	if ! kbuild "$name" adapt/test_hpcc_adapt >"$log" 2>&1; then
		fail_with_log "$n" "$name"
		[ -z "${3:-}" ] || { cp "$log" "$kfix/$name.stress"; echo build-failed >"$kfix/$name.stress-rc"; }
		return 1
	fi
	"$kfix/$slot/adapt/test_hpcc_adapt" >"$out" 2>&1
	[ -z "${3:-}" ] || run_adapt_stress "$name"
	return 0
}

# run_adapt_stress NAME: ./stress through the adapter on the tree laid
# (a bounded run: --steps); its output in $kfix/NAME.stress, its exit
# status in $kfix/NAME.stress-rc.
run_adapt_stress() {
	local o=$kfix/$1.stress
	if ! kmake adapt/stress >"$o" 2>&1; then
		echo build-failed >"$o-rc"
		return
	fi
	"$kfix/$slot/adapt/stress" --steps 2000 --duration 0 --cpus 4 --seed 25 \
		--replay-out "$kfix/$slot/replay-$1.txt" >"$o" 2>&1
	echo $? >"$o-rc"
}
rm -f "$kfix"/*.stress "$kfix"/*.stress-rc
adapt_desc() {
	sed -n 's/^#define HPCC_ADAPT_API_DESC "\(.*\)"/\1/p' "$kfix/$(slot_of "$1")/kinc/hpcc_adapt_api.h"
}
rfc_adapt_ok() {
	adapt_desc rfc | grep -q '^shape=rfc.* boot=module_init$' &&
	[ "$(grep -c '^  ok [0-9]* adapt_[a-z_]* # checks=' "$out")" = 5 ] &&
	grep -q '^  ok 6 adapt_long_values # SKIP API limit: values are int' "$out" &&
	grep -q '^  ok 7 adapt_caller_items # SKIP API limit: init() allocates its own items' "$out" &&
	! grep -q '^  not ok' "$out"
}
if run_adapt 10 rfc stress; then
	expect 10 rfc_adapter "want the rfc shape, five checks passing and two API-limit skips" \
		rfc_adapt_ok
fi
rfc_sign_ok() {
	[ "$(grep -c '^  not ok' "$out")" = 2 ] &&
	grep -q '^  not ok 2 adapt_compare_value$' "$out" &&
	grep -q '^  not ok 3 adapt_precise_compare_value$' "$out" &&
	grep -q '^  # class=wrong-answer fn=percpu_counter_tree_approximate_compare_value$' "$out" &&
	grep -q '^  # class=wrong-answer fn=percpu_counter_tree_precise_compare_value$' "$out" &&
	! grep -q 'class=contract\|class=crash' "$out"
}
if run_adapt 11 rfc-sign stress; then
	expect 11 rfc_sign "want both compare_value cases failing, class wrong-answer" rfc_sign_ok
fi
rfc_cmp_ok() {
	[ "$(grep -c '^  not ok' "$out")" = 1 ] &&
	grep -q '^  not ok 4 adapt_compare_pair$' "$out" &&
	grep -q '^  # class=wrong-answer fn=percpu_counter_tree_precise_compare$' "$out" &&
	grep -q 'precise_compare(a, b) returns 0, want -1' "$out"
}
if run_adapt 12 rfc-cmp; then
	expect 12 rfc_cmp "want the pair case failing on precise_compare, class wrong-answer" \
		rfc_cmp_ok
fi

rfc_lossy_ok() {
	[ "$(grep -c '^  not ok' "$out")" = 3 ] &&
	grep -q '^  not ok 1 adapt_conservation$' "$out" &&
	grep -q '^  not ok 4 adapt_compare_pair$' "$out" &&
	grep -q '^  not ok 5 adapt_set$' "$out" &&
	grep -q 'fn=percpu_counter_tree_approximate_sum .*precise - approx = [0-9-]*, outside' "$out" &&
	grep -q 'fn=percpu_counter_tree_set .*set(1), precise 2' "$out" &&
	! grep -q 'class=contract\|class=crash' "$out"
}
if run_adapt 13 rfc-lossy stress; then
	expect 13 rfc_lossy "want the conservation, pair and set cases failing, class wrong-answer" \
		rfc_lossy_ok
fi

# 14. int-items, last in the rfc slot: its header differs from the rfc trees'.
int_items_ok() {
	adapt_desc int-items | grep -q '^shape=int-items.* boot=subsystem_init$' &&
	[ "$(grep -c '^  ok [0-9]* adapt_[a-z_]* # checks=' "$out")" = 6 ] &&
	grep -q '^  ok 6 adapt_long_values # SKIP API limit: values are int' "$out" &&
	grep -q '^  ok 7 adapt_caller_items # checks=' "$out" &&
	! grep -q '^  not ok' "$out"
}
if run_adapt 14 int-items stress; then
	expect 14 int_items_adapter "want the int-items shape, six checks passing, long values skipped" \
		int_items_ok
fi

# 15-16. ./stress through the adapter on the trees of tests 10-14, run
#        there (run_adapt_stress): the oom and compaction scenarios SKIP
#        with the reason.
skips_ok() {	# SHAPE
	grep -q "^stress: SKIP oom_race: needs the long hpcc API; this tree's is shape=$1" "$out" &&
	grep -q "^stress: SKIP compaction_churn: needs the long hpcc API; this tree's is shape=$1" \
		"$out"
}
stress_pass_ok() {
	[ "$src" = 0 ] && skips_ok "$1" && grep -q '^stress: PASS counter_storm cpus=4 ' "$out" &&
	grep -q '^stress: SUCCESS (3 runs: 1 passed, 0 failed, 2 skipped, 0 errors' "$out"
}
stress_fail_ok() {	# INVARIANTS
	[ "$src" = 1 ] && skips_ok rfc &&
	grep -Eq "^stress: FAIL counter_storm cpus=4 .* invariant=($1) class=wrong-answer" "$out"
}
# adapt_stress_case N NAME WANT CHECK TREE:ARG...: CHECK ARG on the run of each TREE.
adapt_stress_case() {
	local n=$1 name=$2 want=$3 check=$4 t bad='' diag=
	shift 4
	for t in "$@"; do
		out=$kfix/${t%%:*}.stress
		src=$(cat "$out-rc" 2>/dev/null || echo not-run)
		"$check" "${t#*:}" && continue
		bad+=" ${t%%:*}($src)"
		diag+=$(sed -e 's/^/# /' "$out" | grep -E '^# stress: |failure' | head -n 12)$'\n'
	done
	if [ -z "$bad" ]; then
		echo "ok $n $name"
	else
		printf '%s' "$diag"
		echo "# $name: $want on:$bad"
		echo "not ok $n $name"
		rc=1
	fi
}
adapt_stress_case 15 adapter_stress_passes "want counter_storm passing and two SKIPs" \
	stress_pass_ok rfc:rfc int-items:int-items
adapt_stress_case 16 adapter_stress_finds_seeded_bugs \
	"want counter_storm failing (compare; a window of the range, or a comparison off by it)" \
	stress_fail_ok \
	"rfc-sign:compare" "rfc-lossy:approx_window|settled_bound|conservation|compare"

exit $rc
