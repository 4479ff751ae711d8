#!/bin/sh
# rqpath record -- workload spawn --count 100: the trace.dat (v6 and v7) opens in
# trace-cmd report, its sched_wakeup_new count is >= 100 and equals what rqpath's own
# summary and `rqpath audit --format json` say; the rqpath markers are visible; no
# tracefs instance is left behind.
. "$(dirname "$0")/lib.sh"
need trace-cmd
need python3

dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT

for v in 6 7; do
	out=$dir/spawn$v.dat
	"$RQPATH" record -o "$out" --file-version $v -- "$RQPATH" workload spawn --count 100 \
		>"$dir/out$v" 2>"$dir/err$v"
	rc=$?
	cat "$dir/out$v" "$dir/err$v"
	[ $rc -eq 0 ] || no "v$v: record exited $rc"
	grep -q 'workload=spawn forks=100' "$dir/out$v" || no "v$v: the workload did not run"
	[ -n "$(stale)" ] && no "v$v: instance left: $(stale)"
	trace-cmd report "$out" >"$dir/report$v" 2>"$dir/rerr$v" || {
		no "v$v: trace-cmd report failed"; cat "$dir/rerr$v"; }
	tc=$(grep -c ' sched_wakeup_new: ' "$dir/report$v")
	mine=$(sed -n 's/.* sched_wakeup_new=\([0-9]*\).*/\1/p' "$dir/err$v")
	audit=$("$RQPATH" audit --format json "$out" |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["counts"]["sched_wakeup_new"])')
	echo "v$v: sched_wakeup_new trace-cmd=$tc rqpath-record=$mine rqpath-audit=$audit"
	[ "$tc" -ge 100 ] 2>/dev/null || no "v$v: trace-cmd sees $tc sched_wakeup_new (< 100)"
	[ "$tc" = "$mine" ] || no "v$v: record summary says $mine, trace-cmd $tc"
	[ "$tc" = "$audit" ] || no "v$v: audit says $audit, trace-cmd $tc"
	# every record, not only one event: the totals agree too
	tot=$(grep -c '^ ' "$dir/report$v")
	rtot=$(sed -n 's/.*recorded \([0-9]*\) events.*/\1/p' "$dir/err$v")
	[ "$tot" = "$rtot" ] || no "v$v: trace-cmd shows $tot records, rqpath recorded $rtot"
	grep -q 'print: .*rqpath/1 kernel release=' "$dir/report$v" || no "v$v: no kernel marker"
	grep -q 'print: .*rqpath/1 cpu cpu=0 ' "$dir/report$v" || no "v$v: no cpu marker"
	grep -q 'print: .*rqpath/1 snapshot done tasks=[1-9]' "$dir/report$v" ||
		no "v$v: no snapshot marker"
	grep -q "print: .*rqpath/1 task pid=$$ " "$dir/report$v" ||
		no "v$v: this shell ($$) is not in the snapshot"
	head -c 10 "$out" | od -c | head -1
done
[ $fail -eq 0 ] && echo "PASS"
exit $fail
