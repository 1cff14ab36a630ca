#!/usr/bin/env bash
# tier: long
# The adapter's ./stress rebuilt after a change of the tree (mk/adapt.mk;
# docs/kernel-trees.md, "Older APIs"): only the files that name the counter
# or the adapter are compiled with the adapter and its probed shape, so a
# commit of a series that changes the API under the adapter recompiles
# those, not the whole engine. On fixture trees of our own
# (tests/seam/fixtures/ktrees, never kernel text), laid in turn into one
# source directory and built in one build directory, counted from make's
# log:
#   1 rfc1, then rfc (another shape, both files): the second build compiles
#     the tree's .c and the five engine objects that read the counter
#     (src/main.c, src/replay.c, src/report.c, src/scenarios/adapt/*.c);
#     no other engine object's dependency file names the adapter's shape or
#     the tree's header
#   2 rfc again with a member more in its header's struct percpu_counter_tree
#     (the same shape, another layout): the same six compiles
#   3 the same program: the ./stress so rebuilt has the bytes of one built
#     whole from a cold build directory (no debug information), the
#     layout's change in every object that reads it
# Env: BUILD (default build/cc), CC. KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
. tests/lib/sh/seam.sh
# shellcheck source=tests/lib/sh/ktree.sh
. tests/lib/sh/ktree.sh
seam_begin 3 adapt-stress-rebuild
fx=tests/seam/fixtures/ktrees
src=$work/src b=$work/slot

# mk BUILD: the adapter's ./stress of $src into BUILD, make's log into
# $work/compiled (the objects compiled, relative to BUILD, sorted).
mk() {
	make --no-print-directory -j2 KERNEL_SRC="$src" BUILD="$1" CC="$cc" DEBUG_INFO=0 \
		"$1/adapt/stress" >"$log" 2>&1 || return 1
	sed -n 's/.* -c -o \([^ ]*\) .*/\1/p' "$log" | sed "s|^$1/||" | sort >"$work/compiled"
}
want=$(printf '%s\n' adapt/percpu_counter_tree.o adapt/src/main.o adapt/src/replay.o \
	adapt/src/report.o adapt/src/scenarios/adapt/no_mm.o adapt/src/scenarios/adapt/storm.o | sort)
# compiled CASE: $work/compiled is the six objects above.
compiled() {
	[ "$(cat "$work/compiled")" = "$want" ] ||
		bad+="$1 compiled [$(tr '\n' ' ' <"$work/compiled")], want [$(tr '\n' ' ' <<<"$want")]"$'\n'
}

bad=
slot_place "$fx/rfc1" "$src" "$b"
if ! mk "$b"; then
	bad+="make adapt-stress (rfc1) failed: $(tail -n 5 "$log")"$'\n'
elif [ "$(wc -l <"$work/compiled")" -lt 40 ]; then
	bad+="the cold build compiled $(wc -l <"$work/compiled") objects"$'\n'
else
	slot_place "$fx/rfc" "$src" "$b"
	if ! mk "$b"; then
		bad+="make adapt-stress (rfc after rfc1) failed: $(tail -n 5 "$log")"$'\n'
	else
		grep -q '^#define HPCC_ADAPT_RFC 1' "$b/kinc/hpcc_adapt_api.h" ||
			bad+="rfc not probed as shape rfc"$'\n'
		compiled "rfc after rfc1:"
		reads=$(cd "$b" && grep -lE 'hpcc_adapt|percpu_counter_tree\.h' adapt/src/*.d \
			adapt/src/scenarios/adapt/*.d | sed 's/\.d$/.o/' | sort)
		[ "$reads" = "$(grep -v percpu_counter_tree.o <<<"$want")" ] ||
			bad+="objects whose dependency file names the adapter or the tree's header: [$(tr '\n' ' ' <<<"$reads")]"$'\n'
	fi
fi
result 1 api_change_recompiles_readers

bad=
sed -i 's/^\tunsigned int inaccuracy;.*/&\n\tlong rebuild_pad[4];/' "$src/include/linux/percpu_counter_tree.h"
rm -f "$b/kinc/linux/percpu_counter_tree.h"	# as slot_place does for a header that differs
if ! grep -q '^	long rebuild_pad\[4\];$' "$src/include/linux/percpu_counter_tree.h"; then
	bad+="the fixture's struct percpu_counter_tree was not found"$'\n'
elif ! mk "$b"; then
	bad+="make adapt-stress (rfc, header changed) failed: $(tail -n 5 "$log")"$'\n'
else
	compiled "rfc, its header changed:"
fi
result 2 header_change_recompiles_readers

bad=
if ! mk "$work/cold"; then
	bad+="make adapt-stress (cold) failed: $(tail -n 5 "$log")"$'\n'
elif ! cmp -s "$work/cold/adapt/stress" "$b/adapt/stress"; then
	bad+="the rebuilt ./stress differs from the one built whole"$'\n'
fi
result 3 rebuilt_is_the_same_program

[ "$failed" = 0 ]
