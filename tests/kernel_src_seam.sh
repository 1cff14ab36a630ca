#!/usr/bin/env bash
# The KERNEL_SRC seam (issue 2, item 6): lay lib/hpcc's two files out as a
# throwaway kernel-like tree, build the suite against it with
# make KERNEL_SRC=, and require the unit tests to pass. Then break the copy
# (drop the root add) and require the hpcc tests to fail: the seam is live.
# Env: BUILD (default build/cc), CC. KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
echo "KTAP version 1"
if [ -n "${KERNEL_SRC:-}" ]; then
	echo "1..1"
	echo "ok 1 kernel_src_seam # SKIP already building against KERNEL_SRC"
	exit 0
fi
echo "1..3"

build=${BUILD:-build/cc}
kb=$build/kseam
ksrc=$build/kseam-src
cc=${CC:-cc}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Not a sub-make of the caller: no inherited jobserver or variables.
unset MAKEFLAGS MAKELEVEL MFLAGS

tests=()
for f in tests/test_*.c; do
	tests+=("$kb/tests/$(basename "$f" .c)")
done
hpcc_tests=()
for f in tests/test_hpcc_*.c; do
	hpcc_tests+=("$kb/tests/$(basename "$f" .c)")
done

kmake() {
	make --no-print-directory -j2 KERNEL_SRC="$ksrc" BUILD="$kb" CC="$cc" "${tests[@]}" \
		"$kb/ktap-run"
}

fail_with_log() {
	sed -e 's/^/# /' "$log" | tail -n 40
	echo "not ok $1 $2"
}

# 1. A kernel-like tree holding our two files, built through the seam.
mkdir -p "$ksrc/lib" "$ksrc/include/linux"
ksrc=$(cd "$ksrc" && pwd)
cp lib/hpcc/percpu_counter_tree.c "$ksrc/lib/percpu_counter_tree.c"
cp lib/hpcc/include/linux/percpu_counter_tree.h "$ksrc/include/linux/percpu_counter_tree.h"
if ! kmake >"$log" 2>&1; then
	fail_with_log 1 kernel_src_build
	echo "not ok 2 kernel_src_unit_tests # SKIP no build"
	echo "not ok 3 kernel_src_seam_live # SKIP no build"
	exit 1
fi
# The hpcc object must have been compiled from the kernel tree's file.
if ! grep -q -- "$ksrc/lib/percpu_counter_tree.c" "$kb/.flags" 2>/dev/null ||
   ! cmp -s "$ksrc/include/linux/percpu_counter_tree.h" "$kb/kinc/linux/percpu_counter_tree.h"; then
	echo "# the build did not take hpcc from $ksrc"
	echo "not ok 1 kernel_src_build"
	exit 1
fi
echo "ok 1 kernel_src_build"

# 2. Every unit test against the kernel-tree build.
if BUILD="$kb" CC="$cc" scripts/run-tests "${tests[@]}" >"$log" 2>&1; then
	sed -n 's/^# Totals: /# the unit tests through the seam: /p' "$log" | sed 's/:\([0-9]\)/=\1/g'
	echo "ok 2 kernel_src_unit_tests"
	ok2=1
else
	fail_with_log 2 kernel_src_unit_tests
	ok2=0
fi

# 3. Break the copy: the root never receives carries. The tests must notice.
sed -i 's/^\([[:space:]]*\)atomic_long_add(inc, counter->approx_sum\.a);/\1(void)inc;/' \
	"$ksrc/lib/percpu_counter_tree.c"
if cmp -s lib/hpcc/percpu_counter_tree.c "$ksrc/lib/percpu_counter_tree.c"; then
	echo "# could not find the root add to remove in lib/hpcc/percpu_counter_tree.c"
	echo "not ok 3 kernel_src_seam_live"
	exit 1
fi
if ! kmake >"$log" 2>&1; then
	fail_with_log 3 kernel_src_seam_live
	exit 1
fi
failed=0
for t in "${hpcc_tests[@]}"; do
	"$t" >/dev/null 2>&1 || failed=$((failed + 1))
done
# Leave the seam tree and its build intact (only hpcc is rebuilt).
cp lib/hpcc/percpu_counter_tree.c "$ksrc/lib/percpu_counter_tree.c"
kmake >/dev/null 2>&1
if [ "$failed" -gt 0 ]; then
	echo "# the broken copy fails $failed of ${#hpcc_tests[@]} hpcc test programs"
	echo "ok 3 kernel_src_seam_live"
else
	echo "# the broken copy passed every hpcc test: the seam is not live"
	echo "not ok 3 kernel_src_seam_live"
	exit 1
fi
[ "$ok2" -eq 1 ]
