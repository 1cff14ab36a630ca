#!/usr/bin/env bash
# tier: long
# The API probes run once per content of their inputs (mk/kernel.mk), and
# the KUnit file's syntax check leaves nothing behind (scripts/kunit-probe).
# Fixture: lib/hpcc's two files as a tree; only the require and KUnit
# probes are made (no build of the suite).
#   1 a tree's header laid again with the same text: the probes run once,
#     the headers keep their time; the next make runs no probe
#   2 a probed header removed behind its stamp is written again
#   3 scripts/kunit-probe with the build's -MMD -MP, passing and failing:
#     nothing written in the working directory
#   4 scripts/kunit-probe on the tree's own errors (a syntax error, a
#     call into its API its header lacks): passed on to the build; beside
#     a name the shim lacks, only that one is refused
# Env: BUILD (default build/cc), CC. KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
. tests/lib/sh/seam.sh
seam_begin 4 probe-once
src=$work/tree b=$work/b
mkdir -p "$src/lib" "$src/include/linux"
cp lib/hpcc/percpu_counter_tree.c "$src/lib/"
cp lib/hpcc/include/linux/percpu_counter_tree.h "$src/include/linux/"
req=$b/kinc/hpcc_require.h kapi=$b/kinc/kunit_api.h
# mk: make the two probed headers of the fixture's build.
mk() {
	make --no-print-directory -s CC="$cc" KERNEL_SRC="$src" BUILD="$b" "$req" "$kapi" >>"$log" 2>&1
}
# mtimes: the two headers' modification times, to the nanosecond.
mtimes() {
	stat -c %y "$req" "$kapi" 2>&1
}

bad=
mk || bad+="first make failed: $(cat "$log")"$'\n'
before=$(mtimes)
# The tree's header laid again (a checkout, a copy): same text, a new time.
cp "$src/include/linux/percpu_counter_tree.h" "$src/h.tmp"
mv "$src/h.tmp" "$src/include/linux/percpu_counter_tree.h"
rm -f "$req.log" "$kapi.log"
mk || bad+="make after the header was laid again failed"$'\n'
[ -f "$req.log" ] && [ -f "$kapi.log" ] || bad+="the probes did not run for the new header"$'\n'
[ "$(mtimes)" = "$before" ] || bad+="a header of the same text changed its time: $before -> $(mtimes)"$'\n'
rm -f "$req.log" "$kapi.log"
mk || bad+="the next make failed"$'\n'
for f in "$req.log" "$kapi.log"; do
	[ ! -e "$f" ] || bad+="the probes ran again with nothing changed (${f##*/} written)"$'\n'
done
result 1 header_laid_again_probes_once

bad=
rm -f "$kapi"
mk || bad+="make failed: $(tail -n 3 "$log")"$'\n'
grep -q '^#define KUNIT_API_DESC ' "$kapi" 2>/dev/null || bad+="kunit_api.h not written again"$'\n'
result 2 removed_header_written_again

bad=
mkdir -p "$work/cwd"
printf 'int ok(void);\nint ok(void) { return 0; }\n' >"$work/ok.c"
printf '#include <no_such_kunit_header.h>\n' >"$work/missing.c"
(cd "$work/cwd" && "$root/scripts/kunit-probe" --cc "$cc" --cflags '-MMD -MP -Wall' "$work/ok.c") ||
	bad+="a file that builds was refused"$'\n'
(cd "$work/cwd" && "$root/scripts/kunit-probe" --cc "$cc" --cflags '-MMD -MP -Wall' "$work/missing.c" \
	2>"$work/err") && bad+="a missing header was not refused"$'\n'
grep -q 'needs <no_such_kunit_header.h>' "$work/err" || bad+="refusal: $(cat "$work/err")"$'\n'
left=$(ls -A "$work/cwd")
[ -z "$left" ] || bad+="left in the working directory: $left"$'\n'
result 3 kunit_probe_leaves_no_files

# 4. The tree's own compile errors are not the shim's: a syntax error and a
#    call into the tree's API that its header lacks pass the probe (the
#    build reports them); beside a KUnit name the shim lacks, only that
#    name is refused.
bad=
kf=percpu_counter_tree_kunit.c	# named as the tree's file is
mkdir -p "$work/syntax" "$work/tree" "$work/mixed"
printf 'int f(void)\n{\n\treturn 0\n}\n' >"$work/syntax/$kf"
calls() {	# calls EXPR: a file whose function returns EXPR
	printf 'struct percpu_counter_tree;\nint f(struct percpu_counter_tree *c)\n'
	printf '{\n\treturn %s;\n}\n' "$1"
}
calls 'percpu_counter_tree_no_such(c)' >"$work/tree/$kf"
calls 'kunit_no_such_helper(1) + percpu_counter_tree_no_such(c)' >"$work/mixed/$kf"
for f in syntax tree mixed; do
	"$root/scripts/kunit-probe" --cc "$cc" --cflags '-Wall -Werror' "$work/$f/$kf" \
		2>"$work/$f.err"
	echo $? >"$work/$f.rc"
done
for f in syntax tree; do
	[ "$(cat "$work/$f.rc")" = 0 ] && [ ! -s "$work/$f.err" ] ||
		bad+="$f: exit $(cat "$work/$f.rc"): $(cat "$work/$f.err")"$'\n'
done
[ "$(cat "$work/mixed.rc")" = 2 ] &&
	grep -qx "kunit: $work/mixed/$kf needs kunit_no_such_helper(), which the KUnit shim lacks" \
		"$work/mixed.err" || bad+="mixed: exit $(cat "$work/mixed.rc"): $(cat "$work/mixed.err")"$'\n'
result 4 kunit_probe_tree_errors_are_the_trees

rm -rf "$work"
exit $((failed > 0))
