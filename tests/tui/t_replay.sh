#!/bin/sh
# Replay controls: g (start, paused), s (step to the next placement), t (jump to a
# time), G (end), Space (play) and speed; all on fixtures/spawn.dat.
# In-process (RQPATH_TUI_SCRIPT, playback on a virtual 40 ms clock): golden/script.sh.
. "$(dirname "$0")/golden/script.sh"

step start "1g"
step s1 "2s"
step s3 "ss"
step t002 "t0.02<Enter>"
step t001 "t0.01<Enter>"
step faster "+++"
step slower "-"
step cap "+++++"
step play " "
step replay-played-80x24 "1"
step end "G"
run_script -- replay "$fixture"

has start 'paused 1x 0.000000s' "g: back to the start, paused"
has start ' 0 events' "g: nothing fed yet"
has s1 '^ 1 placement$' "s: one placement"
has s3 '^ 3 placements' "s s: three placements"
has t002 'paused 1x 0.020' "t 0.02: at 0.02 s"
has t001 'paused 1x 0.010' "t 0.01: backwards to 0.01 s"
has faster 'paused 10x' "+ three times: 10x"
has slower 'paused 5x' "-: 5x"
has cap 'paused 1000x' "speed caps at 1000x"
has play ' END ' "Space at 1000x did not play to the end"
golden replay-played-80x24
has end ' END ' "G"
[ "$rc" -eq 0 ] || fail "exit status $rc"
finish
