#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t_crashers.sh - every input the fuzzer ever crashed on (fixtures/crashers/) and every
# static bad file (fixtures/malformed/) through `rqpath audit --format json`: exit 0
# with one valid JSON object, or exit 2 with exactly one line on stderr; never a
# sanitizer report, never a hang.
set -u
: "${RQPATH:?}" "${RQPATH_TOP:?}"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0

for f in "$RQPATH_TOP"/fixtures/crashers/* "$RQPATH_TOP"/fixtures/malformed/*; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	name=${f#"$RQPATH_TOP"/}
	timeout 120 "$RQPATH" audit --format json "$f" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if grep -q 'Sanitizer\|runtime error' "$tmp/err"; then
		echo "FAIL $name: sanitizer report"; sed -n 1,20p "$tmp/err"; fail=1; continue
	fi
	case $rc in
	0)
		if ! python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/out"; then
			echo "FAIL $name: exit 0 but the output is not JSON"; fail=1
		fi ;;
	2)
		lines=$(wc -l <"$tmp/err")
		if [ "$lines" -ne 1 ] || [ -s "$tmp/out" ]; then
			echo "FAIL $name: exit 2 with $lines stderr lines (want 1) or stdout output"
			cat "$tmp/err"; fail=1
		fi ;;
	124) echo "FAIL $name: hung (timeout)"; fail=1 ;;
	*) echo "FAIL $name: exit $rc"; tail -n 5 "$tmp/err"; fail=1 ;;
	esac
done
if [ $n -eq 0 ]; then
	echo "no crashers or malformed fixtures to replay"
	exit 77
fi
echo "$n inputs replayed"
exit $fail
