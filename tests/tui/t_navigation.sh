#!/bin/sh
# Key navigation on fixtures/spawn.dat: view switching, Enter into filtered lists and
# details, Esc back, filter and search in the placements view, sorting tasks.
. "$(dirname "$0")/golden/lib.sh"

tui_start 80 24 -- replay "$fixture"
wait_for ' END ' 60 || exit 1
settle

# Tab cycles the five views
keys Tab; cap | grep -q ' placements  ' || fail "Tab did not open placements"
keys Tab; cap | grep -q ' tasks  ' || fail "Tab did not open tasks"
keys Tab Tab Tab; cap | grep -q ' dashboard  ' || fail "Tab did not cycle back"

# findings: Enter on offcpu-fork lists exactly its placements (32 in this fixture)
keys 4 Down Down Enter
cap | grep -q '32 placements matching finding=offcpu-fork' || fail "findings Enter"
cap | sed -n '4,23p' | grep -v '^ *$' | grep -vq '\.O\.\.' && fail "non-offcpu row listed"
keys Enter; cap | grep -q 'flagged: offcpu-fork' || fail "detail of a flagged fork"
keys Escape; cap | grep -q 'matching finding=offcpu-fork' || fail "Esc back to the list"
keys Escape; cap | grep -q ' findings  ' || fail "Esc back to findings"

# placements: filter, clear, search
keys 2 f
tm send-keys -t t 'kind=exec cpu=1' Enter
settle
cap | grep -Eq '[0-9]+ placements matching cpu=1 kind=exec' || fail "filter prompt"
cap | sed -n '4,23p' | grep -v '^ *$' | grep -vq ' exec ' && fail "filter let a non-exec row through"
keys F; cap | grep -q '^ 571 placements' || fail "F clears the filter"
keys f
tm send-keys -t t 'bogus=1' Enter
settle
cap | grep -q 'unknown filter key' || fail "bad filter not reported"
keys Home /
tm send-keys -t t 'mkmine' Enter
settle
cap | grep -q '/mkmine' || fail "search shown"
keys Enter; cap | grep -q 'task .*mkmine' || fail "search did not select a mkmine row"
keys Escape

# tasks: sort and Enter into that task's placements
keys 3 o; cap | grep -q 'sorted by migrations' || fail "o sorts"
keys Home Enter; cap | grep -Eq 'placements matching pid=[0-9]+' || fail "tasks Enter"
keys Escape; cap | grep -q ' tasks  ' || fail "Esc back to tasks"

# teach: Enter on the slow path lists the placements that took it
keys 5
i=0; while [ $i -lt 17 ]; do tm send-keys -t t Down; i=$((i + 1)); done
settle
cap | grep -q 'sched_balance_find_dst_cpu  230 through' || fail "teach selection"
keys Enter; cap | grep -q '230 placements matching node=slow' || fail "teach Enter"
keys Escape Escape
cap | grep -q 'RQPATH-EXIT=0' || fail "Esc from the first view quits with 0"
finish
