#!/usr/bin/env bash
# tier: long
# The kernel compaction deferral seam, without a kernel tree: our own
# kernel-shaped fixtures (tests/seam/fixtures/kcompact/{flat,split}) go through
# the same path as a real tree's mm/compaction.c:
#  - scripts/kcompact-probe: the four functions and COMPACT_MAX_DEFER_SHIFT
#    extracted verbatim, the sha256 of the file, the limit from the header;
#  - its refusals (one line naming the function, the file and what was
#    expected; exit 2) on variants of the flat fixture;
#  - a KERNEL_SRC build per fixture tree (our lib/hpcc laid beside it):
#    test_compaction, ./stress --version and compaction_churn --depletion-policy
#    base run the extracted code, judged by the model on every call;
#  - a copy of the flat fixture whose shift limit is off by one must fail
#    test_compaction and compaction_churn (live seam).
# Env: BUILD (default build/cc), CC. KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
. tests/lib/sh/seam.sh
seam_begin 6 kcompact-seam
fx=tests/seam/fixtures/kcompact

mktree() {	# DIR VARIANT
	mkdir -p "$1/mm" "$1/include/linux" "$1/lib"
	cp -r "$fx/$2/." "$1/"
	cp lib/hpcc/percpu_counter_tree.c "$1/lib/"
	cp lib/hpcc/include/linux/percpu_counter_tree.h "$1/include/linux/"
}
for t in flat split; do
	mktree "$work/tree-$t" "$t"
done

# 1. The probe: every extracted piece verbatim at its #line, in source order.
bad=
for t in flat split; do
	tree=$work/tree-$t
	if ! scripts/kcompact-probe "$tree" "$work/probe-$t" "$work/probe-$t" >"$log" 2>&1; then
		bad+="$t: $(cat "$log")"$'\n'
		continue
	fi
	python3 tests/lib/extract_check.py kcompact "$work/probe-$t/kcompact_defer.c" ||
		bad+="$t: extracted text differs"$'\n'
	sha=$(sha256sum "$tree/mm/compaction.c" | cut -d' ' -f1)
	grep -q "KCOMPACT_SHA256.*\"$sha\"" "$work/probe-$t/kcompact_api.h" ||
		bad+="$t: kcompact_api.h does not carry the file's sha256 $sha"$'\n'
done
grep -q 'KCOMPACT_SHIFT_SOURCE.*include/linux/compaction.h:' "$work/probe-split/kcompact_api.h" ||
	bad+="split: COMPACT_MAX_DEFER_SHIFT not taken from include/linux/compaction.h"$'\n'
result 1 kcompact_probe_extracts_verbatim

# 2. Refusals on variants of the flat fixture.
bad=
variant() {	# NAME SED-EXPRESSION: a copy of the flat tree, changed
	mktree "$work/bad-$1" flat
	sed -i -e "$2" "$work/bad-$1/mm/compaction.c"
}
probe() { scripts/kcompact-probe "$1" "$1/o" "$1/o"; }
variant gone '/^void defer_compaction(/,/^}/d'
printf 'static inline void defer_compaction(struct zone *zone, int order)\n{\n}\n' \
	>"$work/bad-gone/include/linux/compaction.h"
refused in-header defer_compaction "$work/bad-gone/mm/compaction.c" probe "$work/bad-gone"
grep -q 'include/linux/compaction.h' "$log" || bad+="in-header: the header is not named"$'\n'
variant persync 's/zone->compact_considered/zone->compact_considered[sync]/g'
refused per-sync defer_compaction "$work/bad-persync/mm/compaction.c" probe "$work/bad-persync"
variant args 's/^void defer_compaction(struct zone \*zone, int order)$/void defer_compaction(struct zone *zone, int order, bool sync)/'
refused signature defer_compaction "$work/bad-args/mm/compaction.c" probe "$work/bad-args"
variant noshift '/^#define COMPACT_MAX_DEFER_SHIFT/d'
refused no-limit COMPACT_MAX_DEFER_SHIFT "$work/bad-noshift/mm/compaction.c" probe "$work/bad-noshift"
variant field 's/zone->compact_order_failed = order;/zone->compact_order_failed = order; zone->compact_blockskip_flush = 1;/'
refused other-field compact_blockskip_flush "$work/bad-field/mm/compaction.c" probe "$work/bad-field"
mkdir -p "$work/bad-none/mm"
refused no-file compaction.c "$work/bad-none/mm/compaction.c" probe "$work/bad-none"
result 2 kcompact_probe_refuses_with_one_line

