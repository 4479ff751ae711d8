#!/bin/sh
# Key navigation on fixtures/spawn.dat: view switching, Enter into filtered lists and
# details, Esc back, filter and search in the placements view, sorting tasks.
. "$(dirname "$0")/golden/lib.sh"

# The numbers the screens must show come from `rqpath audit` of the same file: the TUI
# and the audit must agree.
counts=$("$RQPATH" audit --format json "$fixture" | python3 -c '
import json, sys
d = json.load(sys.stdin)
p = {x["path"]: x["count"] for x in d["placements"]}
slow = sum(p.get(k, 0) for k in ("fork-local", "fork-moved", "exec-local", "exec-moved"))
print(d["findings"]["offcpu-fork"]["count"], sum(p.values()), slow)')
set -- $counts
n_offcpu=$1 n_total=$2 n_slow=$3
[ -n "$n_slow" ] || { echo "FAIL: cannot read the audit of $fixture"; exit 1; }

tui_start 80 24 -- replay "$fixture"
wait_for ' END ' 60 || exit 1
settle

# Tab cycles the five views
keys Tab; cap | grep -q ' placements  ' || fail "Tab did not open placements"
keys Tab; cap | grep -q ' tasks  ' || fail "Tab did not open tasks"
keys Tab Tab Tab; cap | grep -q ' dashboard  ' || fail "Tab did not cycle back"

# findings: Enter on offcpu-fork lists exactly its placements
keys 4 Down Down Enter
cap | grep -q "$n_offcpu placements matching finding=offcpu-fork" || fail "findings Enter"
cap | sed -n '4,23p' | grep -v '^ *$' | grep -vq '\.O\.\.' && fail "non-offcpu row listed"
keys Enter; cap | grep -q 'flagged: offcpu-fork' || fail "detail of a flagged fork"
keys Escape; cap | grep -q 'matching finding=offcpu-fork' || fail "Esc back to the list"
keys Escape; cap | grep -q ' findings  ' || fail "Esc back to findings"

# placements: filter, clear, search
keys 2 f
tm send-keys -t t 'kind=fork cpu=1' Enter
settle
cap | grep -Eq '[0-9]+ placements matching cpu=1 kind=fork' || fail "filter prompt"
cap | sed -n '4,23p' | grep -v '^ *$' | grep -vq ' fork ' && fail "filter let a non-fork row through"
keys F; cap | grep -q "^ $n_total placements" || fail "F clears the filter"
keys f
tm send-keys -t t 'bogus=1' Enter
settle
cap | grep -q 'unknown filter key' || fail "bad filter not reported"
keys Home /
tm send-keys -t t 'rqpath' Enter
settle
cap | grep -q '/rqpath' || fail "search shown"
keys Enter; cap | grep -q 'task .*rqpath' || fail "search did not select an rqpath row"
keys Escape

# tasks: sort and Enter into that task's placements
keys 3 o; cap | grep -q 'sorted by migrations' || fail "o sorts"
keys Home Enter; cap | grep -Eq 'placements matching pid=[0-9]+' || fail "tasks Enter"
keys Escape; cap | grep -q ' tasks  ' || fail "Esc back to tasks"

# teach: Enter on the slow path lists the placements that took it
keys 5
i=0; while [ $i -lt 17 ]; do tm send-keys -t t Down; i=$((i + 1)); done
settle
cap | grep -q "sched_balance_find_dst_cpu  $n_slow through" || fail "teach selection"
keys Enter; cap | grep -q "$n_slow placements matching node=slow" || fail "teach Enter"
keys Escape Escape
cap | grep -q 'RQPATH-EXIT=0' || fail "Esc from the first view quits with 0"
finish
