#!/usr/bin/env bash
# bench/series/public-history (docs/bench.md): a directory of versions laid
# out as one git history. Fixtures of ours (a --manifest of three versions,
# the second and third sharing a header):
#   1 three commits, "base" the first, each with its version's files, the
#     third changing only the .c
#   2 the same files again: the same commit ids
#   3 a file whose sha256 is not the manifest's: exit 2, one line naming
#     it, OUT not made
#   4 OUT already there: exit 2, one line, its contents untouched
#   5 a missing file, a bad manifest line: exit 2, one line each
#   6 OUT made while the history is built (an empty directory, made by a
#     git of ours at the first commit): exit 1, one line, the directory
#     still empty (a plain rename would replace it), nothing left behind
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/lib/sh/ktap.sh"
ktap_begin
echo "1..9"
ph=$root/bench/series/public-history
k=$tmp/ktree
lay() {	# NAME FILE TEXT
	mkdir -p "$(dirname "$k/$1/$2")" && printf '%s\n' "$3" >"$k/$1/$2"
}
lay one lib/percpu_counter_tree.c 'int one;'
lay one include/linux/percpu_counter_tree.h 'struct h1;'
lay two lib/percpu_counter_tree.c 'int two;'
lay two include/linux/percpu_counter_tree.h 'struct h2;'
lay three lib/percpu_counter_tree.c 'int three;'
lay three include/linux/percpu_counter_tree.h 'struct h2;'
sum() { sha256sum <"$k/$1/$2" | cut -d' ' -f1; }
{
	for v in one two three; do
		for f in lib/percpu_counter_tree.c include/linux/percpu_counter_tree.h; do
			echo "$v $f $(sum $v $f) version $v"
		done
	done
} >"$tmp/manifest"

"$ph" --manifest "$tmp/manifest" "$k" "$tmp/h1" >"$tmp/o" 2>"$tmp/e"
rc=$?
g() { git -C "$tmp/h1" "$@"; }
log=$(g log --format=%s | tr '\n' ,)
base=$(g rev-parse -q --verify 'base^{commit}' 2>/dev/null)
first=$(g rev-list --max-parents=0 HEAD 2>/dev/null)
last=$(g diff --name-only HEAD~1 HEAD 2>/dev/null | tr '\n' ,)
c2=$(g show HEAD~1:lib/percpu_counter_tree.c 2>/dev/null)
[ $rc = 0 ] && [ "$log" = "version three,version two,version one," ] &&
	[ -n "$base" ] && [ "$base" = "$first" ] && [ "$last" = "lib/percpu_counter_tree.c," ] &&
	[ "$c2" = "int two;" ]
result $? three_commits_in_order "rc $rc; log $log; base $base first $first; last $last; c2 $c2; $(cat "$tmp/e")"

"$ph" --manifest "$tmp/manifest" "$k" "$tmp/h2" >/dev/null 2>&1
[ "$(git -C "$tmp/h2" rev-parse HEAD 2>/dev/null)" = "$(g rev-parse HEAD)" ]
result $? same_files_same_ids

printf '%s\n' 'int tw0;' >"$k/two/lib/percpu_counter_tree.c"
bad_input wrong_sha256 "$ph" --manifest "$tmp/manifest" "$k" "$tmp/h3"
[ ! -e "$tmp/h3" ] && grep -q 'two/lib/percpu_counter_tree.c: sha256' "$tmp/e" &&
	[ -z "$(find "$tmp" -maxdepth 1 -name '.public-history.*')" ]
result $? wrong_sha256_writes_nothing "$(cat "$tmp/e"; ls -a "$tmp")"
printf '%s\n' 'int two;' >"$k/two/lib/percpu_counter_tree.c"

mkdir "$tmp/h4" && echo mine >"$tmp/h4/file"
bad_input out_exists "$ph" --manifest "$tmp/manifest" "$k" "$tmp/h4"
[ "$(ls -A "$tmp/h4")" = file ] && [ "$(cat "$tmp/h4/file")" = mine ]
result $? out_exists_untouched "$(ls -A "$tmp/h4")"

real=$(command -v git)
mkdir "$tmp/bin"
printf '#!/bin/sh\ncase " $* " in *" commit "*) mkdir -p "%s" ;; esac\nexec "%s" "$@"\n' \
	"$tmp/h7" "$real" >"$tmp/bin/git"
chmod +x "$tmp/bin/git"
PATH=$tmp/bin:$PATH "$ph" --manifest "$tmp/manifest" "$k" "$tmp/h7" >"$tmp/o" 2>"$tmp/e"
rc=$?
[ $rc = 1 ] && [ -d "$tmp/h7" ] && [ -z "$(ls -A "$tmp/h7")" ] &&
	[ "$(wc -l <"$tmp/e")" = 1 ] && grep -q 'h7: cannot be made' "$tmp/e" &&
	[ -z "$(find "$tmp" -maxdepth 1 -name '.public-history.*')" ]
result $? out_made_meanwhile_not_replaced "rc $rc; $(cat "$tmp/e"); $(ls -A "$tmp/h7" | head -3)"

rm "$k/three/include/linux/percpu_counter_tree.h"
bad_input missing_file "$ph" --manifest "$tmp/manifest" "$k" "$tmp/h5"
echo "one lib/x.c 1234 version one" >"$tmp/bad"
bad_input bad_manifest_line "$ph" --manifest "$tmp/bad" "$k" "$tmp/h6"

[ "$failed" = 0 ]
