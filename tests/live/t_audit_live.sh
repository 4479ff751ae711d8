#!/bin/sh
# rqpath audit --live: a pinned exec loop recorded with --syscalls reports exactly its
# execs as needless-callback with 0 unknown, the unpinned loop 0, like the replay of a
# recording (t_record_execl); without --syscalls the execs before the recorder re-reads
# the new mask keep the old one (rqpath(1)): never more than 100, and (89..100 measured
# on this machine under load) at least half;
# what CMD prints does not reach stdout (the report's); SIGINT mid-run still gives a
# report of what was recorded; no instance is left.
. "$(dirname "$0")/lib.sh"
need python3
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || { echo "skip: needs 2 CPUs to pin to CPU 1"; exit 77; }
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
needless() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
n = d["findings"]["needless-callback"]
print(n["count"], n["unknown"], d["trace"]["source"])' "$1"
}

"$RQPATH" audit --live --syscalls --format json -- "$RQPATH" workload execl --pin 1 --count 100 \
	>"$dir/pinned.json" 2>"$dir/pinned.err" || no "pinned: exit $?: $(tail -1 "$dir/pinned.err")"
set -- $(needless "$dir/pinned.json")
echo "audit --live pinned: needless-callback=$1 unknown=$2 source=$3"
[ "$1" = 100 ] || no "pinned: needless $1, want 100"
[ "$2" = 0 ] || no "pinned: unknown $2, want 0"
[ "$3" = live ] || no "source $3, want live"
grep -q '^workload=execl' "$dir/pinned.err" || no "the command's output did not go to stderr"

"$RQPATH" audit --live --format json -- "$RQPATH" workload execl --pin 1 --count 100 \
	>"$dir/pinned2.json" 2>"$dir/pinned2.err" || no "pinned (default): exit $?"
set -- $(needless "$dir/pinned2.json")
echo "audit --live pinned, no syscall events: needless-callback=$1 unknown=$2"
[ "$1" -ge 50 ] && [ "$1" -le 100 ] || no "pinned (default): needless $1, want 50..100"

"$RQPATH" audit --live --format json -- "$RQPATH" workload execl --count 100 \
	>"$dir/free.json" 2>"$dir/free.err" || no "unpinned: exit $?"
set -- $(needless "$dir/free.json")
echo "audit --live unpinned: needless-callback=$1 unknown=$2"
[ "$1" = 0 ] || no "unpinned: needless $1, want 0"

"$RQPATH" audit --live --duration 30 --format json >"$dir/int.json" 2>"$dir/int.err" &
pid=$!
sleep 1.5
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 0 ] || no "SIGINT: exit $rc: $(tail -1 "$dir/int.err")"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["trace"]["events"] > 0' \
	"$dir/int.json" || no "SIGINT: no report of the recorded part"
[ -z "$(stale)" ] || no "instance left: $(stale)"
ls /tmp/rqpath-audit-* >/dev/null 2>&1 && no "temporary trace left in /tmp"
[ $fail -eq 0 ] && echo "PASS"
exit $fail
