# Helpers shared by the seam tests (sourced from the repository's top, with
# $bad, $failed and $log set by the caller).

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
