#!/usr/bin/env bash
# tier: long
# Known findings on a tree that carries one (docs/stress.md#known-findings):
# lib/hpcc laid out as a kernel tree with a seeded bug of mutants/ applied,
# built unchanged through KERNEL_SRC as kernel_src_seam.sh does (in one
# build directory: they differ only in their .c):
#   swap  hpcc-compare-value-tol-swap (the swapped compare_delta()
#         tolerances four public versions carry)
#   two   the same plus hpcc-precise-compare-never-plus1
# counter_storm on swap stops at its compare finding; with the signatures
# its --findings-out wrote as --known it does every step and makes as many
# checks as lib/hpcc with the same options; on two, the same known file
# still fails, on a signature it does not name. Runs are bounded by
# --steps; the quiescent-only mode (--selectors 0 --stutter off) makes the
# check counts a function of the seed.
# Env: BUILD (default build/cc), CC. KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
# shellcheck source=tests/lib/sh/ktree.sh
. tests/lib/sh/ktree.sh
echo "KTAP version 1"
if [ -n "${KERNEL_SRC:-}" ]; then
	echo "1..1"
	echo "ok 1 known_seam # SKIP already building against KERNEL_SRC"
	exit 0
fi
echo "1..6"
build=${BUILD:-build/cc}
kfix=$build/kfix-known
cc=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset MAKEFLAGS MAKELEVEL MFLAGS

# kbuild NAME MUTANT...: lib/hpcc as a kernel tree with those mutants
# applied, its ./stress built as $kfix/NAME-stress. The trees differ only
# in their .c: both are built in one slot (tests/lib/sh/ktree.sh).
kbuild() {
	local new=$kfix/lay name=$1 m
	shift
	rm -rf "$new"
	mkdir -p "$new/lib" "$new/include/linux" || return 1
	cp lib/hpcc/percpu_counter_tree.c "$new/lib/" &&
		cp lib/hpcc/include/linux/percpu_counter_tree.h "$new/include/linux/" || return 1
	for m in "$@"; do
		sed 's#/lib/hpcc/#/lib/#' "mutants/$m.patch" | patch -s -d "$new" -p1 || return 1
	done
	slot_place "$new" "$kfix/tree-src" "$kfix/tree" &&
	make --no-print-directory -j2 KERNEL_SRC="$kfix/tree-src" BUILD="$kfix/tree" CC="$cc" \
		"$kfix/tree/stress" "$build/stress" &&
	cp "$kfix/tree/stress" "$kfix/$name-stress"
}

if ! { kbuild swap hpcc-compare-value-tol-swap &&
       kbuild two hpcc-compare-value-tol-swap hpcc-precise-compare-never-plus1; } >"$tmp/log" 2>&1; then
	tail -n 30 "$tmp/log" | sed 's/^/# /'
	echo "not ok 1 trees_build"
	for i in 2 3 4 5 6; do echo "not ok $i known_seam_$i # no build"; done
	exit 1
fi
echo "ok 1 trees_build"
rc=0
ok() {	# ok STATUS N NAME DIAG
	if [ "$1" = 0 ]; then echo "ok $2 $3"; else printf '# %s\n' "$4"; echo "not ok $2 $3"; rc=1; fi
}
opts=(--scenario counter_storm --cpus 8 --steps 20000 --duration 0 --stat-interval 0
      --replay-search 0)
run=("${opts[@]}" --seed 1)
quiet=(--selectors 0 --stutter off --hotplug off)
verdict() { grep '^stress: [A-Z]* counter_storm' "$1"; }
num() { verdict "$2" | sed -n "s/.* $1=\([0-9]*\).*/\1/p"; }

# 2. No --known: the tree's finding ends the run.
(cd "$tmp" && "$root/$kfix/swap-stress" "${run[@]}" --findings-out f0 >a.out 2>&1)
st=$?
ops=$(num ops "$tmp/a.out")
[ $st = 1 ] && verdict "$tmp/a.out" | grep -q 'FAIL .*invariant=compare' && [ "${ops:-0}" -lt 160000 ] &&
	grep -q '^finding counter_storm compare ' "$tmp/f0"
ok $? 2 swap_fails_at_its_finding "status $st ops $ops: $(verdict "$tmp/a.out")"

# 3. Learn every signature the tree shows (a run stops at each new one).
cp "$tmp/f0" "$tmp/known"
for i in 1 2 3 4 5; do
	(cd "$tmp" && "$root/$kfix/swap-stress" "${opts[@]}" --seed "$i" --known known \
		--findings-out ./fi >b.out 2>&1)
	st=$?
	[ $st = 0 ] || [ $st = 1 ] || { echo "# learning run $i: status $st"; rc=1; }
	grep '^finding ' "$tmp/fi" | while read -r w s inv cls fn hits; do
		grep -q "^finding $s $inv $cls $fn " "$tmp/known" || echo "$w $s $inv $cls $fn $hits"
	done >>"$tmp/known"
done
(cd "$tmp" && "$root/$kfix/swap-stress" "${run[@]}" --known known >b.out 2>&1)
st=$?
v=$(verdict "$tmp/b.out")
[ $st = 0 ] && echo "$v" | grep -q 'PASS .* ops=160000 .* known=[1-9][0-9]* ([1-9][0-9]* hits)$' &&
	grep -q '^# known compare/' "$tmp/b.out"
ok $? 3 swap_with_known_runs_every_step "status $st: $v; known: $(grep -c '^finding' "$tmp/known")"
echo "# swap, known: $v"

# 4. As many checks as lib/hpcc (quiescent-only: a function of the seed).
(cd "$tmp" && "$root/$kfix/swap-stress" "${run[@]}" "${quiet[@]}" --known known >c.out 2>&1)
st=$?
(cd "$tmp" && "$root/$build/stress" "${run[@]}" "${quiet[@]}" >d.out 2>&1)
st2=$?
c1=$(num checks "$tmp/c.out") c2=$(num checks "$tmp/d.out")
[ $st = 0 ] && [ $st2 = 0 ] && [ -n "$c1" ] && [ "$c1" = "$c2" ]
ok $? 4 swap_with_known_checks_as_much_as_lib_hpcc "swap+known $st checks=$c1, lib/hpcc $st2 checks=$c2"
echo "# quiescent-only checks: swap with known $c1, lib/hpcc $c2"

# 5. A second seeded bug still fails the run, on a signature not known.
(cd "$tmp" && "$root/$kfix/two-stress" "${run[@]}" "${quiet[@]}" --known known \
	--findings-out f2 >e.out 2>&1)
st=$?
new=$(sed -n '/^# new:/{n;p}' "$tmp/f2")
[ $st = 1 ] && verdict "$tmp/e.out" | grep -q 'FAIL .*invariant=compare class=wrong-answer' &&
	[ -n "$new" ] && ! grep -qF "${new% *}" "$tmp/known" && echo "$new" | grep -q ' precise_compare '
ok $? 5 second_bug_fails_past_the_known_one "status $st: $(verdict "$tmp/e.out"); new: $new"

# 6. A known file naming nothing present changes nothing: lib/hpcc passes as before.
(cd "$tmp" && "$root/$build/stress" "${run[@]}" "${quiet[@]}" --known known >g.out 2>&1)
st=$?
[ $st = 0 ] && [ "$(num checks "$tmp/g.out")" = "$c2" ] && ! grep -q 'known=' "$tmp/g.out"
ok $? 6 known_without_findings_changes_nothing "status $st: $(verdict "$tmp/g.out")"
exit $rc
