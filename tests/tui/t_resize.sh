#!/bin/sh
# Resizing: 80x24 -> 132x50 -> 60x15 (too small: a message) -> 80x24 again must give
# the same screens as a fresh 80x24 start, in every view.
. "$(dirname "$0")/golden/lib.sh"

tui_start 80 24 -- replay "$fixture"
wait_for ' END ' 60 || exit 1
settle
for v in 1 2 3 4 5; do
	keys $v
	resize 132 50
	cap | head -1 | grep -q 'END 1x' || fail "view $v at 132x50: no title"
	[ "$(cap | wc -L)" -le 132 ] || fail "view $v wider than 132"
	resize 50 10
	cap | grep -q 'needs 80x24' || fail "view $v at 50x10: no size message"
	resize 80 24
done
keys 1; golden dashboard-80x24
keys 5; golden teach-80x24
quit_and_check
finish
