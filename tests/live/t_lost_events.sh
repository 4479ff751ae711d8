#!/bin/sh
# Lost events are counted once: per CPU the larger of the ring buffer's overrun
# statistic and the data pages' missed-event marks, never their sum.  A recording with
# a tiny buffer must lose events; rqpath record's summary must equal the count made
# from trace-cmd's own output (tests/tools/lost_events.py), and so must rqpath audit's
# count of the file (the replay counts per CPU the larger of the two too).
. "$(dirname "$0")/lib.sh"
need trace-cmd
need python3

dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
# A quiet machine drains even an 8 KB buffer in time: stop the recorder (SIGSTOP, which
# it cannot catch) while the workload forks, so that the buffers overrun for certain.
"$RQPATH" record -o "$dir/lost.dat" --buffer-kb 8 -- "$RQPATH" workload spawn --count 20000 \
	>/dev/null 2>"$dir/rec.err" &
rpid=$!
sleep 0.3
kill -STOP $rpid 2>/dev/null
sleep 0.5
kill -CONT $rpid 2>/dev/null
wait $rpid || no "record exited $?"
cat "$dir/rec.err" | grep -v counts
python3 "$RQPATH_TOP/tests/tools/lost_events.py" "$dir/lost.dat" >"$dir/want" || no "lost_events.py failed"
cat "$dir/want"
want=$(sed -n 's/^total=//p' "$dir/want")
rec=$(sed -n 's/.*, \([0-9]*\) lost events,.*/\1/p' "$dir/rec.err")
[ "${want:-0}" -gt 0 ] || no "an 8 KB buffer lost nothing: the test proves nothing"
[ "$rec" = "$want" ] || no "rqpath record says $rec lost, trace-cmd's counts say $want"
"$RQPATH" audit "$dir/lost.dat" >"$dir/audit.out" || no "audit exited $?"
audit=$(sed -n 's/.*, \([0-9]*\) lost,.*/\1/p' "$dir/audit.out")
echo "lost: trace-cmd $want, rqpath record $rec, rqpath audit $audit"
[ "$audit" = "$want" ] || no "rqpath audit says $audit lost, trace-cmd's counts say $want"

[ $fail -eq 0 ] && echo "PASS"
exit $fail
