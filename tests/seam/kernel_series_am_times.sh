#!/usr/bin/env bash
# scripts/kernel-series --am leaves the user's repository as it was, object
# times included (docs/kernel-trees.md, "Checking a series"). git am in
# the --shared clone "freshens" an object it would write again, in the
# alternates too; the series puts the times back. Checked on a fixture
# repository of loose objects and an mbox whose patch writes blobs and
# trees the repository already has: the clone and am alone change object
# times (the check can fail), kernel-series' series_am() leaves none
# changed, and refs, index and worktree are the same. No build.
# KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/sh/common.sh
. "$root/tests/lib/sh/common.sh"
echo "KTAP version 1"
echo "1..3"
n=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
repo=$tmp/repo
g() {
	git -C "$repo" -c user.name=fixture -c user.email=fixture@localhost "$@"
}
mkdir -p "$repo/lib" "$repo/include/linux"
git init -q "$repo"
cp "$root/lib/hpcc/percpu_counter_tree.c" "$repo/lib/"
cp "$root/lib/hpcc/include/linux/percpu_counter_tree.h" "$repo/include/linux/"
g add -A && g commit -q -m base
echo "/* a note */" >>"$repo/lib/percpu_counter_tree.c"
g add -A && g commit -q -m note
# The mbox re-adds the note on BASE: every object it writes is in the repository.
g format-patch -1 --stdout >"$tmp/series.mbox"
g reset -q --hard HEAD~1
find "$repo/.git/objects" -type f -exec touch -d '2020-01-01 00:00' {} +
state() {
	g show-ref
	g rev-parse HEAD
	g status --porcelain
	find "$repo/.git/objects" -type f -newermt '2020-01-02' | sort
}
state >"$tmp/before"

# mode plain|series: run git am in a clone as kernel-series does, with or
# without its restore; prints the number of object files whose time moved.
run() {
	PYTHONPATH="$root/scripts" python3 -B - "$root/scripts/kernel-series" "$repo" "$tmp/series.mbox" "$1" <<'EOF'
import sys
from hpccpy import signals
from hpccpy.load import load_script
ks = load_script("kernel-series", sys.argv[1])
a = {"repo": sys.argv[2], "am": sys.argv[3], "base": "HEAD"}
t = signals.mkdtemp("kernel-series-am.")
try:
	(ks.series_am if sys.argv[4] == "series" else ks.series_am_)(a, t)
finally:
	signals.cleanup()
EOF
}
run plain >"$tmp/plain.out" 2>&1
moved=$(find "$repo/.git/objects" -type f -newermt '2020-01-02' | wc -l)
[ "$moved" -gt 0 ]
result $? "git am in a --shared clone alone freshens the repository's objects" \
	"moved=$moved $(cat "$tmp/plain.out")"
find "$repo/.git/objects" -type f -exec touch -d '2020-01-01 00:00' {} +

run series >"$tmp/series.out" 2>&1
state >"$tmp/after"
moved=$(find "$repo/.git/objects" -type f -newermt '2020-01-02' | wc -l)
[ "$moved" = 0 ]
result $? "series_am(): no object time moved" "moved=$moved $(cat "$tmp/series.out")"
cmp -s "$tmp/before" "$tmp/after"
result $? "refs, HEAD, worktree and objects as they were" \
	"$(diff "$tmp/before" "$tmp/after")"
[ "$failed" = 0 ]
