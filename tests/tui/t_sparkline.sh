#!/bin/sh
# The dashboard's findings-over-time sparklines see every placement (issue: they polled
# the engine's ring of recent placements after each feed and lost what one feed pushed
# through it): with a ring of 4 placements (RQPATH_TUI_RING) the rows are the same as
# with the default ring, because the sparkline is fed by the engine's placement
# observer.  fixtures/idle-stack.dat: 983 wakeups, its flagged placements spread over
# the trace (the old build drew only the last feed's, its first columns blank).
. "$(dirname "$0")/golden/script.sh"

fixture=fixtures/idle-stack.dat
step dash ":dump"
run_script RQPATH_TUI_SIZE=120x30 RQPATH_TUI_RING=4 -- replay "$fixture"
small=$(screen dash | grep -E '^ (offcpu-fork|idle-stacking|missed-idle) ')
script_reset
step dash ":dump"
run_script RQPATH_TUI_SIZE=120x30 -- replay "$fixture"
whole=$(screen dash | grep -E '^ (offcpu-fork|idle-stacking|missed-idle) ')
[ -n "$whole" ] || fail "no finding rows on the dashboard"
printf '%s\n' "$whole" | grep -q '│.*[^ │]' || fail "no sparkline drawn"
if [ "$small" != "$whole" ]; then
	fail "the sparklines depend on the ring's size"
	printf 'ring of 4:\n%s\ndefault ring:\n%s\n' "$small" "$whole"
fi
finish
