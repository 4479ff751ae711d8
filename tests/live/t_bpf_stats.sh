#!/bin/sh
# record --bpf-stats: the kernel's BPF run-time statistics are on while recording and off
# after (kernel.bpf_stats_enabled back to what it was: the option holds a descriptor, it
# does not write the sysctl), and the summary's cost line gives each truth program's runs.
# Independent count: the file's own tracepoint records through trace-cmd report: every
# sched_process_fork / sched_wakeup_new / sched_process_exec in the trace ran its program
# once, and the programs stay attached a little longer than the events (the truth ends
# after them), so runs >= the trace's count, and not more than a few above it.  Without
# the option (and the sysctl off) no cost line.  Skipped where the programs cannot load.
. "$(dirname "$0")/lib.sh"
need trace-cmd
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT

before=$(cat /proc/sys/kernel/bpf_stats_enabled 2>/dev/null || echo 0)
"$RQPATH" record -o "$dir/a.dat" --bpf-stats -- "$RQPATH" workload spawn --count 200 \
	>/dev/null 2>"$dir/err" || { cat "$dir/err"; exit 1; }
if grep -q 'no kernel truth:\|truth=none' "$dir/err"; then
	echo "skip: $(grep -o 'truth=none.*\|no kernel truth:.*' "$dir/err" | head -1)"
	exit 77
fi
after=$(cat /proc/sys/kernel/bpf_stats_enabled 2>/dev/null || echo 0)
[ "$after" = "$before" ] || no "kernel.bpf_stats_enabled $before before, $after after"
line=$(grep 'truth cost (kernel BPF statistics):' "$dir/err") || {
	cat "$dir/err"; no "no cost line with --bpf-stats"; }
echo "$line"
trace-cmd report -i "$dir/a.dat" 2>/dev/null >"$dir/report" || no "trace-cmd report failed"
runs() { echo "$line" | sed -n "s/.* $1 \([0-9]*\) runs \([0-9.]*\) us\/run.*/\1 \2/p"; }
for pair in truth_fork:sched_process_fork truth_wakeup_new:sched_wakeup_new \
	    truth_exec:sched_process_exec; do
	prog=${pair%%:*} ev=${pair##*:}
	set -- $(runs $prog)
	[ -n "${1:-}" ] || { no "no $prog in the cost line"; continue; }
	n=$(grep -c " $ev: " "$dir/report")
	echo "$prog: $1 runs, $2 us/run; the trace has $n $ev"
	[ "$1" -ge "$n" ] || no "$prog ran $1 times, fewer than the $n $ev of the trace"
	[ "$1" -le $((n + n / 10 + 20)) ] || no "$prog ran $1 times, far above the $n $ev"
	awk -v t="$2" 'BEGIN { exit !(t > 0 && t < 10000) }' || no "$prog: $2 us/run"
done
[ "$(grep -c ' sched_process_fork: ' "$dir/report")" -ge 200 ] || no "fewer forks than spawned"

if [ "$before" = 0 ]; then
	"$RQPATH" record -o "$dir/b.dat" -- true >/dev/null 2>"$dir/err2" || no "record failed"
	! grep -q 'truth cost' "$dir/err2" || no "a cost line without --bpf-stats"
fi
[ $fail = 0 ] || exit 1
echo "ok: --bpf-stats counted the truth programs' runs, the trace's counts agree"
