#!/usr/bin/env bash
# scripts/findings' KUnit cases as the catalogue gives them (nothing
# built, docs/kernel-trees.md#findings-a-maintainer-can-act-on):
#   1 a row's CASE@N is the CPU count its case is verified at (the
#     _extremes cases: 16, where their state exists), a row without one
#     the --kunit-cpus default; by_cpus() puts each count in a run of its own
#   2 a KUnit file of both _extremes cases holds their shared helper once,
#     before the cases, and no template's "// needs:" line
# KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
echo "KTAP version 1"
echo "1..2"
python3 -B "$root/tests/lib/findings_cases.py" "$root"
