#!/usr/bin/env bash
# The explorer's command line (docs/explore.md#options): each ranged
# option takes both ends of the range docs/explore.md states and refuses
# one past either end (exit 2, one line); a batch that is no power of two
# and an unknown --algo are refused by their rows for every harness, before
# any harness sees them (exit 2, one line); the registry holds every harness
# the docs describe, each alias names its harness; docs/explore.md's
# generated option list is current, and a stale one is caught; no two
# files of src/explore call each other, directly or round a longer circle
# (read from the built objects' symbols). Nothing here runs a search:
# --list-harnesses after the options parses them all.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/.." && pwd)
XP=$(realpath -m "${BUILD:-build/cc}/explore/explore")
NR=7
echo "KTAP version 1"
echo "1..$NR"
if [ ! -x "$XP" ]; then
	for i in $(seq 1 $NR); do echo "ok $i explore_options_$i # SKIP no $XP"; done
	exit 0
fi
# Not tests/lib/sh/common.sh: its python3 lookup would cost more CPU than
# every check here.
# shellcheck source=tests/lib/sh/ktap.sh
. "$here/lib/sh/ktap.sh"
test_frame
cd "$tmp" || exit 1

# option LOW HIGH, as docs/explore.md's option list states them.
ranges='cpus 2 4
adds 1 8
readers 0 2
reads 0 16
batch 2 1048576
bound -1 15
budget 1 1099511627776
depth 1 16
runs 1 1099511627776
seed 0 4611686018427387904
tasks 2 20
forks 0 1
timeout 0 1073741824'
bad="" lows=() highs=()
while read -r opt lo hi; do
	lows+=("--$opt" "$lo")
	highs+=("--$opt" "$hi")
	for v in $((lo - 1)) $((hi + 1)); do
		"$XP" "--$opt" "$v" --list-harnesses >out 2>err
		rc=$? e=$(<err)
		# Below 0 the value is not a count at all: refused as such.
		[[ $rc = 2 && ! -s out && $e != *$'\n'* &&
			$e =~ ^"explore: bad --$opt '$v': ".*(out of range|not an integer) ]] ||
			bad="$bad $opt=$v exit $rc ${e:0:120};"
	done
done <<<"$ranges"
# Both ends of every range at once (the last of each kind wins).
"$XP" "${lows[@]}" --list-harnesses >/dev/null 2>err || bad="$bad lows refused: $(<err);"
"$XP" "${highs[@]}" --list-harnesses >/dev/null 2>err || bad="$bad highs refused: $(<err);"
result "$([ -z "$bad" ]; echo $?)" explore_option_ranges "$bad"

# Values the harnesses cannot take, refused by the option rows whatever
# the harness (sb takes no batch or selection at all): one line, exit 2.
bad=""
for arg in "--batch 3" "--batch 6" "--batch 1048575" "--algo nope" "--algo V16"; do
	set -- $arg
	"$XP" --harness sb "$1" "$2" --list-harnesses >out 2>err
	rc=$? e=$(<err)
	[[ $rc = 2 && ! -s out && $e != *$'\n'* && $e =~ ^"explore: bad $1 '$2': " ]] ||
		bad="$bad $arg: exit $rc ${e:0:120};"
done
for v in precise v16 bounded; do
	"$XP" --harness oom --algo "$v" --batch 1024 --list-harnesses >/dev/null 2>err ||
		bad="$bad --algo $v refused: $(<err);"
done
result "$([ -z "$bad" ]; echo $?)" explore_option_values "$bad"

# Every harness the docs describe is registered, and nothing else.
"$XP" --list-harnesses >list 2>&1
printf '%s\n' compaction counter_storm litmus mp oom publish sb zone_desc >want
cmp -s list want
result $? explore_registry_complete "$(diff want list)"
bad=""
for pair in storm:counter_storm oom_race:oom; do
	"$XP" --harness "${pair%%:*}" --help-markdown >/dev/null 2>&1 || bad="$bad ${pair%%:*}"
done
"$XP" --harness nope --list-harnesses >out 2>err
[ $? = 2 ] && grep -q "^explore: bad --harness 'nope': unknown harness" err || bad="$bad nope-accepted"
result "$([ -z "$bad" ]; echo $?)" explore_registry_aliases "$bad"

# The generated option list: current, and a stale one caught.
(cd "$root" && scripts/docs-options "$XP" --check) 2>err
result $? explore_docs_options_current "$(cat err)"
mkdir -p stale/docs
sed 's/^- `--tasks N`.*/- `--tasks N`: stale./' "$root/docs/explore.md" >stale/docs/explore.md
(cd stale && "$root/scripts/docs-options" "$XP" --check) 2>/dev/null
result "$([ $? = 1 ]; echo $?)" explore_docs_options_stale_caught
# Calls between the explorer's files: a file's undefined symbols that
# another defines are an edge; a file that reaches itself is a circle.
circles=$(cd "$(dirname "$XP")"/src/explore && nm -A ./*.o 2>/dev/null |
	sed 's|^\./\([^:]*\):| \1 |' | awk '
	NF == 4 && $3 ~ /^[TDBR]$/ { def[$4] = $1 }
	NF == 3 && $2 == "U" { use[$1, $3] = 1; files[$1] = 1 }
	END {
		for (k in use) { split(k, p, SUBSEP)
			if ((p[2] in def) && def[p[2]] != p[1]) reach[p[1], def[p[2]]] = 1 }
		for (m in files) for (a in files) if ((a, m) in reach)
			for (b in files) if ((m, b) in reach) reach[a, b] = 1
		for (a in files) if ((a, a) in reach) print a
	}' | sort | tr '\n' ' ')
ls "$(dirname "$XP")"/src/explore/main.o >/dev/null 2>&1 && [ -z "$circles" ]
result $? explore_no_call_circle "files in a call circle: $circles"
[ "$failed" = 0 ] && [ "$n" = "$NR" ]
