#!/usr/bin/env bash
# The scripts' toolkit, scripts/hpccpy (docs/layout.md): KTAP as lib/util
# writes it, one-line argument errors, signals that clean up. The cases are
# tests/lib/hpccpy_check.py's.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib/sh/common.sh
. "$here/lib/sh/common.sh"
python3 -B "$here/lib/hpccpy_check.py"
