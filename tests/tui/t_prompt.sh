#!/bin/sh
# Prompts and search (issue: prompts appended to the previous text, no line editing,
# case-sensitive search without a count): prompts start empty, Up recalls, Ctrl-U/W/A/E
# edit; search is smart-case, says "match K of N" and when it wraps, in every list view;
# text that does not fit ends in an ellipsis (~ in ASCII).  In-process: golden/script.sh.
. "$(dirname "$0")/golden/script.sh"

step s-sh "2/sh<Enter>"
step s-zzz "/zzz<Enter>"
step f-fork "fkind=fork<Enter>"
step f-up "f<Up>"
step f-up-cpu "<End> cpu=1<Enter>"
step f-ctrl-u "fbogus<C-u>kind=exec<Enter>"
step f-ctrl-w "fkind=fork cpu=1<C-w><Enter>"
step f-ctrl-ae "fcpu=1<C-a>kind=wakeup <C-e><Enter>"
step f-esc "fkind=exec<Esc>"
step caps "F<Home>/RQPATH<Enter>"
step lower "/rqpath<Enter>"
step back "N"
step wrap "n"
step tasks "3<Home>/KSOFTIRQD<Enter>"
step tasks-lc "/ksoftirqd<Enter>"
step findings "4/missed<Enter>"
step teach "5/select_idle_sibling<Enter>"
step dash "1/"
step detail "2<Home><Down><Down><Enter>"
run_script -- replay "$fixture"

has s-zzz 'not found: zzz$' "second search appended to the first (want zzz alone)"
has f-fork 'placements matching kind=fork( |$)' "filter kind=fork"
has f-up 'filter: kind=fork' "Up did not recall the filter"
has f-up-cpu 'placements matching cpu=1 kind=fork' "recalled filter edited"
has f-ctrl-u 'placements? matching kind=exec( |$)' "Ctrl-U did not clear the line"
has f-ctrl-w 'placements matching kind=fork( |$)' "Ctrl-W did not delete the last word"
has f-ctrl-ae 'placements matching cpu=1 kind=wakeup( |$)' "Ctrl-A / Ctrl-E did not move"
has f-esc 'placements matching cpu=1 kind=wakeup( |$)' "Esc did not cancel the prompt"
has caps 'not found: RQPATH' "a capital in the pattern must match exactly"
has lower 'match 1 of [0-9]+ for /rqpath' "no 'match K of N'"
n=$(screen lower | sed -n 's/.*match 1 of \([0-9]*\) .*/\1/p')
has back "search wrapped to the bottom: match $n of $n" "N back over the top: no wrap notice"
has wrap "search wrapped to the top: match 1 of $n" "n past the last match: no wrap notice"
# smart case: lower case matches either case, in the tasks view too
has tasks 'not found: KSOFTIRQD' "tasks: capitals match exactly"
screen tasks-lc | grep 'match 1 of' >/dev/null || fail "tasks: no search"
screen tasks-lc | awk 'NR > 3' | grep -q 'ksoftirqd' || fail "tasks: ksoftirqd not shown"
has findings 'match 1 of 1 for /missed' "findings: search"
has teach 'match 1 of [0-9]+ for /select_idle_sibling' "teach: search"
has dash 'no search in this view' "dashboard: / says there is none"
# the detail's path line is cut with an ellipsis at 80 columns
row detail 5 | grep -q '…$' || fail "cut text does not end in an ellipsis: $(row detail 5)"

script_reset
step detail "2<Home><Down><Down><Enter>"
run_script LANG=C -- replay "$fixture"
row detail 5 | grep -q '~$' || fail "ASCII: cut text does not end in ~: $(row detail 5)"
[ "$rc" -eq 0 ] || fail "exit status $rc"
finish
