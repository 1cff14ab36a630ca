#!/usr/bin/env bash
# The RCU unit tests (test_rcu, test_oom_rcu) under each kcompat flavor
# (KC_RCU_FLAVOR: memb, qsbr, bp, ck-epoch). The other unit tests run
# under the default one; a slip in another flavor's code (qsbr's
# offline/online marks, ck-epoch's callback moves) shows only there.
# Env: BUILD (default build/cc). KTAP on stdout.
set -u
build=${BUILD:-build/cc}
n=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "KTAP version 1"

result() {	# result OK NAME [DIAG]
	n=$((n + 1))
	[ -n "${3:-}" ] && [ "$1" != 0 ] && printf '# %s\n' "$3"
	if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; failed=$((failed + 1)); fi
}

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
