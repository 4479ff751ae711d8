#!/bin/sh
# Same placement, same facts, everywhere (issue 20, "Done when"): a few placements of
# fixtures/spawn.dat (two missed-idle wakeups, the first offcpu-fork and the last) are
# opened from every place the TUI offers -- the findings view, the placements list, the
# dashboard's path rows, ] from the row before and [ from the row after, the timeline,
# the list's search -- and every detail screen must be the same; its facts (time, task,
# CPUs, writer, path, confidence, findings, the why) must be those of the placements
# export (JSONL and CSV), the audit JSON's examples, the HTML report (example text and
# the timeline mark's title, the whole why), the Perfetto marker, the timeline's line on
# the placement, and explain's tree (every step the detail marks taken has placements
# in explain).  What the why asserts is checked against `trace-cmd report -t`, not
# against rqpath: the offcpu-fork's parent CPU idled or not before the child's first run
# and the child's lifetime; missed-idle's "CPU X was busy (pid P running) while CPU Y
# was idle" (Y's last record before is the idle task's, X's shows P), with that switch of
# Y among the detail's records; and the timeline's "at that instant" state of each CPU.
# Then every idle-stacking and missed-idle example of idle-stack, idle-stack-plain and
# execl-pinned, opened from the findings view: the audit's why, its busy and idle CPU
# as trace-cmd report has them, the idle CPU's record among the records.
. "$(dirname "$0")/golden/script.sh"

command -v trace-cmd >/dev/null 2>&1 || { echo "skip: trace-cmd is not installed"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "skip: python3 is not installed"; exit 77; }
f=fixtures/spawn.dat
seqs="4 5 6 418"
size=160x70

"$RQPATH" audit --placements jsonl "$top/$f" >"$work/pl.jsonl" || fail "audit --placements jsonl"
"$RQPATH" audit --placements csv "$top/$f" >"$work/pl.csv" || fail "audit --placements csv"
"$RQPATH" audit --format json "$top/$f" >"$work/audit.json" || fail "audit --format json"
"$RQPATH" audit --format html "$top/$f" >"$work/audit.html" || fail "audit --format html"
"$RQPATH" audit --format perfetto "$top/$f" >"$work/perfetto.pb" || fail "audit --format perfetto"
python3 "$top/tests/tools/perfetto_check.py" "$work/perfetto.pb" --instants "$work/perfetto.json" \
	>"$work/perfetto.check" || fail "perfetto_check.py: $(tail -n 3 "$work/perfetto.check")"
LANG=C.UTF-8 "$RQPATH" explain "$top/$f" >"$work/explain.txt" || fail "explain"
trace-cmd report -t "$top/$f" 2>/dev/null >"$work/report"
[ -s "$work/report" ] || { echo "FAIL: trace-cmd report -t printed nothing"; exit 1; }

# the keys that open each placement from each place (rows counted from the export)
python3 - "$work" $seqs >"$work/keys" <<'EOF' || { echo "FAIL: cannot make the keys"; exit 1; }
import json, re, sys
work, seqs = sys.argv[1], [int(s) for s in sys.argv[2:]]
pl = sorted((json.loads(l) for l in open(work + "/pl.jsonl")), key=lambda p: (p["ts"], p["seq"]))
audit = json.load(open(work + "/audit.json"))
n = len(pl)
row = {p["seq"]: i for i, p in enumerate(pl)}
by = {p["seq"]: p for p in pl}
paths = [p["path"] for p in audit["placements"] if p["count"]]
fids = list(audit["findings"])

def goto(i, total):
    # row i (0-based) of a list of total rows, from its top or its end
    if i <= total - 1 - i:
        return "<Home>" + "<Down>" * i
    return "<End>" + "<Up>" * (total - 1 - i)

def emit(name, keys):
    # a step takes at most 512 keys in a line of 1024 bytes (views/script.c): the first
    # parts of a long walk go as steps not looked at
    toks = re.findall(r"<[^>]+>|.", keys)
    if name.startswith("tld-"):
        pass		# on from the timeline step before it
    else:
        print("-\t<Esc><Esc><Esc><Esc><Esc>")
    while len(toks) > 200:
        print("-\t%s" % "".join(toks[:200]))
        toks = toks[200:]
    print("%s\t%s" % (name, "".join(toks)))

