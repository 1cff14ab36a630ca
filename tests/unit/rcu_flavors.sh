#!/usr/bin/env bash
# The RCU unit tests (test_rcu, test_oom_rcu) under each kcompat flavor
# (KC_RCU_FLAVOR: memb, qsbr, bp, ck-epoch). The other unit tests run
# under the default one; a slip in another flavor's code (qsbr's
# offline/online marks, ck-epoch's callback moves) shows only there.
# Env: BUILD (default build/cc). KTAP on stdout.
# The sanitizer jobs run these eight themselves (tsan/run-sanitized: both
# binaries in the main list under memb, then under each other flavor):
# sanitizers: none
set -u
build=${BUILD:-build/cc}
# shellcheck source=tests/lib/sh/ktap.sh
. "$(dirname "$0")/../lib/sh/ktap.sh"
ktap_begin

for prog in test_rcu test_oom_rcu; do
	for flavor in memb qsbr bp ck-epoch; do
		KC_RCU_FLAVOR=$flavor "$build/tests/$prog" >"$tmp/out" 2>&1
		rc=$?
		[ $rc = 0 ] && grep -q '^# Totals: pass:[1-9][0-9]* fail:0 ' "$tmp/out"
		result $? "${prog}_${flavor//-/_}" \
			"exit $rc: $(grep -m3 -E 'not ok|expected|WARN' "$tmp/out" | tr '\n' ' ')"
	done
done

exit $((failed > 0))
