#!/bin/sh
# Replay controls: g (start, paused), s (step to the next placement), t (jump to a
# time), G (end), Space (play) and speed; all on fixtures/spawn.dat.
. "$(dirname "$0")/golden/lib.sh"

tui_start 80 24 -- replay "$fixture"
wait_for ' END ' 60 || exit 1
settle
keys 1 g
cap | grep -q 'paused 1x 0.000000s' || fail "g: back to the start, paused"
cap | grep -q ' 0 events' || fail "g: nothing fed yet"
keys 2 s
cap | grep -q '^ 1 placements' || fail "s: one placement"
keys s s
cap | grep -q '^ 3 placements' || fail "s s: three placements"
keys t
tm send-keys -t t '0.02' Enter
sleep 0.5; settle
cap | grep -q 'paused 1x 0.020' || fail "t 0.02: at 0.02 s"
keys t
tm send-keys -t t '0.01' Enter
sleep 0.5; settle
cap | grep -q 'paused 1x 0.010' || fail "t 0.01: backwards to 0.01 s"
keys + + +
cap | grep -q 'paused 10x' || fail "+ three times: 10x"
keys - ; cap | grep -q 'paused 5x' || fail "-: 5x"
keys + + + + +; cap | grep -q 'paused 1000x' || fail "speed caps at 1000x"
keys ' '
wait_for ' END ' 20 || fail "Space at 1000x did not play to the end"
keys 1; golden "replay-played-80x24"
keys G; cap | grep -q ' END ' || fail "G"
quit_and_check
finish
