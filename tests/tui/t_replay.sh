#!/bin/sh
# Replay controls: R (restart from the start, paused; it asks first: g and G are the top
# and bottom of a list now), s (step to the next placement), t (jump to a time), E (to
# the end), Space (play) and speed; all on fixtures/spawn.dat.
# In-process (RQPATH_TUI_SCRIPT, playback on a virtual 40 ms clock): golden/script.sh.
. "$(dirname "$0")/golden/script.sh"

step ask "1R"
step no "n"
step start "Ry"
step s1 "2s"
step s3 "ss"
step t002 "t0.02<Enter>"
step t001 "t0.01<Enter>"
step faster "+++"
step slower "-"
step cap "+++++"
step play " "
step replay-played-80x24 "1"
step end "E"
run_script -- replay "$fixture"

has ask 'restart the replay from the start, every count from 0\? y restarts' "R does not ask"
has no 'not restarted' "R n: does not say it did nothing"
has no ' END ' "R n: restarted all the same"
has start 'paused 1x 0.000000s' "R y: back to the start, paused"
has start ' 0 events' "R y: nothing fed yet"
has s1 '^ 1 placement$' "s: one placement"
has s3 '^ 3 placements' "s s: three placements"
has t002 'paused 1x 0.020' "t 0.02: at 0.02 s"
has t001 'paused 1x 0.010' "t 0.01: backwards to 0.01 s"
has faster 'paused 10x' "+ three times: 10x"
has slower 'paused 5x' "-: 5x"
has cap 'paused 1000x' "speed caps at 1000x"
has play ' END ' "Space at 1000x did not play to the end"
golden replay-played-80x24
has end ' END ' "E"
[ "$rc" -eq 0 ] || fail "exit status $rc"
finish
