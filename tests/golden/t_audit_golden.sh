#!/bin/sh
# The full audit of every fixture (JSON and text) against the checked-in output in
# fixtures/expected/.  The numbers in it are checked against independent sources by
# t_fixture_facts.sh; this test catches any other change of output (paths, examples,
# wording).  After an intended change: UPDATE_GOLDEN=1 sh tests/golden/t_audit_golden.sh,
# then read the diff before committing it.
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
exp=$top/fixtures/expected
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$exp"
n=0 fail=0
cd "$top" || exit 1
for dat in fixtures/*.dat; do
	case "$dat" in *.v6.dat) continue ;; esac
	name=$(basename "$dat" .dat)
	for fmt in json text; do
		"$RQPATH" audit --format $fmt "$dat" >"$tmp/out" 2>&1
		rc=$?
		[ $rc -le 1 ] || { echo "FAIL: $dat exit $rc"; fail=1; continue; }
		if [ -n "$UPDATE_GOLDEN" ]; then
			cp "$tmp/out" "$exp/$name.$fmt"
		elif ! cmp -s "$tmp/out" "$exp/$name.$fmt"; then
			echo "FAIL: $dat ($fmt) differs from fixtures/expected/$name.$fmt:"
			diff "$exp/$name.$fmt" "$tmp/out" | head -10
			fail=1
		fi
	done
	n=$((n + 1))
done
[ $n -gt 0 ] || { echo "FAIL: no fixtures"; exit 1; }
[ $fail -eq 0 ] && echo "$n fixtures match fixtures/expected"
exit $fail
