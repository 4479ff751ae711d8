#!/bin/sh
# rqpath audit --live: a pinned exec loop recorded with --syscalls has exactly its
# execs as needless-callback in the placements export, none unknown, the unpinned loop 0, like the replay of a
# recording (t_record_execl); without --syscalls each exec is judged with the mask the
# recorder reads after it (rqpath(1)): never more than the 100 + the first exec, and at
# least half;
# what CMD prints does not reach stdout (the report's); SIGINT mid-run still gives a
# report of what was recorded; no instance is left.
. "$(dirname "$0")/lib.sh"
need python3
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || { echo "skip: needs 2 CPUs to pin to CPU 1"; exit 77; }
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
# Counted on the workload's own pid (it prints it on stderr; every exec keeps it) from the
# placements export: the recording is system-wide, and other execs on a busy machine must
# not move the numbers.
needless() {
	wpid=$(sed -n 's/^workload=execl .* pid=\([0-9]*\).*/\1/p' "$2")
	python3 -c '
import json, sys
pid = int(sys.argv[2]) if sys.argv[2] else -1
n = unknown = 0
for line in open(sys.argv[1]):
    p = json.loads(line)
    if p["kind"] != "exec" or p["pid"] != pid:
        continue
    n += "needless-callback" in p["findings"]
    unknown += "not judged" in p["why"]
print(n, unknown)' "$1" "$wpid"
}

"$RQPATH" audit --live --syscalls --placements jsonl -- "$RQPATH" workload execl --pin 1 \
	--count 100 >"$dir/pinned.jsonl" 2>"$dir/pinned.err" ||
	no "pinned: exit $?: $(tail -1 "$dir/pinned.err")"
set -- $(needless "$dir/pinned.jsonl" "$dir/pinned.err")
echo "audit --live pinned: the workload's needless-callback=$1 unknown=$2"
[ "$1" = 100 ] || no "pinned: needless $1, want 100"
[ "$2" = 0 ] || no "pinned: unknown $2, want 0"
grep -q '^workload=execl' "$dir/pinned.err" || no "the command's output did not go to stderr"

"$RQPATH" audit --live --placements jsonl -- "$RQPATH" workload execl --pin 1 --count 100 \
	>"$dir/pinned2.jsonl" 2>"$dir/pinned2.err" || no "pinned (default): exit $?"
set -- $(needless "$dir/pinned2.jsonl" "$dir/pinned2.err")
echo "audit --live pinned, no syscall events: the workload's needless-callback=$1 unknown=$2"
# 101: the first exec (the recorder's, before the workload pins itself) judged with the
# mask read after it, inferred under affinity-last-read as rqpath(1) says
[ "$1" -ge 50 ] && [ "$1" -le 101 ] || no "pinned (default): needless $1, want 50..101"

"$RQPATH" audit --live --placements jsonl -- "$RQPATH" workload execl --count 100 \
	>"$dir/free.jsonl" 2>"$dir/free.err" || no "unpinned: exit $?"
set -- $(needless "$dir/free.jsonl" "$dir/free.err")
echo "audit --live unpinned: the workload's needless-callback=$1"
[ "$1" = 0 ] || no "unpinned: needless $1, want 0"

"$RQPATH" audit --live --duration 30 --format json >"$dir/int.json" 2>"$dir/int.err" &
pid=$!
sleep 1.5
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 0 ] || no "SIGINT: exit $rc: $(tail -1 "$dir/int.err")"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["trace"]["events"] > 0 and d["trace"]["source"] == "live"' \
	"$dir/int.json" || no "SIGINT: no report of the recorded part (or its source is not live)"
[ -z "$(stale)" ] || no "instance left: $(stale)"
ls /tmp/rqpath-audit-* >/dev/null 2>&1 && no "temporary trace left in /tmp"
[ $fail -eq 0 ] && echo "PASS"
exit $fail
