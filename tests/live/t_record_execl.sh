#!/bin/sh
# needless-callback end to end: `workload execl --pin 1 --count 200` recorded live with
# --syscalls has exactly 200 needless select_task_rq callbacks at exec and no exec of
# unknown affinity (the setaffinity events, the snapshot and fork inheritance know the
# mask); the same loop unpinned has none.  Recorded the default way (no syscall events,
# the mask re-read from /proc), the execs that run before the recorder has re-read the
# new mask are judged with the old one, as rqpath(1) says: never more than 200, and
# (193..200 measured on this machine under load) at least half.
. "$(dirname "$0")/lib.sh"
need python3
if [ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ]; then echo "skip: needs 2 CPUs to pin to CPU 1"; exit 77; fi

dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
needless() {
	"$RQPATH" audit --format json "$1" | python3 -c '
import json, sys
d = json.load(sys.stdin)
n = d["findings"]["needless-callback"]
print(n["count"], n["unknown"], d["counts"]["sched_process_exec"])'
}

"$RQPATH" record --syscalls -o "$dir/pinned.dat" -- "$RQPATH" workload execl --pin 1 --count 200 \
	2>"$dir/pinned.err" || no "pinned record exited $?"
cat "$dir/pinned.err" | grep -v counts
set -- $(needless "$dir/pinned.dat")
echo "pinned: needless-callback count=$1 unknown=$2 (execs in trace: $3)"
[ "$1" = 200 ] || no "pinned: needless-callback count $1, want 200"
[ "$2" = 0 ] || no "pinned: unknown $2, want 0"

"$RQPATH" record -o "$dir/pinned-default.dat" -- "$RQPATH" workload execl --pin 1 --count 200 \
	2>"$dir/pinned-default.err" || no "pinned (default) record exited $?"
set -- $(needless "$dir/pinned-default.dat")
echo "pinned, no syscall events: needless-callback count=$1 unknown=$2"
[ "$1" -ge 100 ] && [ "$1" -le 200 ] || no "pinned (default): needless-callback count $1, want 100..200"

"$RQPATH" record -o "$dir/free.dat" -- "$RQPATH" workload execl --count 200 \
	2>"$dir/free.err" || no "unpinned record exited $?"
set -- $(needless "$dir/free.dat")
echo "unpinned: needless-callback count=$1 unknown=$2 (execs in trace: $3)"
[ "$1" = 0 ] || no "unpinned: needless-callback count $1, want 0"

[ $fail -eq 0 ] && echo "PASS"
exit $fail
