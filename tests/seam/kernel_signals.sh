#!/usr/bin/env bash
# SIGINT and SIGTERM sent to a bash kernel-* program alone, as kill(1)
# sends them, while the build it started runs (a make on PATH that starts
# a child and waits; guard in scripts/kernel-lib.sh, docs/kernel-trees.md):
#   1 kernel-san, SIGINT: exit 130, the one line "kernel-san: stopped by
#     SIGINT; no verdict", the make and its child gone, no temporary file
#     or directory left, no --out written
#   1b the same once the build has ended, while a test program runs under
#     the column's own timeout(1) (a group of its own): kernel-san with
#     SIGINT, kernel-tsan with SIGTERM; scripts/kunit's suite with SIGINT;
#     the program and its child gone
#   2 kernel-check over a tree, SIGTERM, while kernel-judge's make runs:
#     the same with 143 and SIGTERM, one line for the run (kernel-judge,
#     below it, stays quiet), the judge's partial verdict removed
#   3 kernel-check as in 2, with a make that ignores SIGINT and a 1 s
#     grace (KERNEL_GUARD_GRACE), for SIGINT and SIGTERM: the grace's KILL
#     ends kernel-check's own process group, not kernel-judge's below it;
#     still the exit status and line of the signal (not the time limit's),
#     the make and its child gone by the time kernel-check has exited, no
#     verdict or partial verdict left
#   4 a grace that is not a positive duration: one line, exit 2
#   5 a guarded program given SIGINT, then SIGTERM while its EXIT trap
#     cleans up (as the top guard's SIGTERM after SIGINT reaches a program
#     below it): the cleanup runs to its end, exit 130
#   6 guard_timeout below a guard: its group recorded while it runs and
#     not after, the command's status and the limit's 124 returned
# The waits are bounded (a guard against a hang, never a time limit): a
# program that stops nothing fails its case, and what it left is killed.
# KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/lib/sh/common.sh"
test_begin
echo "KTAP version 1"

mkdir -p fakebin ktmp tree/lib tree/include/linux out
cp "$root/lib/hpcc/percpu_counter_tree.c" tree/lib/
cp "$root/lib/hpcc/include/linux/percpu_counter_tree.h" tree/include/linux/
# The build: its pid and its child's, on the FIFO, once both run (opened
# read-write: a stand-in run after the test has gone never blocks).
# With KS_PROG the build ends at once, each test program it makes a copy
# of KS_PROG (the same stand-in: the program under the column's timeout).
cat >fakebin/make <<'EOF'
#!/bin/sh
if [ -n "${KS_PROG:-}" ]; then
	for a; do
		case $a in
		*/test_* | */stress | */percpu_counter_tree_kunit) mkdir -p "${a%/*}" && cp "$KS_PROG" "$a" || exit 1 ;;
		esac
	done
	exit 0
fi
[ -z "${KS_IGNORE_INT:-}" ] || trap '' INT
sleep 600 &
echo "$$ $!" 1<>"$KS_FIFO"
wait
EOF
chmod +x fakebin/make
sed '/KS_PROG/,/^fi$/d' fakebin/make >prog
chmod +x prog
# A compiler for kernel-tsan's probe of -fsanitize=thread.
printf '#!/bin/sh\nexit 0\n' >fakebin/tsan-cc
chmod +x fakebin/tsan-cc
mkfifo fifo tick
exec 3<>fifo 4<>tick

# gone PID: PID has ended (or is a zombie) within the bound; between two
# looks a read of the FIFO no one writes (a pause without a process).
gone() {
	local i st
	for ((i = 0; i < 3000; i++)); do
		{ read -r _ _ st _ <"/proc/$1/stat"; } 2>/dev/null || return 0
		[ "$st" = Z ] && return 0
		read -r -t 0.02 -u 4 _
	done
	return 1
}

# alive PID: PID runs now (neither ended nor a zombie).
alive() {
	local st
	{ read -r _ _ st _ <"/proc/$1/stat"; } 2>/dev/null && [ "$st" != Z ]
}

