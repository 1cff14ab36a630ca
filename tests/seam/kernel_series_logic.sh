#!/usr/bin/env bash
# scripts/kernel-series' comparison of commits, on verdicts written here
# (no build): which checks are compared with BASE, and the first bad /
# fixed by lines, for the cases tests/seam/kernel_series.sh does not build:
#   1 adapter-only BASE, then the full suite: nothing compared but the
#     adapter's cases and the build (fixed by where the full suite builds)
#   2 the full suite, then adapter only: first bad on the build
#   3 KUnit cases (--kunit): a case failing later is a first bad, passing
#     again a fixed by; a case failing at BASE is never a first bad
#   4 BASE without a KUnit file: the KUnit cases of later commits are not
#     compared
#   5 a check failing at BASE: fixed by where it first passes, no first bad
#   6 counter_storm through the adapter: compared from an adapter-only BASE
#     on; the scenarios it SKIPs there are not; the row groups the SKIPs
#   7 a scenario INCOMPLETE at one commit (and ERROR at another): "no
#     verdict" for it there, its history unchanged, exit 4, the row says so
#   8 a judge that left no verdict (host gone, timeout): "no verdict", never
#     "fixed by" (BASE without a result, then a commit that builds), exit 4
#   9 adapter-only BASE: the full suite's cases and scenarios start their
#     history at the first commit that ran them and regress after it
#  10 fixed, then broken again: "broken again by", exit 1
#  11 30 cases breaking at one commit: the summary line, then the lines
#     folded
#  12 control characters in a subject are escaped
#  13 cache keys on a tiny repository (describe()): a commit that leaves the
#     judged files alone, or brings BASE's content back, shares its key and
#     says "cached from"; a change of content under the same file names, or
#     a judged file added, gets a key of its own
#  14 a judge's verdict file read back (read_verdict()): every record kind,
#     a KUnit suite without a result, a refusal, no file at all
#  15 a verdict file cut short or garbled (a field missing, a count not a
#     number): that commit's "no verdict", naming the file and the line;
#     bytes that are not UTF-8 are read, not a traceback
#  16 a KUnit run whose cases all pass but which WARNs (kwarn): the check
#     "kunit (WARN)" fails from that commit on, the column says "N WARN"
# KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
echo "KTAP version 1"
echo "1..16"
python3 -B "$root/tests/seam/kernel_series_logic.py"