for s in seqs:
    p, r = by[s], row[s]
    emit("list-%d" % s, "2" + goto(r, n) + "<Enter>")
    if r > 0:
        emit("next-%d" % s, "2" + goto(r - 1, n) + "<Enter>]")
    if r + 1 < n:
        emit("prev-%d" % s, "2" + goto(r + 1, n) + "<Enter>[")
    same = [q for q in pl if q["path"] == p["path"]]
    k = [q["seq"] for q in same].index(s)
    emit("dash-%d" % s, "1" + "<Up>" * 20 + "<Down>" * paths.index(p["path"]) + "<Enter>" +
         goto(k, len(same)) + "<Enter>")
    # the findings view: a header and a description per finding, then its examples
    y = 0
    for fid in fids:
        ex = audit["findings"][fid].get("examples", [])
        for j, e in enumerate(ex):
            if abs(e["ts"] - p["ts"]) < 5e-10 and e["pid"] == p["pid"]:
                emit("find-%d" % s, "4<Home>" + "<Down>" * (y + 2 + j) + "<Enter>")
        y += 2 + len(ex)
    if r <= n - 1 - r:
        emit("tl-%d" % s, "6" + "[" * (n + 1) + "]" * r)
    else:
        emit("tl-%d" % s, "6" + "]" * (n + 1) + "[" * (n - 1 - r))
    emit("tld-%d" % s, "<Enter>")
    needle = str(p["pid"])
    hits = [i for i, q in enumerate(pl) if i > 0 and (needle in str(q["pid"]) or
            needle in q["comm"] or needle in q["path"])]
    if r in hits:
        emit("search-%d" % s, "2<Home>/" + needle + "<Enter>" + "n" * hits.index(r) + "<Enter>")
EOF
while IFS='	' read -r name keys; do
	step "$name" "$keys"
done <"$work/keys"
run_script RQPATH_TUI_SIZE=$size -- replay "$f"
[ "$rc" -eq 0 ] || fail "the TUI's exit status $rc"
cut -f1 "$work/keys" | grep -vx -- - | while IFS= read -r name; do
	screen "$name" >"$work/scr-$name"
done

cat >"$work/facts_lib.py" <<'EOF'
# the facts of trace-cmd report -t and of a detail screen (sourced by both checks)
import re

# trace-cmd report -t: (ts_ns, cpu, owner pid, event, rest)
recs = []
height = 0
pat = re.compile(r"^\S+:\s*(.*?)-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+(\S+):\s*(.*)$")


def load(report, rows):
    """read trace-cmd report -t's lines; rows: the screen's height"""
    global height
    height = rows
    del recs[:]
    for l in open(report):
        m = pat.match(l.rstrip("\n"))
        if not m:
            continue
        ts = int(m.group(4)) * 10**9 + int(m.group(5).ljust(9, "0")[:9])
        recs.append((ts, int(m.group(3)), int(m.group(2)), m.group(6), m.group(7)))
    recs.sort(key=lambda r: r[0])

def ns(sec):
    return int(round(sec * 1e9))

def runner_before(cpu, t):
    """who ran on cpu just before t, from the last record there (a switch's next, else
    the record's owner) and that record"""
    last = None
    for r in recs:
        if r[0] >= t:
            break
        if r[1] != cpu:
            continue
        if r[3] == "sched_switch":
            nxt = int(re.search(r"==> .*:(\d+) \[", r[4]).group(1))
            last = (nxt, r)
        else:
            last = (r[2], r)
    return last

SHOWN = ("sched_switch", "sched_waking", "sched_wakeup", "sched_wakeup_new",
         "sched_migrate_task", "sched_process_fork", "sched_process_exec", "sched_process_exit")


