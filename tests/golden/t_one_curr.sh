#!/bin/sh
# One answer to "who runs on CPU c" (issue 20 item 1): the engine's model.  It was worked
# out four times under three rules (model.c, views/tlindex.c, src/timeline.c, delay.c);
# now the model alone follows the switches (model.c's rqe_handle_switch(), dispatched by
# analysis.c) and everyone else asks it (rq_analysis_curr(), the on_run observers).
# This fails when another file of src/ or views/ reads the switch events itself:
# - only the files listed below name RQ_EV_SWITCH, each for a reason that is not
#   "who runs";
# - the switch's format fields (prev_pid, next_pid, prev_comm, next_comm) are named
#   only in events.def (the decoder fills the event from that table);
# - rqe_handle_switch() is defined in model.c alone and called from analysis.c alone;
#   rq_analysis_curr() is defined once, in analysis.c.
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top" || exit 1
fail=0

# file: why it may name a switch event
allowed='src/base/event.h: defines the event and which records show their runner
src/input/decode.c: fills struct rq_event from a sched_switch record
src/engine/analysis.c: dispatches a switch to the model (rqe_handle_switch)
src/input/tracefs.c: the recorder (below the engine) notes if a stopper runs, to re-read masks
views/evidence.c: prints the records around a placement as trace-cmd report does
src/output/perfetto.c: copies each switch record into the export as Perfetto ftrace data, never asks who runs'

n=0
for f in $(grep -rl 'RQ_EV_SWITCH' src views); do
	n=$((n + 1))
	printf '%s\n' "$allowed" | grep -q "^$f: " && continue
	echo "FAIL: $f reads switch events (RQ_EV_SWITCH): who runs on a CPU is the engine's" \
	     "model's answer (rq_analysis_curr(), on_run); see docs/HACKING.md"
	grep -n 'RQ_EV_SWITCH' "$f" | sed 's/^/	/'
	fail=1
done
[ $n -ge 3 ] || { echo "FAIL: only $n files name RQ_EV_SWITCH: is the pattern right?"; fail=1; }

hits=$(grep -rnE '"(prev|next)_(pid|comm)"' src views | grep -v '^src/base/events\.def:')
[ -z "$hits" ] || {
	echo "FAIL: the switch's format fields are read outside events.def:"
	printf '%s\n' "$hits" | sed 's/^/	/'
	fail=1
}
grep -qE '"next_pid"' src/base/events.def ||
	{ echo "FAIL: events.def no longer names next_pid: is the pattern still right?"; fail=1; }

defs=$(grep -rlE --include='*.c' '^void rqe_handle_switch\(' src views)
[ "$defs" = src/engine/model.c ] ||
	{ echo "FAIL: rqe_handle_switch() defined in: ${defs:-nowhere} (model.c alone)"; fail=1; }
calls=$(grep -rlE '[^_]rqe_handle_switch\(' src views | grep -v '^src/engine/model\.c$' |
	grep -v '^src/engine/engine\.h$')
[ "$calls" = src/engine/analysis.c ] ||
	{ echo "FAIL: rqe_handle_switch() called from ${calls:-nowhere}, not analysis.c"; fail=1; }
defs=$(grep -rlE --include='*.c' '^int rq_analysis_curr\(' src views)
[ "$defs" = src/engine/analysis.c ] ||
	{ echo "FAIL: rq_analysis_curr() defined in: ${defs:-nowhere} (analysis.c alone)"; fail=1; }

[ $fail -eq 0 ] && echo "one curr: only the model follows the switches ($n files name them)"
exit $fail
