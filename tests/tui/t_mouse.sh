#!/bin/sh
# The mouse (issue: no mouse): a click selects a list row, a double click opens it, the
# wheel scrolls.  Mouse events come from the key script (<Click:Y:X>, 0-based screen
# rows) into the same handler ncurses' KEY_MOUSE reaches.  In-process: golden/script.sh.
. "$(dirname "$0")/golden/script.sh"

step list "2<Home>"
step click "<Click:7:10><Enter>"
step dclick "<Esc><DClick:8:10>"
step wheel "<Esc>3<Home><WheelDown:10:10><Enter>"
step find "<Esc>4<Click:4:5><Enter>"
run_script -- replay "$fixture"

t5=$(row list 8 | awk '{ print $1 }')
t6=$(row list 9 | awk '{ print $1 }')
has click "^placement #[0-9]+ at ${t5}s" "click on screen row 7 then Enter: not that row's detail ($t5)"
has dclick "^placement #[0-9]+ at ${t6}s" "double click on row 8: not that row's detail ($t6)"
has wheel 'placements matching pid=4$' "wheel down 3 rows then Enter: not the 4th task (pid 4)"
has find 'placements matching with=needless-callback|placements matching with=offcpu-fork' \
	"click on a finding then Enter"
[ "$rc" -eq 0 ] || fail "exit status $rc"
finish
