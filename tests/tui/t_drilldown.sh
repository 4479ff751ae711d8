#!/bin/sh
# Whole-trace drill-down (issue: Enter on a finding listed only what was left in the
# engine's ring of the last 65,536 placements): with the ring cut to 100 placements
# (RQPATH_TUI_RING), Enter on offcpu-fork still lists every one of them, counted
# independently from trace-cmd report (a sched_wakeup_new naming a CPU other than the
# one whose buffer holds it), and the audit's examples are among them; the detail of a
# placement the ring no longer holds is its whole settled record (the deciding record,
# the offcpu-fork's outcome) from the index; ] [ n N in the detail
# step through the list.
. "$(dirname "$0")/golden/script.sh"

command -v trace-cmd >/dev/null 2>&1 || { echo "trace-cmd not installed"; exit 77; }
n_off=$(trace-cmd report "$top/$fixture" 2>/dev/null | awk '$5 == "sched_wakeup_new:" {
	buf = substr($3, 2, 3) + 0; split($NF, a, ":"); if (a[2] + 0 != buf) n++ }
	END { print n + 0 }')
set -- $("$RQPATH" audit --format json "$top/$fixture" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(" ".join(str(e["pid"]) for e in d["findings"]["offcpu-fork"]["examples"]))')
examples="$*"
[ "$n_off" -gt 100 ] || { echo "FAIL: the fixture has only $n_off offcpu forks"; exit 1; }

step list "4<Down><Down><Enter>"
step first "<Home>"
step first-detail "<Enter>"
step middle-detail "<Esc><Home><PgDn><PgDn><Enter>"
step step-next "<Esc><Home><Enter>]"
step step-next2 "n"
step step-prev "["
step step-back "<Esc>"
for p in $examples; do
	step "ex-$p" "<Esc><Home>/$p<Enter>"
done
run_script RQPATH_TUI_RING=100 -- replay "$fixture"

has list "^ $n_off placements matching with=offcpu-fork: $n_off proven, 0 possible" \
	"with a ring of 100: not all $n_off offcpu-fork placements (trace-cmd report's count)"
hasnt list 'the most recent ones' "says only the recent ones are kept"
has first-detail 'flagged: offcpu-fork' "first one's detail"
# past the engine's ring, the index gives the placement's whole settled record
has middle-detail 'record written on CPU [0-9]* by pid [0-9]*' "an index-only placement's deciding record"
has middle-detail "child (exited after|did not exit)" "an index-only offcpu-fork's outcome"
hasnt middle-detail 'idle before the child ran: unknown' "an index-only offcpu-fork's outcome left unknown"
has middle-detail 'flagged: offcpu-fork' "an index-only placement's finding"
# ] n [ in the detail step through the list it came from, without leaving the detail
has step-next "proven placement 2 of $n_off in the list" "] in the detail: not the list's second"
has step-next 'flagged: offcpu-fork' "] in the detail: not an offcpu-fork placement"
has step-next2 "proven placement 3 of $n_off in the list" "n in the detail: not the list's third"
has step-prev "proven placement 2 of $n_off in the list" "[ in the detail: not back to the second"
second=$(screen step-prev | sed -n 's/^ task *\([0-9]*\) .*/\1/p')
# row 4 is the proven section's title, row 5 the first placement
row step-back 6 | grep -q " $second " || fail "Esc: the list's selection is not the second row"
for p in $examples; do
	has "ex-$p" "match [0-9]+ of [0-9]+ for /$p" "the audit's example pid $p is not in the list"
done
[ "$rc" -eq 0 ] || fail "exit status $rc"
finish
