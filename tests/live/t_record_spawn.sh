#!/bin/sh
# rqpath record -- workload spawn --count 100: the trace.dat (v6 and v7) opens in
# trace-cmd report, its sched_wakeup_new count is >= 100 and equals what rqpath's own
# summary and `rqpath audit --format json` say; the rqpath markers are visible; no
# tracefs instance is left behind.
: "${RQPATH:?RQPATH must name the rqpath binary to test}"
T=/sys/kernel/tracing
if [ "$(id -u)" -ne 0 ]; then echo "skip: live tests need root"; exit 77; fi
[ -d $T/instances ] || mount -t tracefs nodev $T 2>/dev/null
if [ ! -d $T/instances ]; then echo "skip: tracefs is not available at $T"; exit 77; fi
if ! command -v trace-cmd >/dev/null; then echo "skip: trace-cmd is not installed"; exit 77; fi
if ! command -v python3 >/dev/null; then echo "skip: python3 is not installed"; exit 77; fi

dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
# rqpath-<pid> instances whose process is gone (other live rqpath runs may be going on)
stale() {
	for i in $(ls $T/instances | grep '^rqpath-[0-9]*$'); do
		kill -0 "${i#rqpath-}" 2>/dev/null || echo "$i"
	done
}

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
