#!/bin/sh
# The man pages render without warnings, and rqpath-paths(7) documents every path id
# and finding id the engine can print (taken from src/engine/paths.c and src/base/findings.def).
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v man >/dev/null 2>&1 || { echo "man (man-db) is not installed"; exit 77; }
fail=0
for page in "$top"/man/*.[0-9]; do
	warn=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
	if [ -n "$warn" ]; then
		echo "FAIL: $page renders with warnings:"; echo "$warn"; fail=1
	fi
done
ids=$(sed -n 's/.*{ "\([a-z-]*\)", RQ_KIND_.*/\1/p' "$top/src/engine/paths.c")
# the rows before the test-only one (#ifdef RQ_TEST_FIFTH_FINDING)
ids="$ids $(sed -n '/^#ifdef RQ_TEST/q; s/^RQ_FINDING([A-Z_]*, "\([a-z-]*\)".*/\1/p' "$top/src/base/findings.def")"
[ $(echo $ids | wc -w) -ge 25 ] || { echo "FAIL: could not read the ids from src/engine/paths.c and src/base/findings.def"; exit 1; }
text=$(MANWIDTH=200 man -l "$top/man/rqpath-paths.7" 2>/dev/null)
for id in $ids; do
	echo "$text" | grep -q -- "$id" || { echo "FAIL: rqpath-paths(7) does not document '$id'"; fail=1; }
done
[ $fail -eq 0 ] && echo "man pages: render clean, $(echo $ids | wc -w) ids documented"
exit $fail
