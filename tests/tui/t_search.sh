#!/bin/sh
# Search highlights (issue 13: "matches highlighted"): after / every occurrence of the
# pattern on the rows that match it is drawn highlighted, in the placements, tasks,
# findings and teach views alike, smart case included; rows that do not match carry no
# highlight.  ":dump-match" dumps the screen with the highlighted text between « ».
. "$(dirname "$0")/golden/script.sh"

f=fixtures/idle-stack.dat
step - "2/rq-idle<Enter>"
step pl ":dump-match"
step - "/RQ-IDLE<Enter>"
step pl-caps ":dump-match"
step - "3/ksoftirqd<Enter>"
step tasks ":dump-match"
step - "4/missed<Enter>"
step findings ":dump-match"
step - "5/select_idle<Enter>"
step teach ":dump-match"
step - "2<Esc>"
step plain ":dump"
run_script -- replay "$f"

# placements: the rows of rq-idle-* tasks, and only those, show the match highlighted
screen pl | sed -n '4,23p' >"$work/rows"
n_rows=$(grep -c 'rq-idle' "$work/rows")
n_hl=$(grep -c '«rq-idle»' "$work/rows")
[ "$n_rows" -gt 0 ] || fail "placements: no rq-idle row on screen"
[ "$n_hl" -eq "$n_rows" ] || fail "placements: $n_hl of $n_rows rq-idle rows highlighted"
grep -v 'rq-idle' "$work/rows" | grep -q '«' && fail "placements: a row without the match is highlighted"
has pl 'match [0-9]+ of [0-9]+ for /rq-idle' "placements: no 'match K of N'"
# a capital matches exactly: nothing found, nothing highlighted
has pl-caps 'not found: RQ-IDLE' "placements: RQ-IDLE must not match"
screen pl-caps | sed -n '4,23p' | grep -q '«' && fail "placements: highlight after a search that found nothing"
has tasks '«ksoftirqd»/[01]' "tasks: ksoftirqd not highlighted"
has findings '«missed»-idle' "findings: missed not highlighted"
has teach '«select_idle»' "teach: select_idle not highlighted"
# a plain dump is unchanged
screen plain | grep -q '«' && fail "a plain dump shows highlight marks"
[ "$rc" -eq 0 ] || fail "exit status $rc"
finish
