#!/bin/sh
# Teach view (issue: the ! mark unexplained; f node=18 found nothing although explain
# numbers the steps; Enter on a "maybe" step could not list its candidates): the header
# explains the marks, each step shows the number explain prints and f node=N takes,
# Enter on a step nothing took for certain lists the placements that may have.
. "$(dirname "$0")/golden/script.sh"

# the step numbered 14 by explain, and its maybe count ("+N?")
line=$(cd "$top" && "$RQPATH" explain "$fixture" | awk '$0 ~ / 14 .*WF_CURRENT_CPU/')
maybe=$(printf '%s\n' "$line" | sed -n 's/.*+\([0-9]*\)?.*/\1/p')
[ -n "$maybe" ] || { echo "FAIL: explain shows no maybe count on step 14: $line"; exit 1; }
slow=$(cd "$top" && "$RQPATH" explain "$fixture" | awk '$0 ~ / 18 .*sched_balance_find_dst_cpu/ { print $1 }')

step teach 5
step sel "/WF_CURRENT_CPU<Enter>"
step maybe "<Enter>"
step node18 "2fnode=18<Enter>"
step node14q "fnode=14?<Enter>"
step bad "fnode=99<Enter>"
run_script -- replay "$fixture"

has teach '! finding here +\+N\? maybe' "no legend for the marks"
row sel 3 >/dev/null
screen sel | grep -q '14 .*WF_CURRENT_CPU' || fail "step 14 not numbered as explain numbers it"
has maybe "^ $maybe placements? matching node=[a-z-]+\?" "Enter on a maybe step: not its $maybe candidates"
has node18 "^ $slow placements matching node=" "f node=18: not explain's step 18 ($slow)"
has node14q "^ $maybe placements? matching node=" "f node=14?: not the candidates"
has bad "no teach step '99'" "f node=99: no error"
[ "$rc" -eq 0 ] || fail "exit status $rc"
finish
