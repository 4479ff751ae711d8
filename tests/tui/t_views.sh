#!/bin/sh
# Every view opened on fixtures/spawn.dat, paused at the end, compared with golden
# screens at 80x24 and 120x40 (the second size reached by resizing the same session).
. "$(dirname "$0")/golden/lib.sh"

tui_start 80 24 -- replay "$fixture"
wait_for ' END ' 60 || exit 1
settle
for size in 80x24 120x40; do
	if [ $size = 120x40 ]; then
		resize 120 40
	fi
	keys 1; golden "dashboard-$size"
	keys 2; golden "placements-$size"
	keys Home Down Down Enter; golden "detail-$size"
	keys Escape 3; golden "tasks-$size"
	keys 4; golden "findings-$size"
	keys 5; golden "teach-$size"
	keys Down Down Down; golden "teach-exec-$size"
	keys '?'; golden "help-$size"
	keys Escape
done
quit_and_check
finish
