#!/usr/bin/env bash
# Output files never destroy a file (docs/stress.md, "Output files"): every
# option that writes a file (--json FILE on a run and on a replay,
# --replay-out on a failing run and on a replay) leaves each kind of target
# what it was. A regular file (or a symlink to one) is replaced whole by a
# rename, the symlink stays; a device, a FIFO, a pipe or our own stdout is
# written in place; a directory or an unwritable path is refused before the
# run (exit 2); a write error is exit 3 with its errno text.
#
# Every device and link is a private node in a mktemp -d directory: a
# build that renames over what it should not can only damage those.
# Needs root for mknod (CI runs as root). KTAP on stdout.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib/sh/common.sh
. "$here/lib/sh/common.sh"
test_begin

echo "KTAP version 1"
if ! mknod full c 1 7 2>/dev/null || ! mknod null c 1 3 2>/dev/null; then
	echo "1..1"
	echo "ok 1 cli_outputs # SKIP mknod needs root"
	exit 0
fi
mkfifo fifo
mkdir dir
echo old >reg
chmod 640 reg
ln -s full lfull
ln -s null lnull
ln -s fifo lfifo
ln -s dir ldir
ln -s reg lreg
ln -s nothing dangling
ln -s /proc/self/fd/1 stdout	# what /dev/stdout is, as a private name
replay_file >ok.txt
serial=1
"$STRESS" --replay ok.txt >probe.out 2>&1 || serial=0	# no serial replay under TSan

run=(--scenario counter_storm --cpus 2 --steps 100 --duration 0 --seed 1 --stat-interval 0)
fail=(--scenario selftest --cpus 2 --steps 300 --duration 0 --selftest-fail-after 50 --seed 6
      --stat-interval 0 --replay-search 0)
kind() { echo "$(stat -c '%F/%t,%T' "$1") $(stat -L -c '%F/%t,%T' "$1" 2>/dev/null)"; }

# out_cmd OPT PATH: the cheapest invocation of each output option, in cmd.
out_cmd() {
	case $1 in
	json-run) cmd=("$STRESS" "${run[@]}" --json "$2") ;;
	json-replay) cmd=("$STRESS" --replay ok.txt --json "$2") ;;
	replay-out-run) cmd=(env STRESS_SELFTEST=1 "$STRESS" "${fail[@]}" --replay-out "$2") ;;
	replay-out-replay) cmd=("$STRESS" --replay ok.txt --replay-out "$2") ;;
	esac
}
opts='json-run replay-out-run'
[ $serial = 1 ] && opts="$opts json-replay replay-out-replay"

# 1. Each option into each kind of target: the right exit, the target's kind kept.
for t in null lnull full lfull fifo lfifo dir ldir reg lreg; do
	bad=
	for opt in $opts; do
		before=$(kind $t)
		# The FIFO's reader is this shell (a read-write open never blocks),
		# so that nothing waits forever if the FIFO is not written.
		case $t in *fifo) exec 3<>fifo ;; esac
		out_cmd "$opt" "$t"
		"${cmd[@]}" >o 2>e
		rc=$?
		case $t in *fifo) dd bs=64k count=1 iflag=nonblock <&3 >fifo.out 2>/dev/null
				 exec 3<&- ;; esac
		case $opt/$rc in replay-out-run/1) rc=0 ;; esac	# that run fails on purpose
		case $t in
		null | lnull) want=0 ;;
		fifo | lfifo) want=0; grep -q . fifo.out || bad="$bad $opt:empty" ;;
		full | lfull) want=3; grep -q "^stress: cannot write $t: No space left on device$" e ||
			bad="$bad $opt:no-enospc-line" ;;
		dir | ldir) want=2; { [ ! -s o ] && [ "$(cat e)" = "stress: cannot write $t: Is a directory" ]; } ||
			bad="$bad $opt:not-refused-before-the-run" ;;
		reg | lreg) want=0; { [ "$(stat -c %a reg)" = 640 ] && [ "$(head -c 1 reg)" != o ]; } ||
			bad="$bad $opt:content-or-mode" ;;
		esac
		[ $rc = $want ] || bad="$bad $opt:exit-$rc"
		[ "$(kind $t)" = "$before" ] || bad="$bad $opt:was-$before-now-$(kind $t)"
		echo old >reg
	done
	[ -z "$bad" ] && [ -z "$(find . -maxdepth 1 -name '*.tmp[0-9]*')" ]
	result $? "outputs_into_${t}_keep_it" "failed:$bad; $(head -c 200 e)"
done

