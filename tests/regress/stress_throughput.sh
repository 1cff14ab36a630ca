#!/usr/bin/env bash
# bench/stress-throughput's side-by-side mode (docs/bench.md): with
# --old-stress and --configs, a quick run measures only the named
# configuration, with both builds, and reports the old build's rates and
# each configuration's new / old; bad input exits 2 with one line. Both
# builds are the same ./stress here: no speed number is asserted.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
STRESS=$(realpath "${BUILD:-build/cc}/stress")
# shellcheck source=tests/lib/sh/ktap.sh
. "$here/tests/lib/sh/ktap.sh"
ktap_begin
cd "$here" || exit 1
ST=bench/stress-throughput

nice -n 10 "$ST" --quick --stress "$STRESS" --old-stress "$STRESS" --configs checking \
	--out "$tmp/s.json" >"$tmp/out" 2>&1
rc=$?
result $rc side_by_side_runs "$(tail -n 2 "$tmp/out" | tr '\n' ' ')"
python3 - "$tmp/s.json" >"$tmp/chk" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["available"] and d["old_stress"] is True, d
assert d["configs"] == ["checking"], d["configs"]
for p in d["points"]:
    rates = p["adds_per_run_cpu_s"]
    assert sorted(rates) == ["checking", "checking@old"], sorted(rates)
    assert all(rates[k]["median"] > 0 for k in rates), rates
    r = p["old"]["new_vs_old_run"]["checking"]
    assert r and r["median"] > 0, p["old"]
print("ok")
PY
result $? side_by_side_json "$(tail -n 2 "$tmp/chk" | tr '\n' ' ')"
grep -q -- '--old-stress' <("$ST" --help)
result $? help_names_old_stress ""

# Bad input: exit 2, one line.
bad_input configs "$ST" --stress "$STRESS" --configs checking,nope --out "$tmp/x.json"
bad_input old_stress "$ST" --stress "$STRESS" --old-stress "$tmp/none" --out "$tmp/x.json"
bad_input out "$ST" --stress "$STRESS" --out
[ ! -e "$tmp/x.json" ]
result $? bad_input_writes_nothing ""

exit $((failed > 0))
