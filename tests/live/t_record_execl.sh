#!/bin/sh
# needless-callback end to end: `workload execl --pin 1 --count 200` recorded live has
# exactly 200 needless select_task_rq callbacks at exec and no exec of unknown affinity
# (the snapshot and fork inheritance know the mask); the same loop unpinned has none.
: "${RQPATH:?RQPATH must name the rqpath binary to test}"
T=/sys/kernel/tracing
if [ "$(id -u)" -ne 0 ]; then echo "skip: live tests need root"; exit 77; fi
[ -d $T/instances ] || mount -t tracefs nodev $T 2>/dev/null
if [ ! -d $T/instances ]; then echo "skip: tracefs is not available at $T"; exit 77; fi
if ! command -v python3 >/dev/null; then echo "skip: python3 is not installed"; exit 77; fi
if [ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ]; then echo "skip: needs 2 CPUs to pin to CPU 1"; exit 77; fi

dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
needless() {
	"$RQPATH" audit --format json "$1" | python3 -c '
import json, sys
d = json.load(sys.stdin)
n = d["findings"]["needless-callback"]
print(n["count"], n["unknown"], d["counts"]["sched_process_exec"])'
}

"$RQPATH" record -o "$dir/pinned.dat" -- "$RQPATH" workload execl --pin 1 --count 200 \
	2>"$dir/pinned.err" || no "pinned record exited $?"
cat "$dir/pinned.err" | grep -v counts
set -- $(needless "$dir/pinned.dat")
echo "pinned: needless-callback count=$1 unknown=$2 (execs in trace: $3)"
[ "$1" = 200 ] || no "pinned: needless-callback count $1, want 200"
[ "$2" = 0 ] || no "pinned: unknown $2, want 0"

"$RQPATH" record -o "$dir/free.dat" -- "$RQPATH" workload execl --count 200 \
	2>"$dir/free.err" || no "unpinned record exited $?"
set -- $(needless "$dir/free.dat")
echo "unpinned: needless-callback count=$1 unknown=$2 (execs in trace: $3)"
[ "$1" = 0 ] || no "unpinned: needless-callback count $1, want 0"

[ $fail -eq 0 ] && echo "PASS"
exit $fail
