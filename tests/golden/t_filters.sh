#!/bin/sh
# The placement filters of audit, explain and the exports (-p/--pid, --comm, -C/--cpu,
# --from/--to, spelled as trace-cmd and perf spell them), counted against trace-cmd report
# of fixtures/spawn.dat: the sched_wakeup and sched_wakeup_new records of a pid, onto a
# CPU, in a time window, are the wakeup and fork placements the filtered audit counts;
# the filtered export is those rows of the whole export (same seq numbers); explain's
# count is the audit's; a bad value is one line and exit 2; the short -p is --pid (not
# --placements any more).  And `rqpath why` escapes a hostile task name.
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
rq=${RQPATH:-$top/rqpath}
command -v trace-cmd >/dev/null 2>&1 || { echo "skip: trace-cmd is not installed"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "skip: python3 is not installed"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
f=$top/fixtures/spawn.dat
trace-cmd report "$f" 2>/dev/null >"$tmp/report"
"$rq" audit --placements jsonl "$f" >"$tmp/all.jsonl" || bad "audit --placements jsonl"

# each case: options, then a python condition on a wakeup record (pid, cpu, t: seconds
# from the first record, comm) that trace-cmd report has
while IFS='|' read -r opts cond; do
	[ -n "$opts" ] || continue
	# shellcheck disable=SC2086
	"$rq" audit --format json $opts "$f" >"$tmp/a.json" 2>"$tmp/a.err" ||
		{ bad "audit $opts: exit $?: $(cat "$tmp/a.err")"; continue; }
	# shellcheck disable=SC2086
	"$rq" audit --placements jsonl $opts "$f" >"$tmp/a.jsonl" || bad "audit --placements $opts"
	# shellcheck disable=SC2086
	LANG=C "$rq" explain $opts "$f" >"$tmp/e.txt" || bad "explain $opts"
	python3 - "$tmp" "$cond" "$opts" <<'PY' || fail=1
import json, re, sys
tmp, cond, opts = sys.argv[1:4]
pat = re.compile(r"^\S+:\s*.*?-\d+\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+(sched_wakeup(?:_new)?):\s+(.*):(\d+) \[\d+\] CPU:(\d+)")
recs, first = [], None
for l in open(tmp + "/report"):
    m = re.match(r"^\S+:\s*.*?\[\d+\]\s+(\d+)\.(\d+):", l)
    if m and first is None:
        first = int(m.group(1)) + int(m.group(2).ljust(9, "0")[:9]) / 1e9
    m = pat.match(l)
    if m:
        ts = int(m.group(2)) + int(m.group(3).ljust(9, "0")[:9]) / 1e9
        recs.append({"pid": int(m.group(6)), "cpu": int(m.group(7)), "comm": m.group(5),
                     "t": ts - first})
want = sum(1 for r in recs if eval(cond, {}, r))
a = json.load(open(tmp + "/a.json"))
got = sum(p["count"] for p in a["placements"] if p["kind"] in ("wakeup", "fork"))
rows = [json.loads(l) for l in open(tmp + "/a.jsonl")]
allrows = {p["seq"]: p for p in map(json.loads, open(tmp + "/all.jsonl"))}
ok = True
def fail(msg):
    global ok
    ok = False
    print("FAIL: %s: %s" % (opts, msg))
if got != want:
    fail("%d wakeup and fork placements, trace-cmd report has %d records" % (got, want))
if sum(1 for p in rows if p["kind"] in ("wakeup", "fork")) != want:
    fail("the export has %d wakeup/fork rows, trace-cmd report %d" % (len(rows), want))
for p in rows:
    if allrows.get(p["seq"]) != p:
        fail("export row seq %d is not the unfiltered export's" % p["seq"])
        break
ex = open(tmp + "/e.txt").read()
m = re.search(r"counts from .*?: (\d+) placements", ex)
if not m or int(m.group(1)) != sum(p["count"] for p in a["placements"]):
    fail("explain counts %s placements, audit %d" % (m and m.group(1),
         sum(p["count"] for p in a["placements"])))
if ok:
    print("ok: %s: %d placements (%d wakeup/fork records)" % (opts, len(rows), want))
sys.exit(0 if ok else 1)
PY
done <<'EOF2'
-p 3194|pid == 3194
--pid 3194,20723|pid in (3194, 20723)
-C 1|cpu == 1
--cpu 0|cpu == 0
--from 0.01 --to 0.02|0.01 <= t <= 0.02
--comm sh|comm == "sh"
-p 20723 -C 1|pid == 20723 and cpu == 1
EOF2

# bad values: one line, exit 2
for args in "-p x" "-C 9-1" "--from -1" "--from 2 --to 1" "--placements"; do
	# shellcheck disable=SC2086
	"$rq" audit $args "$f" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -s "$tmp/out" ] ||
		bad "audit $args: exit $rc, $(wc -l <"$tmp/err") error line(s)"
done
# -p is --pid now: -p csv is not a pid
"$rq" audit -p csv "$f" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- '--pid wants pids' "$tmp/err" || bad "-p csv was not refused as a pid"

# why escapes a hostile task name (tests/tui/golden/hostile.dat)
h=$top/tests/tui/golden/hostile.dat
pid=$("$rq" audit --placements jsonl "$h" | python3 -c 'import json, sys
for l in sys.stdin:
    p = json.loads(l)
    if "pwned" in p["comm"]:
        print(p["pid"]); break')
if [ -n "$pid" ]; then
	"$rq" why "$pid" "$h" >"$tmp/why" || bad "why $pid on hostile.dat: exit $?"
	grep -Fq '\x1b]0;pwned' "$tmp/why" || bad "why: the escaped name is not shown"
	grep -q "$(printf '\033')" "$tmp/why" && bad "why: a raw ESC reached the output"
else
	bad "hostile.dat has no placement of the hostile task"
fi
[ $fail -eq 0 ] && echo "ok: filters and why"
exit $fail
