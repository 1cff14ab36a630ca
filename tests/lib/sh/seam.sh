# shellcheck shell=bash
# Helpers shared by the seam tests (sourced from the repository's top;
# seam_begin sets $build, $work, $cc, $log and $failed, the caller $bad).

# seam_begin PLAN WORK: the KTAP header (one SKIP when the build already
# judges a KERNEL_SRC tree: the fixtures would be built against it), and an
# empty work directory $BUILD/WORK, absolute.
seam_begin() {
	echo "KTAP version 1"
	if [ -n "${KERNEL_SRC:-}" ]; then
		echo "1..1"
		echo "ok 1 fixture_trees # SKIP already building against KERNEL_SRC"
		exit 0
	fi
	echo "1..$1"
	build=${BUILD:-build/cc}
	work=$build/$2
	# shellcheck disable=SC2034 # read by the scripts that source this file
	cc=${CC:-cc}
	log=$(mktemp)
	trap 'rm -f "$log"' EXIT
	unset MAKEFLAGS MAKELEVEL MFLAGS
	rm -rf "$work"
	mkdir -p "$work"
	work=$(cd "$work" && pwd)
	failed=0
}

# result N NAME: ok when $bad is empty, else not ok with the reasons.
result() {
	if [ -z "$bad" ]; then
		echo "ok $1 $2"
	else
		printf '%s\n' "$bad" | sed -e 's/^/# /'
		echo "not ok $1 $2"
		failed=$((failed + 1))
	fi
}

# A refusal: exit 2, nothing on stdout, one stderr line naming $2 and $3.
refused() {	# WHAT NAME FILE CMD...
	local what=$1 name=$2 file=$3 out err rc
	shift 3
	out=$("$@" 2>"$log")
	rc=$?
	err=$(cat "$log")
	if [ "$rc" -ne 2 ] || [ -n "$out" ] || [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ] ||
	   ! grep -qF -- "$name" <<<"$err" || ! grep -qF -- "$file" <<<"$err" ||
	   ! grep -q 'expected' <<<"$err"; then
		bad+="$what: rc=$rc stdout=[$out] stderr=[$err]"$'\n'
	fi
}
