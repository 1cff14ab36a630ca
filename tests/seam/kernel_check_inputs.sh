#!/usr/bin/env bash
# scripts/kernel-check checks its inputs before anything runs
# (docs/kernel-trees.md), for trees and series alike:
#   1-6 a misspelt --unit program (with a did-you-mean), --cpus '2 --bogus',
#       --duration bogus (./stress's own parser says why), --jobs 0,
#       --kunit x, and --unit 'x$(touch pwned)': exit 2, one line on stderr,
#       nothing on stdout, nothing built or run (no pwned file anywhere)
#   7   a tree whose judged file is a symlink (to a file outside it), or a
#       FIFO: refused with a verdict naming it, "no verdict", exit 4, the
#       target never read, nothing hangs
#   8   --timeout 0, 2x: exit 2, one line
#   9   --timeout 10s (longer when the run never reached make) on a tree and on a series whose build never ends (a
#       make on PATH that sleeps, with a child): exit 4 with one line, in
#       well under the sleep, every such process gone, the series' clone
#       removed from TMPDIR
#  10   --no-tsan, --no-sparse: the column left out of the header and of
#       the row, the other kept (a refused tree: nothing built)
#  11   --duration 0 (./stress's run without an end): exit 2, one line
#  12   a series' --json in a missing directory: exit 2, one line, before
#       any commit is judged
#  13   --known FILE that ./stress's reader refuses (a misspelt invariant,
#       no such file) and --findings-out in a missing directory: exit 2,
#       one line, nothing run (./stress --describe reads the known file)
#  14   --only with a column that is none (foo, ''), one named twice, and
#       --scenario with a scenario ./stress does not know: exit 2, one line,
#       nothing on stdout (trees; a series refuses both as unknown options;
#       a refused tree, so that nothing is built)
#  15   --only unit, --only tsan, --only asan,stress: the header and the row
#       hold those columns only (a refused tree: nothing built)
#  16   --json written as temp + rename: on a full file system (a 16 KiB
#       tmpfs, when this user may mount one) one line, exit 3, no traceback,
#       the old file kept whole, no temporary file left
# No tree is built. KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
kc=$root/scripts/kernel-check
. "$root/tests/lib/sh/common.sh"
test_begin
echo "KTAP version 1"
echo "1..16"

mkdir -p tree/lib tree/include/linux repo
cp "$root/lib/hpcc/percpu_counter_tree.c" tree/lib/
cp "$root/lib/hpcc/include/linux/percpu_counter_tree.h" tree/include/linux/

refuse() {	# refuse WANT ARGS...: exit 2, one line matching WANT, no stdout
	local want=$1 r
	shift
	for mode in tree series; do
		if [ $mode = tree ]; then
			timeout 120 "$kc" "$@" tree >out 2>err
		else
			timeout 120 "$kc" "$@" --git repo HEAD~1..HEAD >out 2>err
		fi
		r=$?
		if [ $r != 2 ] || [ -s out ] || [ "$(wc -l <err)" != 1 ] || ! grep -q -- "$want" err ||
		   [ -e pwned ] || [ -e "$root/pwned" ]; then
			echo "# $mode: exit $r, stdout $(head -c 200 out), stderr $(head -c 300 err)"
			return 1
		fi
	done
	echo "# $(cat err)"
}
refuse 'no such test program (did you mean test_hpcc_carry?)$' --unit test_hpcc_cary
result $? unit_typo_did_you_mean
refuse "^kernel-check: --cpus: '2 --bogus' is not an integer" --cpus '2 --bogus'
result $? cpus_by_stress_parser
refuse "^kernel-check: --duration: 'bogus' is not a duration" --duration bogus
result $? duration_by_stress_parser
refuse '^kernel-check: --jobs 0: want a positive integer$' --jobs 0
result $? jobs_positive
refuse '^kernel-check: --kunit x: want a number of CPUs$' --kunit x
result $? kunit_cpus
# shellcheck disable=SC2016 # the $( ) is the payload, never to be expanded
refuse 'no such test program' --unit 'x$(touch pwned)'
result $? unit_never_shell_text

# 7. Judged files that are not regular files.
ok=0
echo "secret outside the tree" >outside.txt
mv tree/lib/percpu_counter_tree.c regular.c
ln -s "$PWD/outside.txt" tree/lib/percpu_counter_tree.c
timeout 120 "$kc" --duration 0.2s --cpus 2 tree >out 2>err
r=$?
if [ $r != 4 ] || ! grep -q '| no verdict: refused: lib/percpu_counter_tree.c is a symlink' out ||
   grep -q secret out err; then
	echo "# symlink: exit $r: $(cat out err | head -c 400)"
	ok=1
fi
rm tree/lib/percpu_counter_tree.c
mkfifo tree/lib/percpu_counter_tree.c
timeout 120 "$kc" --duration 0.2s --cpus 2 tree >out 2>err
r=$?
if [ $r != 4 ] || ! grep -q '| no verdict: refused: lib/percpu_counter_tree.c is not a regular file' out; then
	echo "# fifo: exit $r: $(cat out err | head -c 400)"
	ok=1
