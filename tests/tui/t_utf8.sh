#!/bin/sh
# Task names in UTF-8 (issue 22 item 1), golden/utf8.dat recorded with
#   rqpath record -o utf8.dat -- build/tests/hostile_comm --utf8
# Under LANG=C.UTF-8 valid UTF-8 is shown as such, columns counted in cells (CJK and
# fullwidth 2, combining 0, emoji 2), and escaped are: invalid bytes and the kernel's cut
# inside a character (\xHH), control bytes (\x1b), the right-to-left override and the
# invisible tag character (\u202e, \U000e0041), a combining mark with nothing before it
# and the third mark on one letter.  The f and / prompts take typed UTF-8 and edit it
# by characters.  Under LANG=C the same names are all \xHH.
. "$(dirname "$0")/golden/lib.sh"
dat=tests/tui/golden/utf8.dat

tui_start 80 24 -- replay $dat
wait_for ' END ' 60 || exit 1
settle
keys 4
golden utf8-findings-80x24
# the filter typed in UTF-8, edited by characters: 日本語x, Left, BSpace -> 日本x
keys 2 f
tm send-keys -t t -l 'comm=日本語x'
keys Left BSpace
cap | tail -1 | grep -q '^filter: comm=日本x' || fail "prompt after Left BSpace: $(cap | tail -1)"
keys Right BSpace Enter
golden utf8-filter-80x24
keys f
tm send-keys -t t -l 'finding=needless-callback'
keys Enter
golden utf8-placements-80x24
# what may never reach the terminal raw
rlo=$(printf '\342\200\256') tag=$(printf '\363\240\201\201')
cap | grep -q "$rlo" && fail "a raw U+202E reached the screen"
cap | grep -Fq 'rlo\u202eexe' || fail "the right-to-left override is not shown escaped"
keys f
tm send-keys -t t -l 'comm=tag'
keys Enter
cap | grep -q "$tag" && fail "a raw tag character reached the screen"
cap | grep -Fq 'tag\U000e0041x' || fail "the tag character is not shown escaped"
# a search for an emoji, then its detail
keys F /
tm send-keys -t t -l '😀'
keys Enter Enter
golden utf8-detail-80x24
keys Escape 3 /
tm send-keys -t t -l 'ＡＢＣ'
keys Enter
golden utf8-tasks-80x24
tm capture-pane -t t -p -e | grep -q "$(printf '\033')\[2J" && fail "a raw ESC [2J reached the pane"
quit_and_check

# outside a UTF-8 locale: every byte that is not printable ASCII as \xHH
tui_start 80 24 LC_ALL=C -- replay $dat
wait_for ' END ' 60 || exit 1
settle
keys 4
golden utf8-findings-ascii-80x24
quit_and_check
finish
