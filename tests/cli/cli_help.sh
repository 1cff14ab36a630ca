#!/usr/bin/env bash
# --help is generated from the option tables: every line at most 80
# columns, the engine's options in their sections (run, checking, faults,
# output, until-fail, replay, modes: a row's group field), every option
# of the tables (--help-markdown lists them) in
# --help and in docs/stress.md, --help SCENARIO shows that scenario's
# options only, and the generated reference in docs/stress.md is current.
set -u
STRESS=${STRESS:-${BUILD:-build/cc}/stress}
STRESS=$(realpath "$STRESS")
here=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/sh/ktap.sh
. "$here/tests/lib/sh/ktap.sh"
ktap_begin

STRESS_SELFTEST=1 "$STRESS" --help >"$tmp/help"
STRESS_SELFTEST=1 "$STRESS" --help-markdown >"$tmp/md"
wide=$(awk 'length($0) > 80' "$tmp/help" | head -n 1)
result "$([ -s "$tmp/help" ] && [ -z "$wide" ]; echo $?)" help_within_80_columns "wide: $wide"

# The sections, in order, the same in --help and the docs; a row without
# its section would show one more ("ungrouped").
want='run checking faults output until-fail replay modes'
got=$(sed -n 's/^Options, \(.*\):$/\1/p' "$tmp/help" | tr '\n' ' ')
gotmd=$(sed -n 's/^Engine options, \(.*\):$/\1/p' "$tmp/md" | tr '\n' ' ')
[ "$got" = "$want " ] && [ "$gotmd" = "$want " ]
result $? help_grouped "sections in --help: $got; in the docs: $gotmd"

sed -n 's/^- `\(-., \)\{0,1\}\(--[a-z0-9-]*\).*/\2/p' "$tmp/md" | sort -u >"$tmp/names"
missing=
while read -r o; do
	grep -q -- "$o\b" "$tmp/help" || missing="$missing $o"
done <"$tmp/names"
result "$([ "$(wc -l <"$tmp/names")" -gt 40 ] && [ -z "$missing" ]; echo $?)" \
	every_option_in_help "missing:$missing"
missing=
while read -r o; do
	grep -q -- "\`[^\`]*$o\b" "$here/docs/stress.md" || missing="$missing $o"
done <"$tmp/names"
result "$([ -z "$missing" ]; echo $?)" every_option_in_docs "missing:$missing"

"$STRESS" --help oom_race >"$tmp/one"
grep -q -- '--oom-tasks' "$tmp/one" && ! grep -q -- '--cpus' "$tmp/one"
result $? help_scenario_shows_its_options

# Every exit status of docs/stress.md's table is named in --help's
# sentence on them (the signals' as 128+N).
para=$(sed -n '/Exit status:/,/Long options/p' "$tmp/help" | tr '\n' ' ')
codes=$(sed -n '/^## Exit status/,/^Precedence/s/^| *\([0-9]\) |.*/\1/p' "$here/docs/stress.md")
missing=
for c in $codes; do
	grep -qE "(: |, )$c [a-z]" <<<"$para" || missing="$missing $c"
done
grep -q '^| 130, 143 |' "$here/docs/stress.md" && ! grep -q '128+N' <<<"$para" &&
	missing="$missing 128+N"
result "$([ "$(wc -w <<<"$codes")" -ge 5 ] && [ -z "$missing" ]; echo $?)" \
	help_names_every_exit_status "not in --help:$missing"
"$STRESS" --help no_such >"$tmp/o" 2>"$tmp/e"
[ $? = 2 ] && [ "$(wc -l <"$tmp/e")" = 1 ] && [ ! -s "$tmp/o" ]
result $? help_unknown_scenario_refused

# The generated block: current, and a stale one is caught.
(cd "$here" && scripts/docs-options "$STRESS" --check) 2>"$tmp/e"
result $? docs_option_block_current "$(cat "$tmp/e")"
mkdir -p "$tmp/stale/docs"
sed 's/^- `--oom-tasks N`.*/- `--oom-tasks N`: stale./' "$here/docs/stress.md" \
	>"$tmp/stale/docs/stress.md"
(cd "$tmp/stale" && "$here/scripts/docs-options" "$STRESS" --check) 2>/dev/null
result "$([ $? = 1 ]; echo $?)" docs_option_block_stale_caught

# --help wins over whatever else is given (docs/stress.md, One mode): the
# help on stdout, nothing on stderr, exit 0; only its own SCENARIO is checked.
bad=""
for args in "--help --bogus" "--bogus --help" "--help --cpus bogus" "--help --list" "-vh" \
	"--cpus 0 -h"; do
	# shellcheck disable=SC2086
	"$STRESS" $args >"$tmp/o" 2>"$tmp/e"
	rc=$?
	[ $rc = 0 ] && grep -q '^usage: stress ' "$tmp/o" && [ ! -s "$tmp/e" ] || bad="$bad [$args]:$rc"
done
"$STRESS" --help-markdown --bogus >"$tmp/o" 2>"$tmp/e"
[ $? = 0 ] && grep -q '^Engine options, run:' "$tmp/o" && [ ! -s "$tmp/e" ] || bad="$bad [--help-markdown --bogus]"
"$STRESS" --bogus --help oom_race >"$tmp/o" 2>"$tmp/e"
[ $? = 0 ] && grep -q -- '--oom-algo' "$tmp/o" && ! grep -q -- '--storm-pattern' "$tmp/o" ||
	bad="$bad [--bogus --help oom_race]"
[ -z "$bad" ]
result $? help_wins_over_anything_else "failed:$bad; $(head -c 200 "$tmp/e" | tr '\n' ' ')"

exit $((failed > 0))
