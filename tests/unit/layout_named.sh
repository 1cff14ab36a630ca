#!/usr/bin/env bash
# docs/layout.md names every top-level folder, every lib/ folder (a table
# row: | `NAME/` |) and every script of scripts/ (a row of its scripts
# table: | `NAME` |); shown to fail on a copy with one more folder and one
# more script.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=tests/lib/sh/common.sh
. "$here/lib/sh/common.sh"
ktap_begin

# unnamed TOP: what TOP has that TOP/docs/layout.md does not name, one a line.
unnamed() {
	local d f
	for d in "$1"/*/ "$1"/.ci/ "$1"/lib/*/; do
		[ -d "$d" ] || continue
		d=${d#"$1"/}
		case $d in build/) continue ;; esac
		grep -qF "| \`$d\` |" "$1/docs/layout.md" || echo "$d"
	done
	for f in "$1"/scripts/*; do
		f=${f##*/}
		grep -qF "| \`$f\` |" "$1/docs/layout.md" || echo "scripts/$f"
	done
}
out=$(unnamed "$root")
result "$([ -z "$out" ]; echo $?)" layout_names_every_folder_and_script "not in docs/layout.md: $out"

mkdir -p "$tmp/t/docs" "$tmp/t/lib/newlib" "$tmp/t/newtop" "$tmp/t/scripts"
cp "$root/docs/layout.md" "$tmp/t/docs/"
for d in "$root"/*/ "$root"/lib/*/; do mkdir -p "$tmp/t/${d#"$root"/}"; done
mkdir -p "$tmp/t/.ci"
cp -r "$root"/scripts/* "$tmp/t/scripts/"
: >"$tmp/t/scripts/newscript"
out=$(unnamed "$tmp/t" | tr '\n' ' ')
[ "$out" = "newtop/ lib/newlib/ scripts/newscript " ]
result $? layout_check_fires "unnamed in the planted copy: $out"

exit $((failed > 0))
