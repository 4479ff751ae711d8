#!/bin/sh
# Every view opened on fixtures/spawn.dat, paused at the end, compared with golden
# screens at 80x24 and 120x40 (the second size reached by resizing the same session);
# the help's first two pages.
# In-process (RQPATH_TUI_SCRIPT): see golden/script.sh.
. "$(dirname "$0")/golden/script.sh"

for size in 80x24 120x40; do
	[ $size = 120x40 ] && step - ":resize 120x40"
	step "dashboard-$size" 1
	step "placements-$size" 2
	step "detail-$size" "<Home><Down><Down><Enter>"
	step "tasks-$size" "<Esc>3"
	step "findings-$size" 4
	step "teach-$size" 5
	step "teach-exec-$size" "<Down><Down><Down>"
	step "help-$size" "?"
	# the views' own keys (the sort keys of tasks and placements: one row each in keys.c)
	step "help-views-$size" "<PgDn>"
	step - "<Esc>"
done
run_script -- replay "$fixture"
[ "$rc" -eq 0 ] || fail "exit status $rc at the end of the script"
for size in 80x24 120x40; do
	for v in dashboard placements detail tasks findings teach teach-exec help help-views; do
		golden "$v-$size"
	done
done
finish
