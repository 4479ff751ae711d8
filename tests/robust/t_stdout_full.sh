#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t_stdout_full.sh - stdout on a full disk (/dev/full): a report that could not be
# written is an error (exit 2, one line naming the cause), not a silent success.
set -u
: "${RQPATH:?}" "${RQPATH_TOP:?}"
[ -w /dev/full ] || { echo "/dev/full not available"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
f=$RQPATH_TOP/fixtures/spawn.dat
check() { # LABEL CMD...
	label=$1; shift
	timeout 120 "$@" >/dev/full 2>"$tmp/err"
	rc=$?
	grep -q 'Sanitizer\|runtime error' "$tmp/err" && { echo "FAIL $label: sanitizer report"; fail=1; }
	if [ $rc -ne 2 ]; then
		echo "FAIL $label > /dev/full: exit $rc (want 2)"; fail=1
	elif [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -qi 'no space' "$tmp/err"; then
		echo "FAIL $label > /dev/full: want one line saying no space:"; cat "$tmp/err"; fail=1
	fi
}
for fmt in text json csv; do
	check "audit --format $fmt" "$RQPATH" audit --format $fmt "$f"
done
check "explain FILE" "$RQPATH" explain "$f"
# reported, not (yet) required: the short outputs of help and --version
for c in help --version; do
	"$RQPATH" $c >/dev/full 2>/dev/null
	rc=$?
	[ $rc -eq 0 ] && echo "note: rqpath $c > /dev/full exits 0 (write error not reported)"
done
exit $fail
