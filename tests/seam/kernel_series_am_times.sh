#!/usr/bin/env bash
# scripts/kernel-series --am leaves the user's repository as it was, object
# times included (docs/kernel-trees.md, "Checking a series"). git am
# "freshens" an object it would write again, in a --shared clone's
# alternates too; kernel-series' clone fetches BASE's snapshot instead, so
# that no write of git am reaches the user's object files (nothing is put
# back afterwards, so a SIGKILL at any point leaves nothing changed).
# Checked on a fixture repository of loose objects and an mbox whose patch
# writes blobs and trees the repository already has: git am in a --shared
# clone changes object times (the check can fail); series_am() changes none
# and sets no time on the repository's files; refs, index and worktree are
# the same. No build.
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

# git am in a --shared clone, as a series applied there would be.
shared() {
	git clone -q --shared --no-checkout "$repo" "$tmp/shared" &&
		git -C "$tmp/shared" checkout -q --detach HEAD &&
		git -C "$tmp/shared" -c user.name=t -c user.email=t@t am -q "$tmp/series.mbox"
}
shared >"$tmp/plain.out" 2>&1
moved=$(find "$repo/.git/objects" -type f -newermt '2020-01-02' | wc -l)
[ "$moved" -gt 0 ]
result $? "git am in a --shared clone freshens the repository's objects" \
	"moved=$moved $(cat "$tmp/plain.out")"
find "$repo/.git/objects" -type f -exec touch -d '2020-01-01 00:00' {} +

# series_am(), any time set on the repository's files an error.
mkdir "$tmp/am"
python3 -B "$root/tests/lib/kernel_series_cases.py" am-times "$repo" "$tmp/series.mbox" "$tmp/am" \
	>"$tmp/series.out" 2>&1
r=$?
state >"$tmp/after"
moved=$(find "$repo/.git/objects" -type f -newermt '2020-01-02' | wc -l)
[ $r = 0 ] && [ "$moved" = 0 ]
result $? "series_am(): no object time moved, none put back" \
	"exit $r moved=$moved $(cat "$tmp/series.out")"
cmp -s "$tmp/before" "$tmp/after"
result $? "refs, HEAD, worktree and objects as they were" \
	"$(diff "$tmp/before" "$tmp/after")"
[ "$failed" = 0 ]
