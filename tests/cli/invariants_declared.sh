#!/usr/bin/env bash
# Invariants are declared by their owner (struct stress_invariant: the
# engine's in src/invariants.c, each scenario's in its own files) and
# listed by --list-invariants: every name is lower_snake_case, unique,
# with a meaning and a specification anchor that exists; every name a
# scenario's sources fail with is one that scenario (or the engine)
# declares; a run that fails with an undeclared name is an internal error
# (exit 3); replay files still read the older names. KTAP on stdout.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib/sh/common.sh
. "$here/lib/sh/common.sh"
test_begin
src=$here/../src
docs=$here/../docs

echo "KTAP version 1"
export STRESS_EXAMPLE=1 STRESS_SELFTEST=1
"$STRESS" --list-invariants >l.out 2>&1
rc=$?
[ $rc = 0 ] && [ "$(wc -l <l.out)" -gt 40 ]
result $? list_invariants "rc=$rc; $(head -c 300 l.out)"

# 1. Style, uniqueness, a meaning and an anchor that exists.
bad=$(perl -ne '
	my ($owner, $name, $rest) = /^(\S+)\s+(\S+)\s+(.*)$/ or next;
	my ($meaning, $anchor) = $rest =~ /^(.+) \((docs\/spec\/[^)#]+#[^)]+)\)$/;
	print "$name: no meaning or anchor\n" unless $anchor;
	print "$name: not lower_snake_case\n" unless $name =~ /^[a-z][a-z0-9_]*$/ ||
		($owner eq "engine" && $name eq "?");
	print "$name: declared twice ($owner)\n" if $seen{$name} && ($seen{$name} eq $owner ||
		$seen{$name} eq "engine");
	$seen{$name} ||= $owner;
	if ($anchor) {
		my ($f, $id) = split /#/, $anchor;
		$have{$anchor} //= system("grep", "-qF", "<a id=\"$id\">", "'"$docs"'/../$f") == 0;
		print "$name: no anchor $anchor\n" unless $have{$anchor};
	}' l.out)
[ -z "$bad" ]
result $? declarations_well_formed "$bad"

# 2. Every name the sources fail with is declared by the scenario whose folder
# it is in, or by the engine (src/*.c: the engine only). A name passed as a
# variable is taken from that variable's initializer in the same file.
names_failed_in() {
	perl -0777 -ne '
		my $f = $_;
		while (/\bstress_fail(?:_class|_fn)?\s*\(\s*(?!struct\b)[^,()]+,\s*(?:STRESS_\w+\s*,\s*)?([^,]+),/g) {
			my $a = $1;
			if ($a =~ /"/) { print "$1\n" while $a =~ /"([^"]*)"/g; next }
			my ($v) = $a =~ /^(\w+)/;
			my ($init) = $f =~ /\b\Q$v\E\b(?:\[\w*\])?\s*=\s*([^;]*);/;
			print "?$v\n" unless defined $init;
			print "$1\n" while defined $init && $init =~ /"([^"]*)"/g;
		}' "$@" | sort -u
}
owner_names() {
	awk -v o="$1" '$1 == o || $1 == "engine" { print $2 }' l.out
}
# undeclared OWNER NAME...: the names OWNER (and the engine) do not declare.
undeclared() {
	local o=$1
	shift
	owner_names "$o" >declared.txt
	printf '%s\n' "$@" | grep -vxF -f declared.txt | sed "s/^/ $o:/" | tr -d '\n'
}
# shellcheck disable=SC2046 # names are words
bad=$(undeclared engine $(names_failed_in "$src"/*.c))
checked=0
for dir in "$src"/scenarios/*/; do
	sc=$(basename "$dir")
	[ "$sc" = adapt ] && continue	# make adapt-stress's, registered under other names
	grep -q "^$sc " l.out || { bad+=" $sc:not-listed"; continue; }
	names=$(names_failed_in "$dir"*.c)
	checked=$((checked + $(wc -w <<<"$names")))
	# shellcheck disable=SC2086 # names are words
	bad+=$(undeclared "$sc" $names)
done
[ -z "$bad" ] && [ "$checked" -gt 50 ]
result $? failed_names_declared "undeclared:$bad (of $checked names)"

# 3. At run time: a failure under an undeclared name is an internal error.
"$STRESS" --scenario selftest --cpus 2 --steps 20 --duration 0 --stat-interval 0 \
	--selftest-fail-after 3 --selftest-fail-as no_such_name --replay-search 0 >o 2>e
rc=$?
[ $rc = 3 ] && grep -q "invariant 'no_such_name', which it does not declare" e
result $? undeclared_at_run_time_is_internal_error "rc=$rc; $(head -c 300 e)"
"$STRESS" --scenario selftest --cpus 2 --steps 20 --duration 0 --stat-interval 0 \
	--selftest-fail-after 3 --replay-search 0 >o 2>e
rc=$?
[ $rc = 1 ] && ! grep -q 'does not declare' e
result $? declared_at_run_time_is_a_failure "rc=$rc; $(head -c 300 e)"

# 4. Older names are still read, as their new ones; a name never declared is not.
if "$STRESS" --replay /dev/null 2>&1 | grep -q 'not supported in ThreadSanitizer'; then
	n=$((n + 1))
	echo "ok $n old_names_read # SKIP serial replay uses fibers: not in TSan builds"
else
	bad=
	for old in shift-range shadow-failed-reset example/precise; do
		new=$(echo "$old" | tr -- '-/' '__')
		replay_file | sed "s|^end\$|expect $old\nend|" >t.txt
		"$STRESS" --replay t.txt --replay-out out.txt >o 2>e
		rc=$?
		{ [ $rc = 0 ] && grep -qx "expect $new" out.txt; } ||
			bad+=" [$old]:$rc:$(head -c 100 e)"
	done
	replay_file | sed 's|^end$|expect shift-ranges\nend|' >t.txt
	"$STRESS" --replay t.txt >o 2>e
	[ $? = 2 ] || bad+=" [shift-ranges accepted]"
	[ -z "$bad" ]
	result $? old_names_read "$bad"
fi

# 5. The docs' tables are generated from the declarations: current, and a stale one caught.
(cd "$here/.." && scripts/docs-invariants "$STRESS" --check) 2>e
result $? docs_invariant_tables_current "$(cat e)"
mkdir -p stale/docs
cp "$docs"/*.md stale/docs/
sed -i 's/^| `task_leak` | .*/| `task_leak` | stale |/' stale/docs/oom.md
(cd stale && "$here/../scripts/docs-invariants" "$STRESS" --check) 2>/dev/null
result "$([ $? = 1 ]; echo $?)" docs_invariant_table_stale_caught

[ "$failed" = 0 ]