fi
rm tree/lib/percpu_counter_tree.c
mv regular.c tree/lib/percpu_counter_tree.c
result $ok judged_file_not_regular_refused

refuse "^kernel-check: --timeout '0': not a positive duration" --timeout 0 &&
	refuse "^kernel-check: --timeout '2x': not a positive duration" --timeout 2x
result $? timeout_checked


# 9. The overall limit stops everything it started.
mkdir -p fakebin ktmp
cat >fakebin/make <<'EOF'
#!/bin/sh
echo $$ >>"$KC_FAKE_PIDS"
sleep 300 &
echo $! >>"$KC_FAKE_PIDS"
wait
EOF
chmod +x fakebin/make
git -C repo init -q && cp -r tree/lib tree/include repo/ &&
	git -C repo add -A && git -C repo -c user.name=t -c user.email=t@t commit -qm base &&
	echo >>repo/lib/percpu_counter_tree.c &&
	git -C repo -c user.name=t -c user.email=t@t commit -qam next
ok=0
for mode in tree series; do
	if [ $mode = tree ]; then set -- tree; else set -- --git repo HEAD~1..HEAD; fi
	# The limit must expire inside the build: on a loaded host the steps
	# before it may outlast 3 s, so a run that never reached make is
	# tried again with a longer limit.
	for lim in 3 15 60; do
		: >pids
		s0=$SECONDS
		KC_FAKE_PIDS=$PWD/pids TMPDIR=$PWD/ktmp PATH="$PWD/fakebin:$PATH" \
			timeout 300 "$kc" --timeout ${lim}s --duration 0.2s --cpus 2 "$@" >out 2>err
		r=$? took=$((SECONDS - s0))
		[ ! -s pids ] || break
	done
	sleep 0.5
	# Gone: no such process, or a zombie left to an init that reaps late.
	left=$(while read -r p; do
		case $(ps -o stat= -p "$p") in '' | Z*) ;; *) echo "$p" ;; esac
	done <pids)
	if [ $r != 4 ] || [ $took -ge $((lim + 40)) ] || [ ! -s pids ] || [ -n "$left" ] ||
	   [ -n "$(ls -A ktmp)" ] ||
	   ! grep -q "^kernel-check: no verdict: the overall time limit (${lim}s) expired" err; then
		echo "# $mode: exit $r after ${took}s (limit ${lim}s), make reached: $([ -s pids ] && echo yes || echo no), left: $left, tmp: $(ls -A ktmp)," \
		     "stderr: $(tail -c 300 err)"
		ok=1
	fi
	for p in $left; do kill -KILL "$p" 2>/dev/null; done
done
result $ok timeout_stops_everything

