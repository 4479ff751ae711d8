#!/bin/sh
# Kernel truth (issue 21): rqpath record -- workload spawn with the BPF programs on (the
# default), file versions 6 and 7.  From trace-cmd report alone (tests/tools/truth_check.py):
# within the span of the instance's sched events each sched_waking has an rqpath:truth
# "waking" record of the same pid and each sched_wakeup_new a "wakeup_new" one, at most
# 0.2 % unpaired beside the hits in the context of a task hidden from the tracepoints
# (no probe runs there: rqpath(1) BUGS), and the median offset between the two stamps is <= 5 us
# (bpf_ktime_get_ns() and the mono trace clock are one clock).  trace-cmd's count of
# truth records is what record's sources line and audit's trace.truth.records say, with 0
# drops; the live pump hands the truth records out in time order with the CPUs' (record's
# count of events older than one before is 0); --no-bpf records none.  No BPF program or link of the recorder survives it, not
# even kill -9 (they are its file descriptors); no tracefs instance is left.  Skipped
# with the reason where the programs cannot load (or rqpath was built without BPF).
. "$(dirname "$0")/lib.sh"
need trace-cmd
need python3
need bpftool

tools=$(cd "$(dirname "$0")/../tools" && pwd)
mine=""
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT

"$RQPATH" record -o "$dir/probe.dat" --duration 0.2 >/dev/null 2>"$dir/probe.err"
if grep -q 'no kernel truth:' "$dir/probe.err"; then
	echo "skip: $(sed -n 's/.*no kernel truth: //p' "$dir/probe.err" | head -1)"
	exit 77
fi

# the BPF objects a running recorder holds: its descriptors' prog_id and link_id
bpf_ids() {
	cat /proc/"$1"/fdinfo/* 2>/dev/null | sed -n 's/^\(prog_id\|link_id\):[[:space:]]*/\1 /p' |
		sort -u
}
# every id of a list that still exists
alive() {
	while read -r kind id; do
		case $kind in
		prog_id) bpftool prog show id "$id" >/dev/null 2>&1 && echo "prog $id" ;;
		link_id) bpftool link show id "$id" >/dev/null 2>&1 && echo "link $id" ;;
		esac
	done <"$1"
}
# wait for a recorder's programs to be attached (at most 5 s), their ids into $2
wait_ids() {
	i=0
	while [ $i -lt 50 ]; do
		bpf_ids "$1" >"$2"
		grep -q link_id "$2" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

for v in 6 7; do
	out=$dir/spawn$v.dat
	"$RQPATH" record -o "$out" --file-version $v -- "$RQPATH" workload spawn --count 300 \
		>"$dir/out$v" 2>"$dir/err$v" &
	rec=$!
	mine="$mine $rec"
	wait_ids $rec "$dir/ids$v" || no "v$v: no BPF link seen in the recorder's descriptors"
	wait $rec
	rc=$?
	cat "$dir/err$v"
	[ $rc -eq 0 ] || no "v$v: record exited $rc"
	# 0.2 % unpaired allowed (1 % before the cause was seen): a few tracepoint hits in a
	# thousand have no record with no drop or miss counted (rqpath(1) BUGS), each one (19
	# of 19 in 9 recordings) in irq context on a CPU where a task hidden from the
	# tracepoints was current (switched in, never out: the machine's agent); those are
	# reported apart and not held against the recorder, the others may be 1 in 500 (the
	# greedy pairing leaves the odd record at the span's edges unmatched).  The other
	# side, a truth record with no tracepoint record inside the span, is not explained by
	# the hidden task (2 of 459 wakings in one make check, 6 of 549 in another on a
	# loaded host, 0 lost events either time; not understood: rqpath(1) BUGS): 2 % of
	# those; the planted drop of 1 record in 7 is still far above it
	python3 "$tools/truth_check.py" "$out" 1000 0.002 0.02 >"$dir/check$v"
	crc=$?
	cat "$dir/check$v"
	[ $crc -eq 0 ] || no "v$v: truth records and tracepoints do not pair up (truth_check.py)"
	tc=$(trace-cmd report "$out" 2>/dev/null | grep -c '^rqpath-truth: .* truth: ')
	mine=$(sed -n 's/.*truth=bpf (\([0-9]*\) records, \([0-9]*\) dropped.*/\1/p' "$dir/err$v")
	drops=$(sed -n 's/.*truth=bpf ([0-9]* records, \([0-9]*\) dropped.*/\1/p' "$dir/err$v")
	audit=$("$RQPATH" audit --format json "$out" | python3 -c \
		'import json,sys; t=json.load(sys.stdin)["trace"]["truth"]; print(t["source"], t["records"], t["drops"])')
	echo "v$v: truth records trace-cmd=$tc record=$mine audit=($audit) drops=$drops"
	[ "$tc" -gt 600 ] 2>/dev/null || no "v$v: trace-cmd sees $tc truth records"
	[ "$tc" = "$mine" ] || no "v$v: record says $mine truth records, trace-cmd $tc"
	[ "$audit" = "bpf $tc 0" ] || no "v$v: audit says '$audit', trace-cmd $tc"
	[ "$drops" = 0 ] || no "v$v: $drops truth records dropped"
	# the live pump's order, truth merged in (held back like the CPUs' records)
	grep 'out of time order' "$dir/err$v" && no "v$v: the live source's order is broken"
	left=$(alive "$dir/ids$v")
	[ -z "$left" ] || no "v$v: BPF objects survive the recorder: $left"
done

# --no-bpf: the tracepoints alone, and the sources line says so
"$RQPATH" record -o "$dir/off.dat" --no-bpf -- "$RQPATH" workload spawn --count 100 \
	>/dev/null 2>"$dir/off.err" || no "--no-bpf: record failed"
grep -q 'truth=none (turned off (--no-bpf))' "$dir/off.err" || no "--no-bpf: no sources line"
n=$(trace-cmd report "$dir/off.dat" 2>/dev/null | grep -c ' truth: ')
[ "$n" = 0 ] || no "--no-bpf: $n truth records"

# kill -9: the programs go with the recorder's descriptors
"$RQPATH" record -q -o "$dir/k.dat" -- sleep 30 &
rec=$!
mine="$mine $rec"
wait_ids $rec "$dir/idsk" || no "kill -9: no BPF link seen in the recorder's descriptors"
child=$(pgrep -P $rec sleep | head -1)
kill -9 $rec
wait $rec 2>/dev/null
[ -n "$child" ] && kill "$child" 2>/dev/null
sleep 0.5
left=$(alive "$dir/idsk")
echo "kill -9: $(wc -l <"$dir/idsk") BPF objects held, left after: ${left:-none}"
[ -z "$left" ] || no "kill -9: BPF objects survive the recorder: $left"
rm -f "$dir"/k.dat.*
# the killed recording's instance: removed by the next run (only this test's recorders
# are looked at: other recordings on the machine come and go meanwhile)
"$RQPATH" record -q -o "$dir/f.dat" --duration 0.2 || no "record after kill -9 failed"
for p in $mine; do
	[ -d "$T/instances/rqpath-$p" ] && no "instance left: rqpath-$p"
done
[ $fail -eq 0 ] && echo PASS
exit $fail
