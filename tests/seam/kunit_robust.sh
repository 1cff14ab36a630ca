#!/usr/bin/env bash
# The KUnit shim's robustness (docs/kunit.md), through the kunit_shim_robust
# suite of our fixture (tests/seam/kunit/kunit_fixture.c): WARNs are counted
# per case and in a closing "# warnings: N" line, a double free_percpu()
# fails its case as class crash, a case that never returns fails by the
# per-case timeout (KUNIT_CASE_TIMEOUT=1 here) as class crash (timeout), and
# the suite goes on to its last case. Env: BUILD (default build/cc).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
fx=${BUILD:-build/cc}/kunit/kunit_fixture
echo "KTAP version 1"
echo "1..1"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
bad=
KUNIT_CASE_TIMEOUT=1 KUNIT_FIXTURE_HANG=1 timeout -k 5 60 "$fx" --cpus 4 \
	--filter kunit_shim_robust >"$out" 2>/dev/null
rc=$?
[ "$rc" = 1 ] || bad+="exit $rc, want 1"$'\n'
for l in '    # robust_warn: WARNING 3; first: tests/seam/kunit/kunit_fixture.c:' \
	 '    ok 1 robust_warn' \
	 '    # robust_bad_free: class=crash: invalid free (1); first: tests/seam/kunit/kunit_fixture.c:' \
	 '    not ok 2 robust_bad_free' \
	 '    # robust_hang: class=crash (timeout): did not return within 1 s' \
	 '    not ok 3 robust_hang' '    ok 4 robust_after' \
	 '# Totals: pass:2 fail:2 skip:0 total:4' '# warnings: 4'; do
	grep -qF -- "$l" "$out" || bad+="missing: $l"$'\n'
done
if [ -z "$bad" ]; then
	echo "ok 1 robust_suite_counts_and_goes_on"
else
	printf '%s' "$bad" | sed 's/^/# /'
	sed 's/^/# /' "$out"
	echo "not ok 1 robust_suite_counts_and_goes_on"
	exit 1
fi