# stop_case NAME SIG RC OUT CMD...: CMD, started alone in the background,
# gets SIG once its make runs; it must end with RC and the one line, its
# make and the make's child gone by the time it has exited, nothing left
# in TMPDIR, no OUT or OUT's temporary files. After a case that hung or left a process (each
# look bounded at a minute), the rest fail unrun.
hung=
stop_case() {
	local name=$1 sig=$2 want=$3 outf=$4 pid mk kid rc bad='' left
	shift 4
	if [ -n "$hung" ]; then
		result 1 "$name" "not run: $hung hung or left a process"
		return
	fi
	# ./stress for kernel-check's checks of its options (scripts/kernel-options).
	STRESS=$STRESS KS_FIFO=$PWD/fifo TMPDIR=$PWD/ktmp PATH="$PWD/fakebin:$PATH" \
		env --default-signal=INT "$@" >so 2>se &
	pid=$!
	if ! read -r -t 300 mk kid <&3; then
		kill -KILL "$pid" 2>/dev/null
		wait "$pid"
		result 1 "$name" "never reached make: $(head -c 300 se)"
		return
	fi
	kill -"$sig" "$pid"
	if ! gone "$pid"; then
		hung=$name bad+="still running; "
		kill -KILL "$pid" "$mk" "$kid"
	fi
	wait "$pid"
	rc=$?
	# What outlived it is a failure now, and killed (no bounded wait).
	! alive "$mk" || { bad+="make $mk outlived it; "; kill -KILL "$mk"; }
	! alive "$kid" || { bad+="its child $kid outlived it; "; kill -KILL "$kid"; }
	gone "$mk" || hung=$name bad+="make $mk left; "
	gone "$kid" || hung=$name bad+="its child $kid left; "
	[ "$rc" = "$want" ] || bad+="exit $rc, want $want; "
	# (After KS_SAID lines the program says while it runs: scripts/kunit.)
	[ "$(tail -n +$((1 + ${KS_SAID:-0})) se)" = "${1##*/}: stopped by SIG$sig; no verdict" ] ||
		bad+="stderr [$(head -c 300 se)]; "
	left=(ktmp/* "$outf"*)
	[ "${left[*]}" = "ktmp/* $outf*" ] || bad+="left ${left[*]}; "
	# (What a failed case left fails it alone.)
	rm -rf ktmp/* "$outf" "$outf".*
	kill -KILL "$mk" "$kid" 2>/dev/null
	result "$([ -z "$bad" ]; echo $?)" "$name" "$bad"
}

stop_case san_int_stops_all INT 130 "$PWD/out/asan" \
	"$root/scripts/kernel-san" --jobs 1 --kind full --out "$PWD/out/asan" tree "$PWD/b"
# A test program under the column's own timeout(1), in a group of its own.
KS_PROG=$PWD/prog stop_case san_int_stops_test_program INT 130 "$PWD/out/asan" \
	"$root/scripts/kernel-san" --jobs 1 --kind adapter --out "$PWD/out/asan" tree "$PWD/b"
KS_PROG=$PWD/prog TSAN_CC=tsan-cc stop_case tsan_term_stops_test_program TERM 143 "$PWD/out/tsan" \
	"$root/scripts/kernel-tsan" --jobs 1 tree "$PWD/b"
KS_PROG=$PWD/prog KS_SAID=1 stop_case kunit_int_stops_suite INT 130 "$PWD/out/kunit" \
	"$root/scripts/kunit" --build "$PWD/b" tree
# kernel-check's judge writes its verdict beside its build directory.
ck=$(echo "$PWD/tree" | cksum | cut -d' ' -f1)
stop_case check_term_one_line TERM 143 "$root/build/kcheck/tree-$ck.verdict" \
	"$root/scripts/kernel-check" --no-san --no-tsan --no-sparse --duration 1s tree

for sig in INT TERM; do
	KS_IGNORE_INT=1 KERNEL_GUARD_GRACE=1 \
		stop_case "check_grace_stops_nested_${sig,,}" $sig $((128 + $(kill -l $sig))) \
		"$root/build/kcheck/tree-$ck.verdict" \
		"$root/scripts/kernel-check" --no-san --no-tsan --no-sparse --duration 1s tree
done

# The grace is checked as every input is, before the run's child starts
# (which would refuse --duration 0: the program stops either way).
bad=''
for g in 0 0s -1 1x 1.5.0 ' 1' $'1\n2'; do
	KERNEL_GUARD_GRACE=$g "$root/scripts/kernel-check" --no-san --no-tsan --no-sparse \
		--duration 0 tree >so 2>se
	rc=$?
	[ "$rc" = 2 ] && [ "$(wc -l <se)" = 1 ] &&
		grep -q '^kernel-check: KERNEL_GUARD_GRACE .*: not a positive duration' se ||
		bad+="[$g]: exit $rc, $(head -c 200 se); "
done
result "$([ -z "$bad" ]; echo $?)" guard_grace_checked "$bad"

# A guarded program whose cleanup takes two steps with a pause between:
# the second signal comes in the pause.
cat >twostep <<EOF
#!/usr/bin/env bash
. "$root/scripts/kernel-lib.sh"
guard
trap 'rm -f step1; sleep 0.3; rm -f step2' EXIT
read -r _ _ _ _ pg _ </proc/\$\$/stat
echo "\$\$ \$pg" 1<>"$PWD/fifo"
sleep 600
EOF
chmod +x twostep
: >step1
: >step2
bad=''
env --default-signal=INT ./twostep 2>se &
pid=$!
if read -r -t 300 kid pg <&3; then
	kill -INT -- -"$pg"
	for ((i = 0; i < 3000; i++)); do
		[ -e step1 ] || break
		read -r -t 0.02 -u 4 _
	done
	kill -TERM "$kid"
	gone "$pid" || bad+="still running; "
	kill -KILL -- -"$pg" 2>/dev/null
else
	bad+="never started: $(head -c 300 se); "
	kill -KILL "$pid" 2>/dev/null
fi
wait "$pid"
rc=$?
[ "$rc" = 130 ] || bad+="exit $rc, want 130; "
[ ! -e step2 ] || bad+="its cleanup cut short; "
result "$([ -z "$bad" ]; echo $?)" guard_second_signal_keeps_cleanup "$bad"

# guard_timeout below a guard: the group timeout(1) makes is recorded
# while it runs (before its command starts) and no longer once it has
# ended; the command's status comes back, and the limit still holds.
cat >recorded <<EOF
#!/usr/bin/env bash
. "$root/scripts/kernel-lib.sh"
guard
guard_timeout 60 sh -c 'read -r _ _ _ _ pg _ </proc/\$\$/stat; echo "\$pg"; ls "\$KERNEL_GUARD_DIR"; exit 3'
echo "rc \$?"
ls "\$KERNEL_GUARD_DIR"
guard_timeout 0.1 sleep 60
echo "rc \$?"
EOF
chmod +x recorded
bad=''
TMPDIR=$PWD/ktmp ./recorded >so 2>se || bad+="exit $?; "
pg=$(head -1 so)
[[ $pg =~ ^[0-9]+$ ]] || bad+="no group [$(head -c 200 so) $(head -c 200 se)]; "
awk -v pg="$pg" '
	NR > 1 && /^rc / { n++; if (n == 1 && $2 != 3) print "status " $2 ", want 3"
			   if (n == 2 && $2 != 124) print "limit: status " $2 ", want 124"; next }
	NR > 1 && $0 == pg { if (n) print "record left"; else seen = 1 }
	END { if (!seen) print "never recorded"; if (n != 2) print "rc lines " n }' so >why
[ ! -s why ] || bad+="$(tr '\n' ';' <why)"
left=(ktmp/*)
[ "${left[*]}" = "ktmp/*" ] || bad+="left ${left[*]}; "
rm -rf ktmp/*
result "$([ -z "$bad" ]; echo $?)" guard_timeout_record_removed "$bad"

exit $((failed > 0))
