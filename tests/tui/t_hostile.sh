#!/bin/sh
# A task named "\033]0;pwned\007\033[2J" (golden/hostile.dat, recorded with
# rqpath record): it must show up C-escaped in every view and never reach the
# terminal: the pane title stays, the screen is not cleared.
. "$(dirname "$0")/golden/lib.sh"

tui_start 80 24 -- replay tests/tui/golden/hostile.dat
wait_for ' END ' 60 || exit 1
settle
before=$(tm display -p -t t '#{pane_title}')
keys 2 f
tm send-keys -t t 'comm=pwned' Enter
settle
cap | grep -Fq '\x1b]0;pwned' || fail "placements: escaped comm not shown"
keys Enter
cap | grep -Fq '\x1b]0;pwned\x07\x1b[2J' || fail "detail: escaped comm not shown"
keys 3 / Escape
keys 4 5 1
title=$(tm display -p -t t '#{pane_title}')
[ "$title" = "$before" ] || fail "pane title changed to '$title'"
case "$title" in *pwned*) fail "pane title set by a task name" ;; esac
cap | head -1 | grep -q 'rqpath replay' || fail "screen was cleared"
# no raw ESC ] in what tmux received: the escaped form only
tm capture-pane -t t -p -e | grep -q "$(printf '\033')]0;pwned" && fail "raw OSC reached the pane"
quit_and_check
finish
