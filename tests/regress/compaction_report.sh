#!/usr/bin/env bash
# The compaction report sections (bench/compaction/report-section): a --quick
# run writes both sections and the JSON with the shapes the report needs;
# bad options are refused in one line with exit 2. The numbers themselves
# are not asserted (300 requests, two seeds).
set -u
export BUILD=${BUILD:-build/cc}
# From the repository's top (the sanitizer jobs run tests elsewhere; their
# BUILD is absolute).
cd "$(dirname "$0")/../.." || exit 1
RS=bench/compaction/report-section
echo "KTAP version 1"
n=0 rc=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
result() {	# NAME OK [DIAG]: numbered as the cases run
	n=$((n + 1))
	if [ "$2" = 1 ]; then
		echo "ok $n $1"
	else
		[ -n "${3:-}" ] && printf '%s\n' "$3" | sed 's/^/# /' | tail -20
		echo "not ok $n $1"
		rc=1
	fi
}

"$RS" --out "$dir/out" --quick --seeds 1-2 >"$dir/log" 2>&1
st=$?
ok=1
for f in section5.md section6.md compaction.json; do
	[ -s "$dir/out/$f" ] || ok=0
done
[ $st -eq 0 ] || ok=0
result report_section_quick_runs $ok "exit $st: $(cat "$dir/log")"

ok=1
head -1 "$dir/out/section5.md" | grep -q '^## 5\. ' || ok=0
head -1 "$dir/out/section6.md" | grep -q '^## 6\. ' || ok=0
for pat in '^| Stable ' '^| Thresh async ' '^| Redes sync ' '\*\*Question 5' \
	   '^    bench/compaction/report-section --out DIR'; do
	grep -q "$pat" "$dir/out/section5.md" || { ok=0; echo "# section 5 lacks $pat"; }
done
for pat in '^| Stable ' '\*\*Question 6' 'compaction_churn --depletion-policy stable' \
	   '^| 1 .* PASS '; do
	grep -q "$pat" "$dir/out/section6.md" || { ok=0; echo "# section 6 lacks $pat"; }
done
# Tables fit a mail reply.
wide=$(grep '^|' "$dir/out/section5.md" "$dir/out/section6.md" | awk -F: 'length($0) - length($1) - 1 > 72' | head -3)
[ -z "$wide" ] || { ok=0; echo "# table lines over 72 columns: $wide"; }
result report_section_markdown $ok

python3 tests/lib/producer_check.py compaction "$dir/out/compaction.json"
result report_section_json "$([ $? -eq 0 ] && echo 1 || echo 0)"

ok=1
for args in "--out $dir/x --seeds 3-1" "--out $dir/x --seeds x" "--out $dir/x --bogus" "--quick" \
	    "--out $dir/x --kernel-src $dir/none"; do
	# shellcheck disable=SC2086
	"$RS" $args >"$dir/o" 2>"$dir/e"
	st=$?
	if [ $st -ne 2 ] || [ "$(wc -l <"$dir/e")" -ne 1 ] || [ -s "$dir/o" ]; then
		ok=0
		echo "# $args: exit $st, stderr: $(cat "$dir/e")"
	fi
done
[ -e "$dir/x" ] && { ok=0; echo "# a refused run created its --out"; }
result report_section_bad_input $ok

# The stable limit's parameters: out of range is one line and exit 2
# before any run, in frag-bench and in compaction_churn's option rows.
ok=1
FB=$BUILD/bench/compaction/frag-bench
for args in "$FB --stable-mult 0" "$FB --stable-mult 17" "$FB --stable-weight 0" \
	    "$FB --stable-weight 257" "$FB --kernels Stable,Bogus" "$FB --kernels Stable --check" \
	    "$BUILD/stress --scenario compaction_churn --stable-mult 17 --duration 0.1s" \
	    "$BUILD/stress --scenario compaction_churn --stable-weight 0 --duration 0.1s"; do
	# shellcheck disable=SC2086
	$args >"$dir/o" 2>"$dir/e"
	st=$?
	if [ $st -ne 2 ] || [ "$(wc -l <"$dir/e")" -ne 1 ] || [ -s "$dir/o" ]; then
		ok=0
		echo "# $args: exit $st, stderr: $(head -c 300 "$dir/e")"
	fi
done
result stable_params_bad_input $ok

# ... and in range they reach the zone: the invariants check the limit and
# the average against the options given (bounded by steps: a 0.2 s run can
# starve at load and end with no verdict).
"$BUILD/stress" --scenario compaction_churn --depletion-policy stable --stable-mult 4 \
	--stable-weight 2 --cpus 4 --steps 500 --duration 60s --seed 1 >"$dir/o" 2>&1
st=$?
result stable_params_reach_zone "$([ $st -eq 0 ] && grep -q 'stable limit:' "$dir/o" &&
	echo 1 || echo 0)" "exit $st: $(tail -5 "$dir/o")"
exit $rc