# 10. The tools' columns turned off, one, the other, both.
mv tree/lib/percpu_counter_tree.c regular.c
ln -s "$PWD/outside.txt" tree/lib/percpu_counter_tree.c
ok=0
for case in --no-tsan:sparse --no-sparse:tsan; do
	IFS=, read -r -a opts <<<"${case%:*}"
	want=" stress per scenario |"
	IFS=, read -r -a keep <<<"${case#*:}"
	for t in "${keep[@]}"; do want+=" $t |"; done
	timeout 120 "$kc" "${opts[@]}" --no-san --duration 0.2s --cpus 2 tree >out 2>err
	r=$?
	head=$(sed -n 1p out) row=$(sed -n 3p out)
	if [ $r != 4 ] || [ "${head%"$want"}" = "$head" ] ||
	   [ "$(awk -F'|' '{ print NF }' <<<"$head")" != "$(awk -F'|' '{ print NF }' <<<"$row")" ] ||
	   [ "$(awk -F'|' '{ print NF }' <<<"$head")" != $((8 + ${#keep[@]})) ]; then
		echo "# ${opts[*]}: exit $r: $(cat out err | head -c 600)"
		ok=1
	fi
done
rm tree/lib/percpu_counter_tree.c
mv regular.c tree/lib/percpu_counter_tree.c
result $ok tool_columns_off

# --duration 0 is ./stress's "no end": every scenario would run to the limit.
# One mode: the check is kernel-options', which both modes run.
timeout 120 "$kc" --duration 0ms tree >out 2>err
r=$?
[ $r = 2 ] && [ ! -s out ] && [ "$(wc -l <err)" = 1 ] &&
	grep -q '^kernel-check: --duration 0ms: want a positive duration' err
result $? duration_zero_refused "exit $r: $(head -c 300 out err)"

# A series' --json path is tried before any commit is judged (a typo there
# lost the whole run's result at its end): no make is ever run.
mkdir -p nomake
printf '#!/bin/sh\necho $$ >>"$KC_FAKE_PIDS"\nexit 1\n' >nomake/make
chmod +x nomake/make
ok=0
: >pids
KC_FAKE_PIDS=$PWD/pids PATH="$PWD/nomake:$PATH" timeout 120 "$kc" --duration 0.2s --cpus 2 \
	--json nosuchdir/out.json --git repo HEAD~1..HEAD >out 2>err
r=$?
if [ $r != 2 ] || [ -s out ] || [ "$(wc -l <err)" != 1 ] || [ -s pids ] ||
   ! grep -q "^kernel-check: --json nosuchdir/out.json: cannot write there: " err; then
	echo "# exit $r, stdout $(head -c 200 out), stderr $(head -c 300 err)"
	ok=1
fi
result $ok series_json_checked_first

# 13. Known-findings files checked first, in both modes.
ok=0
printf 'hpcc-stress findings 1\nfinding counter_storm comprae contract - 0\n' >typo.findings
refuse '^kernel-check: --known typo.findings:2: unknown invariant' --known typo.findings || ok=1
# The rest in one mode: both run the same kernel-options check.
timeout 120 "$kc" --known nosuch.findings --findings-out nosuchdir/f tree >out 2>err
r=$?
[ $r = 2 ] && [ ! -s out ] && [ "$(wc -l <err)" = 1 ] &&
	grep -q '^kernel-check: --known nosuch.findings: No such file' err || ok=1
timeout 120 "$kc" --findings-out nosuchdir/f tree >out 2>err
r=$?
[ $r = 2 ] && [ ! -s out ] && [ "$(wc -l <err)" = 1 ] &&
	grep -q '^kernel-check: --findings-out nosuchdir/f: cannot write there' err || ok=1
result $ok known_files_checked_first

# 14. --only and --scenario, checked before anything runs (trees only), on
# a tree the judge refuses: an option let through is a quick exit 4.
mv tree/lib/percpu_counter_tree.c regular.c
ln -s "$PWD/outside.txt" tree/lib/percpu_counter_tree.c
ok=0
for case in "--only foo:^kernel-check: --only foo: no such column (one of: unit, stress, asan, tsan, sparse)$" \
	    "--only unit,unit:^kernel-check: --only: a column named twice$" \
	    "--only :^kernel-check: --only '': no such column" \
	    "--scenario nope:^kernel-check: --scenario: unknown scenario 'nope'"; do
	opt=${case%%:*} want=${case#*:}
	timeout 120 "$kc" "${opt%% *}" "${opt#* }" tree >out 2>err
	r=$?
	if [ $r != 2 ] || [ -s out ] || [ "$(wc -l <err)" != 1 ] || ! grep -q -- "$want" err; then
		echo "# $opt: exit $r, stdout $(head -c 200 out), stderr $(head -c 300 err)"
		ok=1
	fi
done
result $ok only_and_scenario_checked_first

# 15. --only: the columns it names, no other.
ok=0
for case in unit: tsan:tsan asan,stress:asan; do
	want=" stress per scenario |"
	IFS=, read -r -a keep <<<"${case#*:}"
	for t in "${keep[@]}"; do
		[ "$t" = asan ] && want+=" asan pass/fail/skip |" || want+=" $t |"
	done
	timeout 120 "$kc" --only "${case%:*}" --duration 0.2s --cpus 2 tree >out 2>err
	r=$?
	head=$(sed -n 1p out) row=$(sed -n 3p out)
	if [ $r != 4 ] || [ "${head%"$want"}" = "$head" ] ||
	   [ "$(awk -F'|' '{ print NF }' <<<"$head")" != "$(awk -F'|' '{ print NF }' <<<"$row")" ] ||
	   [ "$(awk -F'|' '{ print NF }' <<<"$head")" != $((8 + ${#keep[@]})) ]; then
		echo "# --only ${case%:*}: exit $r: $(cat out err | head -c 600)"
		ok=1
	fi
done
rm tree/lib/percpu_counter_tree.c
mv regular.c tree/lib/percpu_counter_tree.c
result $ok only_columns

# 16. --json on a full file system: the writer kernel-series uses.
mkdir -p full
if ! mount -t tmpfs -o size=16k tmpfs full 2>/dev/null; then
	echo "ok 16 json_enospc_keeps_old_file # SKIP cannot mount a tmpfs here"
	exit $((failed != 0))
fi
trap 'umount "$tmp/full" 2>/dev/null; rm -rf "$tmp"' EXIT
echo '{"old": true}' >full/out.json
head -c 12k /dev/zero >full/filler 2>/dev/null
python3 "$root/tests/lib/kernel_series_cases.py" enospc full/out.json >out 2>err
r=$?
[ $r = 3 ] && grep -q 'No space left on device' out && [ ! -s err ] &&
	[ "$(cat full/out.json)" = '{"old": true}' ] && [ "$(ls -A full | wc -l)" = 2 ]
result $? json_enospc_keeps_old_file "exit $r: $(cat out err | head -c 300); $(ls -A full)"
umount full
[ "$failed" = 0 ]
