#!/bin/sh
# Resizing: 80x24 -> 132x50 -> 50x10 (too small: a message) -> 80x24 again must give
# the same screens as a fresh 80x24 start, in every view.
# In-process (RQPATH_TUI_SCRIPT): see golden/script.sh.
. "$(dirname "$0")/golden/script.sh"

for v in 1 2 3 4 5; do
	step - "$v"
	step "big$v" ":resize 132x50"
	step "small$v" ":resize 50x10"
	step - ":resize 80x24"
done
step dashboard-80x24 1
step teach-80x24 5
run_script -- replay "$fixture"
for v in 1 2 3 4 5; do
	row "big$v" 1 | grep -q 'END 1x' || fail "view $v at 132x50: no title"
	[ "$(screen "big$v" | wc -L)" -le 132 ] || fail "view $v wider than 132"
	[ "$(screen "big$v" | wc -l)" -eq 50 ] || fail "view $v at 132x50: not 50 rows"
	has "small$v" 'needs 80x24' "view $v at 50x10: no size message"
done
golden dashboard-80x24
golden teach-80x24
[ "$rc" -eq 0 ] || fail "exit status $rc"
finish
