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
for fmt in text json csv jsonl html perfetto; do
	check "audit --format $fmt" "$RQPATH" audit --format $fmt "$f"
	# a device is written only when asked (--force): -o /dev/full alone is refused
	check "audit --format $fmt -o /dev/full --force" "$RQPATH" audit --format $fmt "$f" \
		-o /dev/full --force
done
for p in csv jsonl; do
	check "audit --placements $p" "$RQPATH" audit --placements $p "$f"
done
check "audit of two files --format jsonl" "$RQPATH" audit --format jsonl "$f" "$f"
for fmt in text json csv html; do
	check "diff --format $fmt" "$RQPATH" diff --format $fmt "$f" "$f"
done
check "diff -o /dev/full --force" "$RQPATH" diff "$f" "$f" -o /dev/full --force
[ -f "$f" ] || { echo "FAIL no input: $f is missing"; exit 1; }
check "explain FILE" "$RQPATH" explain "$f"
# the short outputs too: help and --version that could not be written are errors
for c in help --version; do
	check "$c" "$RQPATH" $c
done
exit $fail
