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
#   8   --json written as temp + rename: on a full file system (a 16 KiB
#       tmpfs, when this user may mount one) one line, exit 3, no traceback,
#       the old file kept whole, no temporary file left
# No tree is built. KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
kc=$root/scripts/kernel-check
. "$root/tests/lib/sh/common.sh"
test_begin
echo "KTAP version 1"
echo "1..8"

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

# 8. --json on a full file system: the writer kernel-series uses.
mkdir -p full
if ! mount -t tmpfs -o size=16k tmpfs full 2>/dev/null; then
	echo "ok 8 json_enospc_keeps_old_file # SKIP cannot mount a tmpfs here"
	exit $((failed != 0))
fi
trap 'umount "$tmp/full" 2>/dev/null; rm -rf "$tmp"' EXIT
echo '{"old": true}' >full/out.json
head -c 12k /dev/zero >full/filler 2>/dev/null
python3 -B - "$root/scripts/kernel-series" full/out.json >out 2>err <<'EOF'
import importlib.machinery, importlib.util, sys
loader = importlib.machinery.SourceFileLoader("kseries", sys.argv[1])
spec = importlib.util.spec_from_loader("kseries", loader)
ks = importlib.util.module_from_spec(spec)
loader.exec_module(ks)
try:
	ks.write_file(sys.argv[2], "x" * 65536)
except ks.WriteError as e:
	print(e)
	sys.exit(3)
sys.exit(0)
EOF
r=$?
[ $r = 3 ] && grep -q 'No space left on device' out && [ ! -s err ] &&
	[ "$(cat full/out.json)" = '{"old": true}' ] && [ "$(ls -A full | wc -l)" = 2 ]
result $? json_enospc_keeps_old_file "exit $r: $(cat out err | head -c 300); $(ls -A full)"
umount full
[ "$failed" = 0 ]
