# shellcheck shell=bash
# A shell test's KTAP frame (sourced; tests/lib/sh/common.sh sources it
# too): its counters, its private temporary directory, its result lines.
# No python3 and no other program is resolved here: a test that needs
# nothing more sources only this file.

# test_frame: the n/failed counters and a private temporary directory $tmp,
# removed at exit.
test_frame() {
	# shellcheck disable=SC2034 # read by the scripts that source this file
	n=0 failed=0
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
}

# ktap_begin: test_frame, then the KTAP header.
ktap_begin() {
	test_frame
	echo "KTAP version 1"
}

# skip_under_kernel_src NAME: a test that builds fixture trees of its own
# judges nothing when the build already judges a KERNEL_SRC tree (the
# fixtures would be built against it): its plan, one SKIP, exit 0.
skip_under_kernel_src() {
	[ -z "${KERNEL_SRC:-}" ] && return 0
	echo "1..1"
	echo "ok 1 $1 # SKIP already building against KERNEL_SRC"
	exit 0
}

# result RC NAME [DIAG]: one KTAP line; DIAG is printed only on failure.
result() {
	n=$((n + 1))
	# Every line of the reason is a KTAP diagnostic.
	[ -n "${3:-}" ] && [ "$1" != 0 ] && printf '%s\n' "$3" | sed 's/^/# /'
	if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; failed=$((failed + 1)); fi
}

# bad_input NAME CMD...: CMD refuses its input as the project's programs
# must, exit 2 and one line on stderr; the result is named bad_input_NAME.
bad_input() {
	local name=$1 rc lines
	shift
	"$@" >"$tmp/o" 2>"$tmp/e"
	rc=$?
	lines=$(wc -l <"$tmp/e")
	result "$([ $rc = 2 ] && [ "$lines" = 1 ]; echo $?)" "bad_input_$name" \
		"rc $rc, $lines lines: $(head -n 2 "$tmp/e")"
}
