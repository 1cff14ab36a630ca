#!/usr/bin/env bash
# Each sub-structure of the run object (src/run.h, a member of struct
# stress marked "/* owner: FILE... */") is written by its owners only:
# no other file of src/ assigns to it, increments it, stores to it
# atomically, copies or prints into it, or takes a non-const pointer
# into it. Read from the source lines, so a write through a pointer a
# owner handed out is not seen (none is handed out: docs/layout.md).
# Shown to fail on a copy of src/ with one planted write.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=tests/lib/sh/common.sh
. "$here/lib/sh/common.sh"
ktap_begin

# owners SRC: "MEMBER FILE..." for each owned member of struct stress.
owners() {
	sed -n '/^struct stress {/,/^};/p' "$1/run.h" |
		sed -n -E 's#^\s.*[ *]([a-z_]+);\s*/\* owner: ([a-z_. ]+) \*/.*#\1 \2#p'
}

# writes SRC: "FILE:LINE:TEXT [MEMBER]" for each write to an owned member
# outside its owners; exit 2 if grep fails.
writes() {
	local m own f re files
	owners "$1" | while read -r m own; do
		# an assignment or increment, a store, a copy into, a pointer kept
		re="->$m\b[][A-Za-z0-9_.>-]*\s*([-+*/%&|^]?=[^=]|<<=|>>=|\+\+|--)"
		re="$re|(\+\+|--)\s*[A-Za-z_]+->$m\b"
		re="$re|(atomic_(store|exchange|fetch_[a-z]+|compare_exchange_[a-z]+)(_explicit)?"
		re="$re|pthread_mutex_[a-z]+|mem(cpy|set|move)|v?s?n?printf|str(n?cpy|n?cat))"
		re="$re\(\s*&?[A-Za-z_]+->$m\b"
		re="$re|=\s*&[A-Za-z_]+->$m\b"
		files=()
		for f in "$1"/*.c; do
			case " $own " in *" ${f##*/} "*) ;; *) files+=("$f") ;; esac
		done
		grep -n -H -E -e "$re" "${files[@]}"
		[ $? -lt 2 ] || exit 2
	done | grep -v -E ":\s*const [a-z_ ]+\*\s*[a-z_]+ = &" | sed "s#^$1/##"
	return "${PIPESTATUS[0]}"
}

o=$(owners "$root/src")
result "$([ -n "$o" ]; echo $?)" run_has_owned_members "no '/* owner: ... */' member in src/run.h"
out=$(writes "$root/src"); rc=$?
[ $rc = 0 ] && [ -z "$out" ]
result $? only_owners_write_run_members "written outside the owner (grep status $rc): $out"

mkdir -p "$tmp/src"
cp "$root"/src/*.c "$root"/src/run.h "$tmp/src/"
m=${o%% *}
printf 'static void planted(struct stress *s)\n{\n\ts->%s = s->%s;\n}\n' "$m" "$m" >>"$tmp/src/report.c"
out=$(writes "$tmp/src")
case $out in "report.c:"*"s->$m = s->$m;") rc=0 ;; *) rc=1 ;; esac
result $rc ownership_check_fires "the planted write in report.c: ${out:-not seen}"

exit $((failed > 0))
