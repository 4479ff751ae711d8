#!/bin/sh
# Keys as htop, tig and less users expect (issue 22 item 2), on fixtures/spawn.dat:
# g/Home and G/End are the top and the bottom of a list (g restarted the replay and
# zeroed every count), q closes a nested view and quits from the first one (it quit from
# anywhere), F10 quits from any view, Shift-Tab cycles the views backwards, F3 searches,
# F4 filters, F5 opens the timeline (at the list's row), and the help lists them all,
# the prompts' editing keys too (they are in the one key table).
# The placement numbers come from trace-cmd report: the placements are the sched_wakeup,
# sched_wakeup_new and sched_process_exec records (the last one is #N).  In-process: golden/script.sh.
. "$(dirname "$0")/golden/script.sh"

command -v trace-cmd >/dev/null 2>&1 || { echo "trace-cmd not installed"; exit 77; }
n=$(trace-cmd report "$top/$fixture" 2>/dev/null |
	awk '$5 == "sched_wakeup:" || $5 == "sched_wakeup_new:" || $5 == "sched_process_exec:" {
		n++ } END { print n + 0 }')
[ "$n" -gt 1 ] || { echo "FAIL: no placements in trace-cmd report of $fixture"; exit 1; }

step bottom "2G<Enter>"
step top "<Esc>g<Enter>"
step end "<Esc><End><Enter>"
step home "<Esc><Home><Enter>"
step list "<Esc>"
step q-closes "4<Down><Down><Enter>q"
step btab1 "1<BTab>"
step btab2 "<BTab>"
step tab "<Tab>"
step f3 "2<F3>"
step f3-done "sh<Enter>"
step f4 "<F4>"
step f4-done "kind=fork<Enter>"
step f5 "<F5>"
step f5-back "<Esc>1<F5>"
step help "?"
step help2 "<PgDn>"
step help3 "<End>"
step help-q "q"
step - "q"
step after ":dump"
run_script -- replay "$fixture"

has bottom "placement #$n at" "G<Enter>: not the last placement (#$n, trace-cmd report)"
has top 'placement #1 at' "g<Enter>: not the first placement"
has top ' END ' "g restarted the replay"
has end "placement #$n at" "End<Enter>: not the last placement"
has home 'placement #1 at' "Home<Enter>: not the first placement"
has list "^ $n placements" "g/G changed the counts"
has q-closes ' findings  ' "q in a nested view did not go back to the findings"
has btab1 ' timeline  ' "Shift-Tab from the dashboard: not the timeline"
has btab2 ' teach  ' "Shift-Tab again: not the teach view"
has tab ' timeline  ' "Tab after Shift-Tab: not the timeline"
has f3 'search placements' "F3 does not search"
has f3-done 'match [0-9]+ of [0-9]+ for /sh' "F3 search finds nothing"
has f4 '^filter:$' "F4 does not filter"
has f4-done 'placements matching kind=fork' "F4 filter not applied"
has f5 ' timeline  ' "F5 from a list: no timeline"
has f5-back ' timeline  ' "F5 from the dashboard: no timeline"
for k in 'g/Home +first row' 'G/End +last row' 'S-Tab +previous view' '//F3 +search' \
	'6/F5 +timeline'; do
	has help "$k" "help: no '$k'"
done
for k in 'F10 +quit from any view' 'q +close this view; quit from the first' 'R +restart' \
	'f/F4 +filter'; do
	has help2 "$k" "help: no '$k'"
done
# the prompt's editing keys come from the key table too
for k in '\^U +delete to the start' '\^W +delete the word before the cursor'; do
	has help3 "$k" "help: no '$k'"
done
has help-q ' timeline  ' "q in the help did not go back"
grep -q '^=== 21:' "$work/dump" && fail "q from the first view did not quit"
[ "$rc" -eq 0 ] || fail "exit status $rc"

# F10 quits from a nested view at once
script_reset
step - "4<Down><Down><Enter><Enter>"
step - "<F10>"
step after ":dump"
run_script -- replay "$fixture"
grep -q '^=== 3:' "$work/dump" && fail "F10 in a nested view did not quit"
[ "$rc" -eq 0 ] || fail "exit status $rc after F10"
finish
