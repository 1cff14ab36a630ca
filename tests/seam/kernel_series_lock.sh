#!/usr/bin/env bash
# scripts/kernel-series' locks (docs/kernel-trees.md, "Checking a series"):
# a series holds a lock on each content it judges ($BUILD/kseries/KEY.lock)
# to its end. A second series over other content takes its locks at once;
# one that shares a content waits for it. Checked without a build: a holder
# process takes series_lock() on keys a and b, and a second one asks with
# LOCK_NB, so waiting shows as an error instead of a hang. KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/sh/common.sh
. "$root/tests/lib/sh/common.sh"
echo "KTAP version 1"
echo "1..2"
n=0 failed=0
tmp=$(mktemp -d)
export BUILD=$tmp/b
# lock KEY...: series_lock() on rows with these keys; "held" once they are,
# then wait to be killed. With NB set, a lock that would wait
# prints "would wait" and exits 1.
lock() {
	python3 -B "$root/tests/lib/kernel_series_cases.py" lock "$@"
}
coproc holder { lock a b; }
read -r -u "${holder[0]}" line
if [ "$line" != held ]; then
	echo "Bail out! the holder did not take its locks: $line"
	exit 1
fi
out=$(NB=1 lock c d </dev/null 2>&1)
[ "$out" = held ]
result $? "a series over other content does not wait" "$out"
out=$(NB=1 lock d b </dev/null 2>&1)
[ "$out" = "would wait" ]
result $? "a series sharing a content waits for it" "$out"
# shellcheck disable=SC2154 # holder_PID is set by coproc
kill "$holder_PID" 2>/dev/null
wait
rm -rf "$tmp"
[ "$failed" = 0 ]
