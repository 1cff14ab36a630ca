#!/usr/bin/env bash
# The lint gate (scripts/lint): shellcheck -S warning and pyflakes3 find
# nothing in the repository's shell and Python files; the gate is shown to
# fire on planted files (one shell file found by its #! line only, with the
# pipe-and-redirection mistake shellcheck calls SC2259, one Python file
# with an unused import), naming each. Without a tool: one visible SKIP.
# BUILD only places the lint cache: the sanitizer jobs leave it to make check.
# sanitizers: none
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=tests/lib/sh/common.sh
. "$here/lib/sh/common.sh"
ktap_begin
for tool in shellcheck pyflakes3; do
	if ! command -v "$tool" >/dev/null; then
		echo "1..1"
		echo "ok 1 lint # SKIP $tool not installed (scripts/install-deps installs it)"
		exit 0
	fi
done

cache=${BUILD:-$root/build/cc}/lint-cache
out=$("$root/scripts/lint" --cache "$cache" 2>&1)
result $? repository_lint_clean "$(printf '%s\n' "$out" | head -n 20)"

printf '#!/usr/bin/env bash\nprintf "b\\na\\n" >f\nsort | uniq -c <f\n' >"$tmp/tool"
printf 'import os\nprint("x")\n' >"$tmp/t.py"
printf '#!/bin/sh\necho "$1"\n' >"$tmp/fine"
out=$("$root/scripts/lint" "$tmp/tool" "$tmp/t.py" "$tmp/fine" 2>&1)
rc=$?
[ $rc = 1 ] && grep -q "^$tmp/tool:3:.*\[SC2259\]" <<<"$out" &&
	grep -q "^$tmp/t.py:1:.* 'os' imported but unused" <<<"$out" &&
	! grep -q "^$tmp/fine:" <<<"$out"
result $? lint_fires_on_planted_files "$(printf 'exit %s\n%s\n' $rc "$out" | head -n 8)"

exit $((failed > 0))
