#!/usr/bin/env bash
# The fuzz targets' seed corpus (fuzz/corpus/TARGET, docs/fuzz.md) through
# each target's standalone build ($BUILD/fuzz/TARGET-standalone, any
# compiler): no property of the target breaks (it would abort), inputs
# named ok-* are accepted by the parser and bad-* refused. Bounded: one
# pass over a few dozen files. KTAP on stdout.
set -u
BUILD=${BUILD:-build/cc}
# Under KERNEL_SRC, make check's STRESS is the tool built from lib/hpcc: the
# parsers are the tool's (a tree without skip levels refuses that option).
[ -n "${STRESS:-}" ] && BUILD=$(dirname "$STRESS")
root=$(cd "$(dirname "$0")/../.." && pwd)
n=0 failed=0
targets=$(cd "$root/fuzz" && for f in *.c; do [ "$f" = standalone.c ] || echo "${f%.c}"; done)

echo "KTAP version 1"
echo "1..$(wc -w <<<"$targets")"
for t in $targets; do
	n=$((n + 1))
	bin=$BUILD/fuzz/$t-standalone
	out=$("$bin" "$root/fuzz/corpus/$t" 2>&1)
	rc=$?
	why=
	if [ $rc -ne 0 ]; then
		why="exit status $rc"
	elif [ "$(grep -c ': accepted$\|: refused$' <<<"$out")" -lt 5 ]; then
		why="fewer than 5 corpus inputs ran"
	else
		wrong=$(grep -E '/ok-[^/]*: refused$|/bad-[^/]*: accepted$' <<<"$out")
		[ -n "$wrong" ] && why="$(wc -l <<<"$wrong") input(s) with the wrong verdict"
	fi
	if [ -z "$why" ]; then
		echo "ok $n ${t}_seed_corpus # $(grep -c ': accepted$' <<<"$out") accepted," \
			"$(grep -c ': refused$' <<<"$out") refused"
	else
		sed 's/^/# /' <<<"$out" | grep -vE ': (accepted|refused)$' | tail -20
		grep -E '/ok-[^/]*: refused$|/bad-[^/]*: accepted$' <<<"$out" | sed 's/^/# /'
		echo "not ok $n ${t}_seed_corpus # $why"
		failed=$((failed + 1))
	fi
done
[ $failed -eq 0 ]