# 2. Our own stdout by name (a private link to /proc/self/fd/1): the JSON
#    follows the text report in the same file, which stays that file.
ino=$(stat -c %i o 2>/dev/null)
"$STRESS" "${run[@]}" --json stdout >o 2>e
rc=$?
[ $rc = 0 ] && grep -q '^stress: SUCCESS' o && grep -q '^{"tool":"hpcc-stress"' o &&
	[ "$(stat -c %i o)" = "$ino" ] && [ "$(stat -c %F stdout)" = "symbolic link" ]
result $? json_to_own_stdout_appends "exit $rc; $(head -c 200 e)"
"$STRESS" "${run[@]}" --json stdout 2>e | grep -c '^{"tool":"hpcc-stress"' >count
[ "$(cat count)" = 1 ]
result $? json_to_own_stdout_pipe "$(head -c 200 e)"

# 3. Process substitution: a pipe by a /dev/fd name.
"$STRESS" "${run[@]}" --json >(grep -c '^{"tool":"hpcc-stress"' >psub.out) >o 2>e
rc=$?
for i in $(seq 100); do [ -s psub.out ] && break; sleep 0.05; done
[ $rc = 0 ] && [ "$(cat psub.out)" = 1 ]
result $? json_to_process_substitution "exit $rc; $(head -c 200 e)"

# 4. Refused before the run, one line, exit 2.
bad=
for p in /proc/version nodir/x.json dangling; do
	"$STRESS" "${run[@]}" --json "$p" >o 2>e
	rc=$?
	{ [ $rc = 2 ] && [ ! -s o ] && [ "$(wc -l <e)" = 1 ] && grep -q '^stress: cannot write ' e; } ||
		bad="$bad '$p':$rc"
done
[ -z "$bad" ] && [ "$(stat -c %F dangling)" = "symbolic link" ] && [ ! -e nothing ]
result $? unwritable_outputs_refused_before_the_run "failed:$bad; $(head -c 200 e)"

# 5. A new path is created whole; a regular file's symlink stays a symlink.
"$STRESS" "${run[@]}" --json new.json >o 2>e && grep -q '"tool":"hpcc-stress"' new.json &&
	"$STRESS" "${run[@]}" --json lreg >o 2>e && [ "$(stat -c %F lreg)" = "symbolic link" ] &&
	grep -q '"tool":"hpcc-stress"' reg
result $? new_file_and_symlink_write_through "$(head -c 200 e)"

# A replacement keeps the old file's owner and group, then its mode
# (chown may clear set-id bits: the mode is set after it).
echo old >owned
chown 1234:5678 owned && chmod 2640 owned
bad=
for opt in $opts; do
	out_cmd "$opt" owned
	"${cmd[@]}" >o 2>e
	rc=$?
	case $opt/$rc in replay-out-run/1) rc=0 ;; esac
	[ $rc = 0 ] && [ "$(stat -c '%u:%g %a' owned)" = "1234:5678 2640" ] &&
		[ "$(head -c 3 owned)" != old ] || bad="$bad $opt:exit-$rc:$(stat -c '%u:%g-%a' owned)"
	echo old >owned
done
[ -z "$bad" ]
result $? replacement_keeps_owner_and_mode "failed:$bad; $(head -c 200 e | tr '\n' ' ')"

# A file with several hard links is refused before the run (exit 2, one
# line): a rename would split the links, an in-place write could lose it.
echo old >linked
ln linked other-name
bad=
for opt in $opts; do
	out_cmd "$opt" linked
	"${cmd[@]}" >o 2>e
	rc=$?
	[ $rc = 2 ] && [ ! -s o ] && [ "$(wc -l <e)" = 1 ] &&
		grep -q '^stress: cannot write linked: it has 2 hard links' e &&
		[ "$(cat linked)" = old ] && [ "$(stat -c %h linked)" = 2 ] || bad="$bad $opt:exit-$rc"
done
[ -z "$bad" ]
result $? hard_linked_target_refused "failed:$bad; $(head -c 200 e | tr '\n' ' ')"

# The watchdog's own report (the controller hangs in a stutter: the
# watchdog ends the process) into an output that cannot be written: exit 3,
# as any run's, not the hang's 1 (or 4 on a host that starved it).
STRESS_SELFTEST=1 "$STRESS" --scenario selftest --cpus 2 --selftest-hang quiescent --stall-timeout 300ms \
	--duration 0 --stat-interval 0 --seed 1 --json full >o 2>e
rc=$?
[ $rc = 3 ] && grep -q '^stress: cannot write full: No space left on device$' e &&
	grep -q '^stress: watchdog: .*exiting without the final checks' e &&
	grep -qE '^stress: (FAIL|INCOMPLETE) selftest ' o
result $? watchdog_json_write_error_is_exit_3 "exit $rc; $(grep -v '^#  ' e | head -c 300 | tr '\n' ' ')"

# No plan at the end: KTAP puts it after the version line or leaves it out.
[ $failed = 0 ]
