#!/bin/sh
# needless-callback end to end: `workload execl --pin 1 --count 200` recorded live with
# --syscalls has exactly 200 needless select_task_rq callbacks at exec, every exec judged
# (the setaffinity events, the snapshot and fork inheritance know the
# mask); the same loop unpinned has none.  Recorded the default way (no syscall events,
# the mask re-read from /proc after each exec), each exec is judged with the mask read
# after it, as rqpath(1) says: never more than 200 + the first exec (before the pin),
# and at least half.
. "$(dirname "$0")/lib.sh"
need python3
if [ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ]; then echo "skip: needs 2 CPUs to pin to CPU 1"; exit 77; fi

dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
# Counted on the workload's own pid (it prints it; every exec keeps it): the recording is
# system-wide, and other execs on a busy machine must not move the numbers.
needless() {
	wpid=$(sed -n 's/.*workload=execl .* pid=\([0-9]*\).*/\1/p' "$2")
	[ -n "$wpid" ] || { echo "x x x"; return; }
	python3 -c '
import json, sys
pid = int(sys.argv[1])
n = execs = 0
for line in sys.stdin:
    p = json.loads(line)
    if p["kind"] != "exec" or p["pid"] != pid:
        continue
    execs += 1
    n += "needless-callback" in p["findings"]
print(n, execs)' "$wpid" <"$1.jsonl"
	python3 -c '
import json, sys
d = json.load(sys.stdin)
print(d["findings"]["needless-callback"]["unknown"])' <"$1.json"
}
# the audits run here, not in needless()'s $(...), so that their exit status is seen
audits() {
	"$RQPATH" audit --placements jsonl "$1" >"$1.jsonl" || no "audit --placements $1 exited $?"
	"$RQPATH" audit --format json "$1" >"$1.json" || no "audit --format json $1 exited $?"
}

"$RQPATH" record --syscalls -o "$dir/pinned.dat" -- "$RQPATH" workload execl --pin 1 --count 200 \
	>"$dir/pinned.out" 2>"$dir/pinned.err" || no "pinned record exited $?"
cat "$dir/pinned.err" | grep -v counts
audits "$dir/pinned.dat"
set -- $(needless "$dir/pinned.dat" "$dir/pinned.out")
echo "pinned: the workload's needless-callback count=$1 of its $2 exec(s) (unknown in the whole trace: $3)"
[ "$1" = 200 ] || no "pinned: needless-callback count $1, want 200 (every exec of the workload judged)"

"$RQPATH" record -o "$dir/pinned-default.dat" -- "$RQPATH" workload execl --pin 1 --count 200 \
	>"$dir/pinned-default.out" 2>"$dir/pinned-default.err" || no "pinned (default) record exited $?"
audits "$dir/pinned-default.dat"
set -- $(needless "$dir/pinned-default.dat" "$dir/pinned-default.out")
echo "pinned, no syscall events: the workload's needless-callback count=$1 of its $2 exec(s)"
[ "$1" -ge 100 ] && [ "$1" -le 201 ] || no "pinned (default): needless-callback count $1, want 100..201"

"$RQPATH" record -o "$dir/free.dat" -- "$RQPATH" workload execl --count 200 \
	>"$dir/free.out" 2>"$dir/free.err" || no "unpinned record exited $?"
audits "$dir/free.dat"
set -- $(needless "$dir/free.dat" "$dir/free.out")
echo "unpinned: the workload's needless-callback count=$1 of its $2 exec(s)"
[ "$1" = 0 ] || no "unpinned: needless-callback count $1, want 0"

[ $fail -eq 0 ] && echo "PASS"
exit $fail
