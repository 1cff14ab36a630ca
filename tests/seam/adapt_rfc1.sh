#!/usr/bin/env bash
# tier: long
# The adapter's rfc1 shape (the first posted RFC's API) on fixture trees
# of our own (tests/seam/fixtures/ktrees/rfc1, never kernel text):
#   1 rfc1        probed as shape=rfc1, the other shapes' probes say why they
#                 failed; every check it can express passes, the pair, long
#                 values and caller items checks SKIP naming the API limit
#   2 rfc1-alloc  the items' size as n - 1 * sizeof(item): init() fails on
#                 every CPU count below 64, a finding in percpu_counter_tree_init
#                 (class wrong-answer, its return value in the message)
#   3 no shape    the same tree with init() taking an unsigned long batch:
#                 scripts/kernel-judge refuses it, and its verdict names each
#                 adapter probe and what it found, not only a log
#   4 asan        kernel-check's asan column (scripts/kernel-san) on rfc1-alloc:
#                 under ASan + UBSan the adapter's run crashes with
#                 heap-buffer-overflow (at 64 CPUs: below, init fails), a
#                 crash finding naming the tree's function, exit 1
# Env: BUILD (default build/cc), CC. KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
. tests/lib/sh/seam.sh
# shellcheck source=tests/lib/sh/ktree.sh
. tests/lib/sh/ktree.sh
seam_begin 4 adapt-rfc1
fx=tests/seam/fixtures/ktrees

# lay NAME [PATCH]: the rfc1 fixture, PATCH applied, as $work/NAME-src.
lay() {
	local src=$work/$1-src
	mkdir -p "$src/lib" "$src/include/linux"
	cp "$fx/rfc1/lib/percpu_counter_tree.c" "$src/lib/"
	cp "$fx/rfc1/include/linux/percpu_counter_tree.h" "$src/include/linux/"
	[ -z "${2:-}" ] || patch -s -d "$src" -p1 <"$fx/$2"
}
# adapt NAME: build NAME's tree's adapter program and run it into
# $work/NAME.out. rfc1 and rfc1-alloc differ only in their .c: both are
# built in one slot, $work/slot (tests/lib/sh/ktree.sh).
adapt() {
	slot_place "$work/$1-src" "$work/slot-src" "$work/slot" &&
	make --no-print-directory -j2 KERNEL_SRC="$work/slot-src" BUILD="$work/slot" CC="$cc" \
		"$work/slot/adapt/test_hpcc_adapt" >"$log" 2>&1 || return 1
	"$work/slot/adapt/test_hpcc_adapt" >"$work/$1.out" 2>&1
	return 0
}

bad=
lay rfc1
if ! adapt rfc1; then
	bad+="make adapt failed: $(tail -n 5 "$log")"$'\n'
else
	h=$work/slot/kinc/hpcc_adapt_api.h o=$work/rfc1.out
	grep -q '^#define HPCC_ADAPT_API_DESC "shape=rfc1(' "$h" || bad+="not probed as rfc1"$'\n'
	grep -q "^/\* HPCC_ADAPT_RFC no: percpu_counter_tree_init() present as 'int (\*)(struct percpu_counter_tree \*, unsigned int)', expected" "$h" ||
		bad+="no reason for the rfc probe's failure in $h"$'\n'
	[ "$(grep -c '^  ok [0-9]* adapt_[a-z_]* # checks=' "$o")" = 4 ] || bad+="want 4 checks passing"$'\n'
	grep -q '^  ok 4 adapt_compare_pair # SKIP API limit: no compare of two counters' "$o" ||
		bad+="pair case not skipped with the limit"$'\n'
	grep -q '^  ok 6 adapt_long_values # SKIP API limit' "$o" &&
	grep -q '^  ok 7 adapt_caller_items # SKIP API limit' "$o" || bad+="limits not named"$'\n'
	! grep -q '^  not ok' "$o" || bad+="$(grep -m3 'class=' "$o")"$'\n'
fi
result 1 rfc1_adapter

bad=
lay rfc1-alloc rfc1-alloc.patch
if ! adapt rfc1-alloc; then
	bad+="make adapt failed: $(tail -n 5 "$log")"$'\n'
else
	o=$work/rfc1-alloc.out
	for c in '1 adapt_conservation' '2 adapt_compare_value' '3 adapt_precise_compare_value' \
		 '5 adapt_set'; do
		grep -q "^  not ok $c\$" "$o" || bad+="want not ok $c"$'\n'
	done
	grep -q '^  # class=wrong-answer fn=percpu_counter_tree_init .*cpus=1 batch=2: init returns -12$' "$o" ||
		bad+="no init finding at 1 CPU"$'\n'
	grep -q 'failed by class: contract=0 wrong-answer=4 crash=0' "$o" || bad+="classes: $(grep 'failed by class' "$o")"$'\n'
fi
result 2 rfc1_alloc_finding

bad=
lay noshape
sed -i 's/percpu_counter_tree_init(struct percpu_counter_tree \*counter, unsigned int batch_size)/percpu_counter_tree_init(struct percpu_counter_tree *counter, unsigned long batch_size)/' \
	"$work/noshape-src/include/linux/percpu_counter_tree.h" "$work/noshape-src/lib/percpu_counter_tree.c"
scripts/kernel-judge --unit test_hpcc_carry --out "$work/noshape.verdict" \
	"$work/noshape-src" "$work/noshape" >"$log" 2>&1
rc=$?
why=$(sed -n 's/^why\t//p' "$work/noshape.verdict" 2>/dev/null)
[ "$rc" = 1 ] && grep -q $'^builds\tno$' "$work/noshape.verdict" || bad+="rc=$rc, want builds no"$'\n'
for s in long rfc int-items rfc1; do
	grep -q "$s probe (mk/probes/adapt): " <<<"$why" || bad+="why does not name the $s probe: $why"$'\n'
done
grep -qF "rfc1 probe (mk/probes/adapt): percpu_counter_tree_init() present as 'int (*)(struct percpu_counter_tree *, long unsigned int)', expected 'int (*)(struct percpu_counter_tree *, unsigned int)'" <<<"$why" ||
	bad+="the rfc1 probe's reason is not exact: $why"$'\n'
result 3 no_shape_named

bad=
scripts/kernel-san --kind adapter --out "$work/alloc.asan" "$work/rfc1-alloc-src" \
	"$work/rfc1-alloc" >"$log" 2>&1
rc=$?
[ "$rc" = 1 ] || bad+="kernel-san exit $rc, want 1: $(tail -n 5 "$log")"$'\n'
grep -qE $'^afail\ttest_hpcc_adapt\tadapt_conservation\tcrash\theap-buffer-overflow in percpu_counter_tree_[a-z_]+ \\(lib/percpu_counter_tree\\.c:[0-9]+\\)$' \
	"$work/alloc.asan" || bad+="no heap-buffer-overflow crash: $(cat "$work/alloc.asan" 2>/dev/null)"$'\n'
grep -q 'configuration 64 CPUs: exited with status 67' "$work/rfc1-alloc-asan/test_hpcc_adapt.out" ||
	bad+="the crash is not at 64 CPUs: $(tail -n 3 "$work/rfc1-alloc-asan/test_hpcc_adapt.out")"$'\n'
result 4 asan_crash_finding

[ "$failed" = 0 ]