def idle_shown(cpu, t, shown):
    """whether the records shown include one that shows cpu idle since its last busy
    record before t (a switch to the idle task, or the idle task's own record); true
    too when none of those is of a kind the detail shows"""
    proofs = []
    for r in recs:
        if r[0] >= t:
            break
        if r[1] != cpu:
            continue
        nxt = None
        if r[3] == "sched_switch":
            nxt = int(re.search(r"==> .*:(\d+) \[", r[4]).group(1))
        if nxt == 0 or (nxt is None and r[2] == 0):
            proofs.append(r)
        else:
            proofs = []
    stamp = lambda r: "[%03d] %d.%06d: %s:" % (r[1], r[0] // 10**9,
                                                 (r[0] % 10**9 + 500) // 1000, r[3])
    kept = [r for r in proofs if r[3] in SHOWN]
    return not kept or any(stamp(r) in " ".join(l.split()) for r in kept for l in shown)


def detail_facts(ls):
    """the facts a detail screen shows: header, task, decision, path, confidence, why,
    flagged findings, records"""
    body = ls[1:height - 1]
    d = {"body": body}
    for l in body:
        m = re.match(r"^placement #(\d+) at ([0-9.]+)s", l)
        if m:
            d["seq"], d["ts"] = int(m.group(1)), m.group(2)
        m = re.match(r"^ task +(\d+) (.*?)  \(policy", l)
        if m:
            d["pid"], d["comm"] = int(m.group(1)), m.group(2)
        m = re.match(r"^ decision +(\w+): CPU (\S+) . (\d+) +"
                     r"\(record written on CPU (\d+) by pid (\d+)\)", l)
        if m:
            d["kind"], d["from"], d["to"] = m.group(1), m.group(2), int(m.group(3))
            d["cpu"], d["writer"] = int(m.group(4)), int(m.group(5))
        m = re.match(r"^ path +(\S+):", l)
        if m:
            d["path"] = m.group(1)
        m = re.match(r"^ confidence (\S+)", l)
        if m:
            d["conf"] = m.group(1)
    i = body.index("why") if "why" in body else -1
    why = []
    for l in body[i + 1:] if i >= 0 else []:
        if not l.startswith("   "):
            break
        why.append(l.strip())
    d["why"] = " ".join(why)
    d["flagged"] = [re.match(r"^flagged: (\S+),", l).group(1) for l in body
                    if l.startswith("flagged: ")]
    if "the records (as trace-cmd report prints them; > the deciding one)" in body:
        j = body.index("the records (as trace-cmd report prints them; > the deciding one)")
        d["records"] = []
        for l in body[j + 1:]:
            if not l.strip():
                break
            d["records"].append(l)
    return d
EOF

python3 - "$work" "$size" $seqs <<'EOF' || failures=$((failures + 1))
import html, json, re, sys

work, size, seqs = sys.argv[1], sys.argv[2], [int(s) for s in sys.argv[3:]]
height = int(size.split("x")[1])
fails = []

def fail(msg):
    fails.append(msg)
    print("FAIL: " + msg)

def lines(name):
    try:
        return open("%s/scr-%s" % (work, name)).read().split("\n")
    except OSError:
        return None

pl = {}
for l in open(work + "/pl.jsonl"):
    p = json.loads(l)
    pl[p["seq"]] = p
csv_rows = {}
import csv
for r in csv.DictReader(open(work + "/pl.csv")):
    csv_rows[int(r["seq"])] = r
audit = json.load(open(work + "/audit.json"))
first_ts = audit["trace"]["first_ts"]
H = html.unescape(open(work + "/audit.html").read())
perf = json.load(open(work + "/perfetto.json"))	# the instants perfetto_check.py decoded
rqdata = json.loads(re.search(r'<script type="application/json" id="rqdata">(.*?)</script>',
                              open(work + "/audit.html").read(), re.S).group(1))
explain = open(work + "/explain.txt").read().split("\n")

sys.path.insert(0, work)
from facts_lib import *
height = int(size.split("x")[1])
load(work + "/report", height)

for s in seqs:
    p = pl[s]
    rel = "%.6f" % (p["ts"] - first_ts)
    names = [n for n in ("list", "next", "prev", "dash", "find", "tld", "search")
             if lines("%s-%d" % (n, s)) is not None]
    if "list" not in names:
        fail("seq %d: no list detail" % s)
        continue
    ref = detail_facts(lines("list-%d" % s))
    # every place: the very same detail
    for n in names:
        d = detail_facts(lines("%s-%d" % (n, s)))
        if d.get("seq") != s:
            fail("seq %d from %s: opened placement #%s" % (s, n, d.get("seq")))
            continue
        if d["body"] != ref["body"]:
            diff = [(a, b) for a, b in zip(ref["body"], d["body"]) if a != b][:3]
            fail("seq %d: the detail from %s differs from the list's: %s" % (s, n, diff))
    examples = [e for fid in p["findings"] for e in audit["findings"][fid]["examples"]
                if e["pid"] == p["pid"] and abs(e["ts"] - p["ts"]) < 5e-10]
    if examples and "find" not in names:
        fail("seq %d (%s): not among the findings view's examples" % (s, p["findings"]))
    for n in ("next", "prev", "dash", "tld", "search"):
        if n not in names and not (n == "next" and s == 1):
            fail("seq %d: not opened from %s" % (s, n))
    # the detail's facts are the export's
    want = {"ts": rel, "pid": p["pid"], "comm": p["comm"], "kind": p["kind"],
            "from": str(p["from_cpu"]) if p["from_cpu"] >= 0 else "?", "to": p["to_cpu"],
            "cpu": p["cpu"], "writer": p["waker"], "path": p["path"],
            "conf": p["confidence"], "why": p["why"], "flagged": p["findings"]}
    for k, v in want.items():
        if ref.get(k) != v:
            fail("seq %d: detail %s %r, placements export %r" % (s, k, ref.get(k), v))
    c = csv_rows.get(s)
    if not c:
        fail("seq %d: no CSV row" % s)
    else:
        for k, ck in (("why", "why"), ("path", "path"), ("conf", "confidence"),
                      ("kind", "kind")):
            if ref.get(k) != c[ck]:
                fail("seq %d: detail %s %r, CSV %r" % (s, k, ref.get(k), c[ck]))
        if c["findings"] != ";".join(p["findings"]) and c["findings"].split(";") != p["findings"] \
           and c["findings"].split("|") != p["findings"]:
            fail("seq %d: CSV findings %r, JSONL %r" % (s, c["findings"], p["findings"]))
        if int(c["pid"]) != ref["pid"] or int(c["to_cpu"]) != ref["to"]:
            fail("seq %d: CSV pid/to_cpu differ from the detail" % s)
    # the audit's examples, the HTML report, Perfetto
    for fid in p["findings"]:
        ex = [e for e in audit["findings"][fid]["examples"]
              if e["pid"] == p["pid"] and abs(e["ts"] - p["ts"]) < 5e-10]
        if not ex and s in (4, 5, 6):
            fail("seq %d: not among the audit JSON's %s examples" % (s, fid))
        for e in ex:
            for k, v in (("why", ref["why"]), ("path", ref["path"]), ("confidence", ref["conf"]),
                         ("to_cpu", ref["to"]), ("cpu", ref["cpu"])):
                if e[k] != v:
                    fail("seq %d: audit JSON example %s %r, detail %r" % (s, k, e[k], v))
        if ex:
            # the HTML example: its line, then the why wrapped under it
            m = re.search(r"\n  %.6f +%d [^\n]*\n((?:      [^\n]*\n)+)" % (p["ts"], p["pid"]), H)
            if not m:
                fail("seq %d: no HTML example of it" % s)
            elif " ".join(x.strip() for x in m.group(1).split("\n") if x.strip()) != ref["why"]:
                fail("seq %d: the HTML example says %r, the detail %r" %
                     (s, " ".join(x.strip() for x in m.group(1).split("\n")), ref["why"]))
    if p["findings"]:
        # the HTML timeline's marks: [ns from t0, ..., pid, comm, why] (a sample on long traces)
        mk = [m for m in rqdata["marks"] if m[6] == p["pid"] and
              abs(m[0] - (p["ts"] - rqdata["t0"]) * 1e9) < 5]
        if not mk:
            fail("seq %d: no HTML timeline mark" % s)
        elif mk[0][8] != ref["why"]:
            fail("seq %d: the HTML mark says %r, the detail %r" % (s, mk[0][8], ref["why"]))
    pe = [e for e in perf if e.get("seq") == p["seq"]]
    if not pe:
        fail("seq %d: no Perfetto placement instant" % s)
    for e in pe:
        if abs(e["_ts"] - p["ts"] * 1e9) > 5:
            fail("seq %d: Perfetto ts %d ns, the export's %.9f s" % (s, e["_ts"], p["ts"]))
        for k, v in (("why", ref["why"]), ("path", ref["path"]), ("confidence", ref["conf"]),
                     ("to_cpu", ref["to"])):
            if e[k] != v:
                fail("seq %d: Perfetto %s %r, detail %r" % (s, k, e[k], v))
    # the timeline's line on it
    tl = lines("tl-%d" % s) or []
    line = [l for l in tl if re.match(r"^ %ss %s %d " % (re.escape(rel), p["kind"], p["pid"]), l)]
    if not line:
        fail("seq %d: the timeline does not select it" % s)
    else:
        w = line[0].split()
        fl = " ".join(w[w.index(p["path"]) + 2:]) if p["path"] in w else None
        cpus = "%s%s%d" % (want["from"], "\u2192", p["to_cpu"])
        if fl != " ".join(p["findings"]) or cpus not in w:
            fail("seq %d: the timeline says %r" % (s, line[0]))
    # explain: each step the detail marks taken went through placements there
    steps = {}
    hdr = next((l for l in explain if l.split()[:1] == ["through"] and "step" in l), "")
    cut = hdr.find("step") - 2
    for l in explain:
        m = re.match(r"^\s*(\d+) +(\S.*)$", l[cut:]) if hdr and len(l) > cut else None
        if m:
            t = re.sub(r"^[\u2502\u251c\u2514\u2500 ]*", "", m.group(2)).strip()
            steps[t] = int(l[:hdr.find("through") + 7].strip() or 0)
    taken = [re.sub(r"^ \u25ba [\u2502\u251c\u2514\u2500 ]*", "", l).split("  ")[0].strip()
             for l in ref["body"] if l.startswith(" \u25ba ")]
    if not taken:
        fail("seq %d: the detail marks no step taken" % s)
    for t in taken:
        if t not in steps:
            fail("seq %d: taken step %r is not in explain's tree" % (s, t))
        elif not steps[t]:
            fail("seq %d: taken step %r has no placements in explain" % (s, t))

    # what the why asserts, from trace-cmd report
    t = ns(p["ts"])
    dec = [r for r in recs if r[0] == t and r[1] == p["cpu"]]
    if not dec or dec[0][2] != p["waker"]:
        fail("seq %d: no record of pid %d on CPU %d at %s in trace-cmd report" %
             (s, p["waker"], p["cpu"], p["ts"]))
    if "offcpu-fork" in p["findings"]:
        child = p["pid"]
        first = next((r for r in recs if r[0] > t and (r[2] == child or (
            r[3] == "sched_switch" and re.search(r"==> .*:%d \[" % child, r[4])))), None)
        idled = first and any(t < r[0] < first[0] and r[1] == p["from_cpu"] and (
            r[2] == 0 or (r[3] == "sched_switch" and "==> swapper" in r[4])) for r in recs)
        ex = next((r for r in recs if r[0] > t and r[3] == "sched_process_exit" and
                   re.search(r"\bpid=%d\b" % child, r[4])), None)
        said = "parent's CPU %d %s" % (p["from_cpu"], "went idle before the child first ran"
                                        if idled else "stayed busy until the child first ran")
        if said not in ref["why"]:
            fail("seq %d: trace-cmd report says %r; the why: %r" % (s, said, ref["why"]))
        life = "child exited after %.3f ms" % ((ex[0] - t) / 1e6) if ex else \
               "child did not exit inside the trace"
        if life not in ref["why"]:
            fail("seq %d: trace-cmd report says %r; the why: %r" % (s, life, ref["why"]))
    m = re.search(r"CPU (\d+) was busy \(pid (\d+) running\) while CPU (\d+) of its LLC was idle",
                  ref["why"])
    if "missed-idle" in p["findings"] and not m:
        fail("seq %d: missed-idle without 'CPU X was busy ... CPU Y ... idle'" % s)
    if m:
        x, pid, y = int(m.group(1)), int(m.group(2)), int(m.group(3))
        rx, ry = runner_before(x, t), runner_before(y, t)
        if not rx or rx[0] != pid:
            fail("seq %d: trace-cmd report has %s running on CPU %d, the why pid %d" %
                 (s, rx and rx[0], x, pid))
        if not ry or ry[0] != 0:
            fail("seq %d: trace-cmd report has %s on CPU %d, the why says idle" %
                 (s, ry and ry[0], y))
        # a record that shows y idle is in the detail's records
        if not idle_shown(y, t, ref.get("records", [])):
            fail("seq %d: the detail's records omit every record of CPU %d that 'CPU %d was "
                 "idle' rests on" % (s, y, y))
    # the timeline's instant: each CPU as trace-cmd report has it just before
    inst = [l for l in tl if l.startswith(" at that instant:")]
    if inst:
        for cpu, what in re.findall(r"cpu(\d+) (\S+) q\d+", inst[0]):
            rb = runner_before(int(cpu), t)
            got = "idle" if rb and rb[0] == 0 else ("%d" % rb[0] if rb else "?")
            shown = "idle" if what == "idle" else what.rsplit(":", 1)[-1]
            if got != shown:
                fail("seq %d: the timeline has cpu%s %s at %s; trace-cmd report %s" %
                     (s, cpu, what, rel, got))
    else:
        fail("seq %d: no 'at that instant' line in the timeline" % s)

print("same facts: %d placements, %d failure(s)" % (len(seqs), len(fails)))
sys.exit(1 if fails else 0)
EOF

# rqpath why PID --at T: the very lines of the detail screen (one code makes both), for
# each of the placements above, opened from the list; and `why PID` alone gives every
# placement of that task (as many as the placements export has), each as `--at` gives it.
for s in $seqs; do
	set -- $(python3 -c 'import json, sys
first = None
for l in open(sys.argv[1]):
    p = json.loads(l)
    if p["seq"] == int(sys.argv[2]):
        print(p["pid"], p["ts"])' "$work/pl.jsonl" "$s")
	pid=$1
	at=$(python3 -c 'import json, sys; a = json.load(open(sys.argv[1]))
print("%.9f" % (float(sys.argv[2]) - a["trace"]["first_ts"]))' "$work/audit.json" "$2")
	(cd "$top" && LANG=C.UTF-8 LC_ALL= "$RQPATH" why "$pid" --at "$at" "$f") >"$work/why-$s" \
		2>"$work/why-$s.err" || fail "why $pid --at $at: exit $?: $(cat "$work/why-$s.err")"
	python3 - "$work" "$size" "$s" <<'EOF2' || failures=$((failures + 1))
import sys
work, size, s = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path.insert(0, work)
from facts_lib import *
height = int(size.split("x")[1])
import facts_lib
facts_lib.height = height
scr = open("%s/scr-list-%d" % (work, s)).read().split("\n")
why = open("%s/why-%d" % (work, s)).read().split("\n")
d = detail_facts(scr)
# why's text is the detail's lines; the screen shows the rows that fit, cut at its width
facts_lib.height = len(why) + 2
w = detail_facts([""] + why + [""])
bad = [k for k in ("seq", "ts", "pid", "comm", "kind", "from", "to", "cpu", "writer", "path",
                   "conf", "why", "flagged", "records") if d.get(k) != w.get(k)]
# line by line, but for the wrapped text (the why, the findings' text: the screen is
# wider than why's 80 columns; their words are compared above)
body = [l.rstrip() for l in d["body"] if l.strip() and not l.startswith("   ")]
shown = [l.rstrip() for l in why if l.strip() and not l.startswith("   ")][:len(body)]
if bad:
    print("FAIL: seq %d: why and the detail differ in %s: %r / %r" %
          (s, bad, [w.get(k) for k in bad], [d.get(k) for k in bad]))
    sys.exit(1)
for a, b in zip(body, shown):
    if not a.startswith("placement #") and a != b[:len(a)] and a[:len(b)] != b:
        print("FAIL: seq %d: detail line %r, why line %r" % (s, a, b))
        sys.exit(1)
if "the CPUs at that instant" not in " ".join(why):
    print("FAIL: seq %d: why names no CPUs and their state" % s)
    sys.exit(1)
print("why seq %d: the detail's facts" % s)
EOF2
done
# every placement of a task, in time order, each the one --at its time gives
pid=$(python3 -c 'import json, sys, collections
c = collections.Counter(json.loads(l)["pid"] for l in open(sys.argv[1]))
print(max(c, key=lambda p: (c[p], -p)))' "$work/pl.jsonl")
want=$(python3 -c 'import json, sys
print(sum(1 for l in open(sys.argv[1]) if json.loads(l)["pid"] == int(sys.argv[2])))' "$work/pl.jsonl" "$pid")
(cd "$top" && LANG=C.UTF-8 LC_ALL= "$RQPATH" why "$pid" "$f") >"$work/why-all" || fail "why $pid: exit $?"
got=$(grep -c '^placement #' "$work/why-all")
[ "$got" -eq "$want" ] || fail "why $pid: $got placements, the export has $want"
(cd "$top" && "$RQPATH" why 999999 "$f") >/dev/null 2>"$work/why-none"
[ $? -eq 2 ] && grep -q 'no placement of pid 999999' "$work/why-none" ||
	fail "why of a pid without placements: not one line and exit 2"

# Beyond spawn.dat: every idle-stacking and missed-idle example the findings view lists
# on the fixtures that have them, opened there: its why is the audit's, and what the why
# says of the two CPUs holds in trace-cmd report, with the idle CPU's record among the
# detail's records.
for fx in idle-stack idle-stack-plain execl-pinned; do
	dat=fixtures/$fx.dat
	[ -f "$top/$dat" ] || { fail "no $dat"; continue; }
	"$RQPATH" audit --format json "$top/$dat" >"$work/$fx.json"
	trace-cmd report -t "$top/$dat" 2>/dev/null >"$work/$fx.report"
	script_reset
	python3 - "$work/$fx.json" >"$work/$fx.keys" <<'EOF2'
import json, sys
a = json.load(open(sys.argv[1]))
y = 0
for fid, f in a["findings"].items():
    for j, e in enumerate(f.get("examples", [])):
        if fid in ("idle-stacking", "missed-idle"):
            print("%s-%d\t<Esc><Esc><Esc>4<Home>%s<Enter>" % (fid, j, "<Down>" * (y + 2 + j)))
    y += 2 + len(f.get("examples", []))
EOF2
	while IFS='	' read -r name keys; do
		step "$fx-$name" "$keys"
	done <"$work/$fx.keys"
	run_script RQPATH_TUI_SIZE=$size -- replay "$dat"
	cut -f1 "$work/$fx.keys" | while IFS= read -r name; do
		screen "$fx-$name" >"$work/scr-$fx-$name"
	done
	python3 - "$work" "$size" "$fx" <<'EOF2' || failures=$((failures + 1))
import json, re, sys
work, size, fx = sys.argv[1:4]
sys.path.insert(0, work)
from facts_lib import *
load("%s/%s.report" % (work, fx), int(size.split("x")[1]))
a = json.load(open("%s/%s.json" % (work, fx)))
bad = n = 0
for fid in ("idle-stacking", "missed-idle"):
    for j, e in enumerate(a["findings"][fid].get("examples", [])):
        n += 1
        d = detail_facts(open("%s/scr-%s-%s-%d" % (work, fx, fid, j)).read().split("\n"))
        msg = []
        if d.get("pid") != e["pid"] or d.get("why") != e["why"]:
            msg.append("the detail says pid %s, %r" % (d.get("pid"), d.get("why")))
        t = ns(e["ts"])
        m = re.search(r"CPU (\d+) (?:was busy \(pid (\d+) running\)|ran only SCHED_IDLE work "
                      r"\(pid (\d+)\)) while (?:allowed )?CPU (\d+) of its LLC was idle", e["why"])
        if not m:
            msg.append("the why names no busy and idle CPU: %r" % e["why"])
        else:
            x, y = int(m.group(1)), int(m.group(4))
            pid = int(m.group(2) or m.group(3))
            ry = runner_before(y, t)
            if not ry or ry[0] != 0:
                msg.append("trace-cmd report has %s on CPU %d, the why: idle" % (ry and ry[0], y))
            if m.group(2):
                rx = runner_before(x, t)
                if not rx or rx[0] != pid:
                    msg.append("trace-cmd report has %s running on CPU %d, the why: %d" %
                               (rx and rx[0], x, pid))
            if not idle_shown(y, t, d.get("records", [])):
                msg.append("the records omit every record of CPU %d that 'idle' rests on" % y)
        for x in msg:
            print("FAIL: %s %s example %d (%.6f pid %d): %s" % (fx, fid, j, e["ts"], e["pid"], x))
        bad += bool(msg)
print("%s: %d examples, %d wrong" % (fx, n, bad))
sys.exit(1 if bad else 0)
EOF2
done

finish
