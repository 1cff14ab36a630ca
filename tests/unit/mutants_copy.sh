#!/usr/bin/env bash
# A mutant's tree and build are copies (scripts/mutants' copy_sources,
# clone_tree, clone_build) of the baseline's, elsewhere: its API probes
# (mk/kernel.mk, scripts/probe --cache) take the baseline's kept results
# where their inputs hold the same contents, and probe again a header the
# mutant changed. The real Makefile builds the require set of probes
# (hpcc_require.h: no object needed) in a baseline and in two mutant
# copies, with the compiler behind a wrapper that counts its calls. Then
# src/replay_explore.o, whose fallback path to the explorer names the
# build: a copy keeps the baseline's object (its .xp-bin stamp follows the
# copy, its time kept) unless a selected script runs the explorer.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=tests/lib/sh/common.sh
. "$here/lib/sh/common.sh"
ktap_begin
echo "1..5"
printf '#!/bin/sh\necho cc >>"%s/calls"\nexec %s "$@"\n' "$tmp" "${CC:-cc}" >"$tmp/cc"
chmod +x "$tmp/cc"
: >"$tmp/calls"
hdr=lib/hpcc/include/linux/percpu_counter_tree.h
# copy WHAT...: scripts/mutants' own copies, as it makes a mutant's.
copy() {
	python3 - "$root/scripts/mutants" "$@" <<'PY'
import importlib.machinery, importlib.util, sys
loader = importlib.machinery.SourceFileLoader("mutants", sys.argv[1])
spec = importlib.util.spec_from_loader("mutants", loader)
m = importlib.util.module_from_spec(spec)
loader.exec_module(m)
what, args = sys.argv[2], sys.argv[3:]
if what == "xp-bin":	# a copy keeping the object
	m.clone_build(*args, xp_bin=True)
elif what == "keeps":	# scripts selected: KEEPS or REBUILDS
	print("KEEPS" if m.keeps_replay_explore(args) else "REBUILDS")
else:
	{"sources": m.copy_sources, "tree": m.clone_tree, "build": m.clone_build}[what](*args)
PY
}
# req T: make T's require header in T/build; calls: the compiler's calls.
req() {
	make -s -C "$tmp/$1/src" BUILD="$tmp/$1/build" CC="$tmp/cc" \
		"$tmp/$1/build/kinc/hpcc_require.h" >"$tmp/$1.log" 2>&1
	rc=$?
	calls=$(wc -l <"$tmp/calls")
}
copy sources "$root" "$tmp/base/src"
req base
base_calls=$calls
[ $rc = 0 ] && [ "$calls" -gt 0 ] && [ -s "$tmp/base/build/kinc/hpcc_require.h" ]
result $? baseline_probed "rc $rc, calls $calls; $(head -c 300 "$tmp/base.log")"

# A mutant that leaves the probed header's contents as they were (its
# time moved: make runs the probes).
copy tree "$tmp/base/src" "$tmp/same/src"
copy build "$tmp/base/build" "$tmp/same/build"
touch "$tmp/same/src/$hdr"
req same
[ $rc = 0 ] && [ "$calls" = "$base_calls" ] &&
	cmp -s "$tmp/base/build/kinc/hpcc_require.h" "$tmp/same/build/kinc/hpcc_require.h"
result $? unchanged_header_kept "rc $rc, calls $calls ($base_calls before)"

# A mutant of the probed header: every probe that reads it runs again.
copy tree "$tmp/base/src" "$tmp/mut/src"
copy build "$tmp/base/build" "$tmp/mut/build"
printf '/* a mutant */\n' >>"$tmp/mut/src/$hdr"
req mut
[ $rc = 0 ] && [ "$calls" = $((base_calls * 2)) ]
result $? mutated_header_probed_again "rc $rc, calls $calls ($base_calls before)"

mkdir -p "$tmp/xb/explore"
printf '%s/xb/explore/explore\n' "$tmp" >"$tmp/xb/.xp-bin"
touch -d '2001-01-01' "$tmp/xb/.xp-bin"
copy xp-bin "$tmp/xb" "$tmp/xc"
[ "$(cat "$tmp/xc/.xp-bin")" = "$tmp/xc/explore/explore" ] &&
	[ "$(stat -c %Y "$tmp/xc/.xp-bin")" = "$(stat -c %Y "$tmp/xb/.xp-bin")" ]
result $? xp_bin_follows_copy "$(cat "$tmp/xc/.xp-bin"; stat -c %y "$tmp/xc/.xp-bin")"

got=$(copy keeps cli_help.sh; copy keeps cli_help.sh explore_schedule.sh; copy keeps)
[ "$got" = "$(printf 'KEEPS\nREBUILDS\nKEEPS')" ]
result $? replay_explore_rebuilt_for_explorer_scripts "$got"

exit $((failed > 0))
