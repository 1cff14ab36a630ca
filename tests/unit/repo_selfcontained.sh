#!/usr/bin/env bash
# The repository stands on its own: scripts/check-selfcontained passes on
# it, and fails, naming file:line, on each kind of outside reference and on
# each kind of broken link, planted in small throw-away trees. The bad
# strings are assembled at run time so that this file does not match itself.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/.." && pwd)
chk=$root/scripts/check-selfcontained
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0
echo "KTAP version 1"

# shellcheck source=tests/lib/sh/common.sh
. "$here/lib/sh/common.sh"

out=$("$chk" "$root" 2>&1)
result $? repo_is_selfcontained "$(printf '%s\n' "$out" | head -20 | sed 's/^/  /')"

sect=$(printf '\302\247')
iss="iss""ue"
t="/t""mp"
sp="sp""ec"

# A minimal good tree: a spec page with an anchor, a doc linking it.
mk_tree() {
	rm -rf "$tmp/t"
	mkdir -p "$tmp/t/docs/$sp" "$tmp/t/src"
	printf '# Spec\n\n<a id="x-one"></a>\n## One\n' >"$tmp/t/docs/$sp/x.md"
	printf '# Doc\n\nSee [one](%s/x.md#x-one) and [it](../README.md).\n' "$sp" >"$tmp/t/docs/d.md"
	printf '# Top\n\n[doc](docs/d.md), [two](docs/%s/x.md#one).\n' "$sp" >"$tmp/t/README.md"
	printf '/* docs/%s/x.md#x-one */\nint x;\n' "$sp" >"$tmp/t/src/a.c"
}

# expect_fail NAME FILE LINE: the checker exits 1 and names FILE:LINE.
expect_fail() {
	local o rc
	o=$("$chk" "$tmp/t" 2>&1); rc=$?
	[ $rc -eq 1 ] && printf '%s\n' "$o" | grep -q "^$2:$3: "
	result $? "$1" "exit $rc: $(printf '%s' "$o" | head -3)"
}

mk_tree
"$chk" "$tmp/t" >/dev/null 2>&1
result $? good_tree_passes

mk_tree; printf 'see spec %s5.3\n' "$sect" >>"$tmp/t/src/a.c"
expect_fail section_sign_fires src/a.c 3

mk_tree; printf '/* why: %s 14 */\n' "$iss" >>"$tmp/t/src/a.c"
expect_fail tracker_number_fires src/a.c 3

mk_tree; printf '/*\n * see %s\n * 17 for why\n */\n' "$iss" >>"$tmp/t/src/a.c"
expect_fail wrapped_tracker_number_fires src/a.c 4

mk_tree; printf 'trees under `%s/ktrees`\n' "$t" >>"$tmp/t/docs/d.md"
expect_fail temporary_path_fires docs/d.md 4

mk_tree; printf 'see ../%s/DESIGN.md\n' "sha""red" >>"$tmp/t/README.md"
expect_fail outside_path_fires README.md 4

mk_tree; printf '/* %s/hpcc.md */\n' "$sp" >>"$tmp/t/src/a.c"
expect_fail spec_path_outside_docs_spec_fires src/a.c 3

mk_tree; printf '/* docs/%s/x.md#x-two */\n' "$sp" >>"$tmp/t/src/a.c"
expect_fail missing_spec_anchor_fires src/a.c 3

mk_tree; printf 'See [two](%s/x.md#x-two).\n' "$sp" >>"$tmp/t/docs/d.md"
expect_fail missing_link_anchor_fires docs/d.md 4

mk_tree; printf 'See [gone](gone.md).\n' >>"$tmp/t/docs/d.md"
expect_fail missing_link_file_fires docs/d.md 4

# Inside docs/spec the outside material may be named; code blocks and
# mktemp templates are not links or references.
mk_tree; printf 'Was %s5.3 of the old text.\n\n```\n[x](nowhere.md)\n```\n' "$sect" >>"$tmp/t/docs/$sp/x.md"
printf 'd=$(mktemp -d %s/x.XXXXXX)\n' "$t" >"$tmp/t/src/s.sh"
"$chk" "$tmp/t" >/dev/null 2>&1
result $? allowed_forms_pass

"$chk" "$tmp/no-such-dir" >/dev/null 2>&1
[ $? -eq 2 ]
result $? bad_input_exit_2

exit $((failed > 0))
