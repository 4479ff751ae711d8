#!/bin/sh
# Key navigation on fixtures/spawn.dat: view switching, Enter into filtered lists and
# details, Esc back, filter and search in the placements view, sorting tasks.
# In-process (RQPATH_TUI_SCRIPT): see golden/script.sh.
. "$(dirname "$0")/golden/script.sh"

# The numbers the screens must show come from `rqpath audit` of the same file: the TUI
# and the audit must agree.
counts=$("$RQPATH" audit --format json "$top/$fixture" | python3 -c '
import json, sys
d = json.load(sys.stdin)
p = {x["path"]: x["count"] for x in d["placements"]}
slow = sum(p.get(k, 0) for k in ("fork-local", "fork-moved", "exec-local", "exec-moved"))
print(d["findings"]["offcpu-fork"]["count"], sum(p.values()), slow)')
set -- $counts
n_offcpu=$1 n_total=$2 n_slow=$3
[ -n "$n_slow" ] || { echo "FAIL: cannot read the audit of $fixture"; exit 1; }

step tab1 "<Tab>"
step tab2 "<Tab>"
step tab5 "<Tab><Tab><Tab><Tab>"
step fnd-enter "4<Down><Down><Enter>"
step fnd-detail "<Enter>"
step fnd-back1 "<Esc>"
step fnd-back2 "<Esc>"
step filter "2fkind=fork cpu=1<Enter>"
step clear "F"
step badfilter "fbogus=1<Enter>"
step search "<Home>/rqpath<Enter>"
step search-detail "<Enter>"
step - "<Esc>"
step sort "3o"
step task-enter "<Home><Enter>"
step task-back "<Esc>"
step teach-sel "5<Down><Down><Down><Down><Down><Down><Down><Down><Down><Down><Down><Down><Down><Down><Down><Down><Down>"
step teach-enter "<Enter>"
step esc-first "<Esc><Esc>"
run_script -- replay "$fixture"

has tab1 ' placements  ' "Tab did not open placements"
has tab2 ' tasks  ' "Tab did not open tasks"
has tab5 ' dashboard  ' "Tab did not cycle back"
# findings: Enter on offcpu-fork lists exactly its placements
has fnd-enter "$n_offcpu placements matching with=offcpu-fork: $n_offcpu proven, 0 possible" \
	"findings Enter"
# row 4 is the proven section's title
screen fnd-enter | sed -n '5,23p' | grep -v '^ *$' | grep -vq '\.O\.\.' &&
	fail "non-offcpu row listed"
has fnd-detail 'flagged: offcpu-fork' "detail of a flagged fork"
has fnd-back1 'matching with=offcpu-fork' "Esc back to the list"
has fnd-back2 ' findings  ' "Esc back to findings"
# placements: filter, clear, search
has filter '[0-9]+ placements matching cpu=1 kind=fork' "filter prompt"
screen filter | sed -n '4,23p' | grep -v '^ *$' | grep -vq ' fork ' &&
	fail "filter let a non-fork row through"
has clear "^ $n_total placements" "F clears the filter"
has badfilter 'unknown filter key' "bad filter not reported"
has search '/rqpath' "search shown"
has search-detail 'task .*rqpath' "search did not select an rqpath row"
# tasks: sort and Enter into that task's placements
has sort 'sorted by ' "o sorts"
has task-enter 'placements matching pid=[0-9]+' "tasks Enter"
has task-back ' tasks  ' "Esc back to tasks"
# teach: Enter on the slow path lists the placements that took it
has teach-sel "sched_balance_find_dst_cpu  $n_slow through" "teach selection"
has teach-enter "$n_slow placements matching node=slow" "teach Enter"
# Esc never quits: from the first view it stays (q and Ctrl-C quit)
has esc-first ' teach  ' "Esc Esc from the first view left the TUI"
[ "$rc" -eq 0 ] || fail "exit status $rc"
finish