# 3-4. Each tree through KERNEL_SRC: the unit tests and the scenario run its code.
# The trees differ only in their compaction files: each is laid in turn into
# one tree, $ks, built in one build directory, $kb, so that make rebuilds what
# depends on the files that differ (and probes each tree anew: the probe's
# stamp is removed), not the whole suite once per tree.
ks=$work/slot-src kb=$work/slot
mkdir -p "$ks"
cp -r "$work/tree-flat/lib" "$work/tree-flat/include" "$ks/"
kbuild() {	# TREE: lay its compaction files into $ks, build into $kb
	local f
	for f in mm/compaction.c include/linux/compaction.h; do
		if [ ! -f "$1/$f" ]; then
			rm -f "$ks/$f"
		elif ! cmp -s "$1/$f" "$ks/$f"; then
			mkdir -p "$(dirname "$ks/$f")"
			cp "$1/$f" "$ks/$f" || return 1
		fi
	done
	rm -f "$kb/kcompact/.probed"
	make --no-print-directory -j2 KERNEL_SRC="$ks" BUILD="$kb" CC="$cc" \
		"$kb/tests/test_compaction" "$kb/stress" >"$log" 2>&1
}
churn() {	# BUILD: a bounded Base run of compaction_churn
	"$1/stress" --scenario compaction_churn --depletion-policy base --cpus 16 \
		--steps 3000 --seed 1 --frag-level 0 --replay-out "$work/replay.txt" >"$log" 2>&1
}
n=3
for t in flat split; do
	bad=
	src=$ks/mm/compaction.c
	sha=$(sha256sum "$work/tree-$t/mm/compaction.c" | cut -c1-12)
	if ! kbuild "$work/tree-$t"; then
		bad+="build: $(tail -n 20 "$log")"$'\n'
	else
		"$kb/tests/test_compaction" >"$log" 2>&1 ||
			bad+="test_compaction: $(grep -B3 '^ *not ok' "$log")"$'\n'
		grep -Eq "^  # grid: kernel $src \(sha256 $sha;.*: ([0-9]+) decisions, \1 agree" "$log" ||
			bad+="the grid did not run $src: $(grep '# grid' "$log")"$'\n'
		"$kb/stress" --version | grep -q "^compaction deferral: kernel $src (sha256 $sha;" ||
			bad+="--version: $("$kb/stress" --version | tail -n 1)"$'\n'
		churn "$kb" || bad+="compaction_churn: $(grep -E 'failure|FAIL' "$log")"$'\n'
		grep -Eq "deferral kernel $src .*: ([0-9]+) decisions, \1 agree" "$log" ||
			bad+="compaction_churn did not judge the deferral: $(grep deferral "$log")"$'\n'
	fi
	result $n "kcompact_${t}_tree"
	n=$((n + 1))
done

# 5-6. The seam is live: the shift limit off by one (7) fails both.
bad=
sed -i -e 's/^\tif (zone->compact_defer_shift > COMPACT_MAX_DEFER_SHIFT)$/\tif (zone->compact_defer_shift > COMPACT_MAX_DEFER_SHIFT + 1)/' \
	"$work/tree-flat/mm/compaction.c"
if ! grep -q 'COMPACT_MAX_DEFER_SHIFT + 1)' "$work/tree-flat/mm/compaction.c"; then
	bad+="could not break the fixture copy"$'\n'
elif ! kbuild "$work/tree-flat"; then
	bad+="build of the broken copy: $(tail -n 20 "$log")"$'\n'
elif "$kb/tests/test_compaction" >"$log" 2>&1; then
	bad+="the broken copy passed test_compaction: the seam is not live"$'\n'
elif ! grep -q 'defer_compaction(order [0-9]*) from considered [0-9]* shift 6 .*: model 0 -> [0-9]*/6/[0-9]*, kernel 0 -> [0-9]*/7/' "$log"; then
	bad+="no disagreement with both answers: $(grep -m3 'disagree' "$log")"$'\n'
else
	echo "# $(grep -m1 -o 'first: defer_compaction.*' "$log")"
fi
result 5 kcompact_seam_live_unit_tests
bad=
if [ -x "$kb/stress" ] && churn "$kb"; then
	bad+="the broken copy passed compaction_churn"$'\n'
elif ! grep -Eq 'invariant=(kernel_deferral|deferral_range)' "$log"; then
	bad+="compaction_churn failed otherwise: $(grep -m2 -E 'failure|FAIL' "$log")"$'\n'
fi
result 6 kcompact_seam_live_churn
[ "$failed" -eq 0 ]
