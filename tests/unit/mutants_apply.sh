#!/usr/bin/env bash
# Every patch of the mutant catalogue still applies, with no fuzz, to the
# tree as it is: an edit to a mutated file (even a comment beside the
# mutated line) that moves a patch's context makes a mutant nobody runs.
# scripts/mutants --check-apply is shown to report such a patch, by name,
# in a throw-away copy of the script with a catalogue of two patches.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0
echo "KTAP version 1"

# shellcheck source=tests/lib/sh/common.sh
. "$here/lib/sh/common.sh"

out=$("$root/scripts/mutants" --check-apply 2>&1)
result $? every_catalogue_patch_applies "$(printf '%s\n' "$out" | grep -v '^ok' | head -20)"

# A tree of one file and two mutants of it: one whose context matches,
# one whose context is a line the file no longer has.
mkdir -p "$tmp/t/scripts" "$tmp/t/mutants" "$tmp/t/src"
cp -r "$root/scripts/mutants" "$root/scripts/hpccpy" "$tmp/t/scripts/"
printf 'int f(int a)\n{\n\t/* why */\n\treturn a + 1;\n}\n' >"$tmp/t/src/f.c"
mutant() {	# mutant NAME COMMENT: a patch turning "a + 1" into "a - 1"
	printf 'Mutant: %s\nModels: one\nSource: two\nExpect: three\n\n' "$1"
	printf -- '--- a/src/f.c\n+++ b/src/f.c\n@@ -2,4 +2,4 @@\n {\n'
	printf ' \t/* %s */\n-\treturn a + 1;\n+\treturn a - 1;\n }\n' "$2"
}
mutant fresh why >"$tmp/t/mutants/fresh.patch"
mutant stale "the old comment" >"$tmp/t/mutants/stale.patch"
out=$("$tmp/t/scripts/mutants" --check-apply 2>&1)
rc=$?
[ $rc = 1 ] && grep -q '^ok *fresh$' <<<"$out" && grep -q '^ERROR *stale: ' <<<"$out"
result $? stale_patch_reported_by_name "$(printf 'exit %s\n%s\n' $rc "$out" | head -5)"

exit $((failed > 0))
