#!/usr/bin/env bash
# The counts in the reference pages are generated, never typed: the
# catalogue's totals in docs/mutants.md (scripts/docs-counts) are current,
# and a catalogue with one more patch, or one more in the quick set, makes
# the check fail.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=tests/lib/sh/common.sh
. "$here/lib/sh/common.sh"
ktap_begin

out=$(cd "$root" && scripts/docs-counts --check 2>&1)
result $? mutant_counts_current "$out"

# stale COPY EDIT: the check fails on a copy of the catalogue changed by
# the function EDIT (run in the copy).
stale() {
	mkdir -p "$tmp/$1/docs"
	cp -r "$root/mutants" "$tmp/$1/"
	cp "$root/docs/mutants.md" "$tmp/$1/docs/"
	(cd "$tmp/$1" && "$2" && "$root/scripts/docs-counts" --check) >"$tmp/$1.out" 2>&1
	[ $? = 1 ] && grep -q 'out of date' "$tmp/$1.out"
}
one_more() { printf 'Mutant: x\n' >mutants/x.patch; }
one_more_quick() {	# the total kept: one patch out of the quick set goes
	rm "$(grep -L '^Quick: yes$' mutants/*.patch | head -n 1)"
	printf 'Mutant: y\nQuick: yes\n' >mutants/y.patch
}
stale more one_more
result $? mutant_counts_stale_total_caught "$(cat "$tmp/more.out")"
stale quick one_more_quick
result $? mutant_counts_stale_quick_caught "$(cat "$tmp/quick.out")"

exit $((failed > 0))
