#!/bin/sh
# Every number, everywhere (issue 20, "Done when"): for every fixture (v7 and v6) and a
# 4 M-event generated trace, each finding's count, exact, inferred, possible, no selection
# (kernel truth), not judged, judged and denominator, and the trace's event count, as the
# dashboard, the findings view, audit text, JSON and CSV, the HTML report, the Perfetto
# export, `rqpath diff T -- T` (text, JSON and HTML) and the TUI's compare view of T with
# T show them, are one set of numbers, and "not judged" stands wherever nothing was
# judged (never a bare 0).  The JSON's numbers are
# anchored to counts made without rqpath: the trace generator's (tests/helpers/
# gen_trace.c, by construction), tests/tools/verdicts.py for idle-stacking and
# missed-idle, and the fixtures' .facts.json (trace-cmd report) for offcpu-fork and the
# events.  Wide numbers: the generated trace's 6-digit counts must not be cut by the
# dashboard's columns.  No selection (kernel truth) is checked where each output shows it:
# a number wherever the trace has truth records, no row or "(N no selection)" where the
# output leaves it out (no truth records; 0).  The recorded fixtures have none that is not
# 0 (a quiet 2-CPU machine's recordings give none): a generated trace with truth records
# (gen_trace --truth-on-rq) has hundreds, counted by the generator.
. "$(dirname "$0")/golden/script.sh"

command -v python3 >/dev/null 2>&1 || { echo "skip: python3 is not installed"; exit 77; }
gen=${RQPATH_BUILD:-$top/build}/tests/gen_trace
[ -x "$gen" ] || { echo "FAIL: no $gen (make $gen)"; exit 1; }
"$gen" -o "$work/gen4m.dat" --cpus 8 --llcs 2 --tasks 400 --events 4000000 --seed 7 \
	--file-version 7 2>"$work/gen.err" ||
	{ echo "FAIL: gen_trace: $(cat "$work/gen.err")"; exit 1; }
# kernel truth with "no selection" verdicts (on_rq at sched_waking), counted by the generator
"$gen" -o "$work/gentruth.dat" --cpus 4 --llcs 2 --tasks 100 --events 200000 --seed 5 \
	--truth-on-rq 200 2>"$work/gen.err" ||
	{ echo "FAIL: gen_trace --truth-on-rq: $(cat "$work/gen.err")"; exit 1; }

: >"$work/list"
i=0
for dat in "$top"/fixtures/*.dat "$top/tests/fixtures/truth/spawn-truth.dat" "$work/gen4m.dat" \
	"$work/gentruth.dat"; do
	[ -f "$dat" ] || continue
	i=$((i + 1))
	o=$work/t$i
	base=${dat%.dat}
	base=${base%.v6}
	"$RQPATH" audit --format json "$dat" >"$o.json" 2>/dev/null
	"$RQPATH" audit "$dat" >"$o.text" 2>/dev/null
	"$RQPATH" audit --format csv "$dat" >"$o.csv" 2>/dev/null
	"$RQPATH" audit --format html "$dat" >"$o.html" 2>/dev/null
	"$RQPATH" diff "$dat" -- "$dat" >"$o.diff" 2>/dev/null
	# the tracepoint model alone (what verdicts.py re-counts; the same without truth records)
	"$RQPATH" audit --no-truth --format json "$dat" >"$o.model" 2>/dev/null
	"$RQPATH" diff --format html "$dat" -- "$dat" >"$o.diffhtml" 2>/dev/null
	"$RQPATH" diff --format json "$dat" -- "$dat" >"$o.diffjson" 2>/dev/null
	# the Perfetto export's verdicts instant, read by a decoder of its own
	"$RQPATH" audit --format perfetto "$dat" -o "$o.pb" 2>/dev/null
	python3 "$top/tests/tools/perfetto_check.py" "$o.pb" --verdicts "$o.pfv" >/dev/null 2>&1 ||
		rm -f "$o.pfv"
	# the independent counts
	if [ -f "$dat.expect.json" ]; then
		cp "$dat.expect.json" "$o.expect"
	else
		[ -s "$base.verdicts" ] || python3 "$top/tests/tools/verdicts.py" "$base.dat" \
			>"$work/$(basename "$base").verdicts" 2>/dev/null
		cp "$work/$(basename "$base").verdicts" "$o.verdicts" 2>/dev/null
		cp "$base.facts.json" "$o.facts" 2>/dev/null
	fi
	script_reset
	step dash "1"
	step find "4"
	run_script RQPATH_TUI_SIZE=160x60 -- replay "$dat"
	screen dash >"$o.dash"
	screen find >"$o.find"
	script_reset
	step cmp "<Down>"
	run_script RQPATH_TUI_SIZE=100x120 -- replay "$dat" --compare "$dat"
	screen cmp >"$o.cmp"
	echo "$dat	$o" >>"$work/list"
done

python3 - "$work/list" <<'EOF' || failures=$((failures + 1))
import csv, html, json, os, re, sys

fails = []
checked = 0
KEYS = ("count", "exact", "inferred", "possible", "no_selection", "not_judged", "judged")
# the text report's columns; no_selection is a line of its own there (with truth, when not 0)
TEXT_KEYS = ("count", "exact", "inferred", "possible", "not_judged", "judged")
# what the tracepoint model alone counts (verdicts.py, --no-truth): no truth, no no_selection
MODEL_KEYS = TEXT_KEYS
# the findings that judge wakeups: only a waking can find its task still on a runqueue
WAKE = ("idle-stacking", "missed-idle")
KIND = {"execs": "exec", "forks": "fork", "wakeups": "wakeup"}


def fail(name, msg):
    fails.append(msg)
    print("FAIL %s: %s" % (name, msg))


def eq(name, where, key, got, want):
    global checked
    checked += 1
    if got != want:
        fail(name, "%s %s: %r, the audit JSON %r" % (where, key, got, want))


def unjudged(v):
    return not v["judged"] and not v["count"] and not v["possible"] and v["not_judged"] > 0


def text_table(name, where, txt, want):
    """the Findings table of the text report (also inside the HTML report)"""
    rows = {}
    on = False
    for l in txt.split("\n"):
        if l.startswith("Findings ") and "judged" in l:
            on = True
            continue
        if on:
            m = re.match(r"^  (\S+) +(not judged|\d+) +(\d+) +(\d+) +(\d+) +(\d+) +(\d+)$", l)
            if not m:
                if rows:
                    break
                continue
            rows[m.group(1)] = m.groups()[1:]
    for f, v in want.items():
        r = rows.get(f)
        if not r:
            fail(name, "%s: no row for %s" % (where, f))
            continue
        eq(name, where, f + " count", r[0], "not judged" if unjudged(v) else str(v["count"]))
        for k, x in zip(TEXT_KEYS[1:], r[1:]):
            eq(name, where, "%s %s" % (f, k), int(x), v[k])


for line in open(sys.argv[1]):
    dat, o = line.rstrip("\n").split("\t")
    name = os.path.basename(dat)
    try:
        a = json.load(open(o + ".json"))
    except (OSError, ValueError) as e:
        fail(name, "no audit JSON: %s" % e)
        continue
    F = {f: {k: v.get(k, 0) for k in KEYS} for f, v in a["findings"].items()}
    kinds = {}
    for p in a["placements"]:
        kinds[p["kind"]] = kinds.get(p["kind"], 0) + p["count"]
    events = a["trace"]["events"]
    # the text report and the dashboard count the tracepoints' events, truth records apart
    truth_recs = (a["trace"].get("truth") or {}).get("records", 0) or 0
    tp_events = events - truth_recs
    # truth records in the trace: no_selection is known (else no output claims a number)
    truth = a["trace"]["data_quality"]["model_vs_truth"]["records"] > 0

    # the JSON against the counts made without rqpath
    if os.path.exists(o + ".expect"):
        e = json.load(open(o + ".expect"))
        eq(name, "generator", "events", e["events"], events)
        for f, v in e["findings"].items():
            for k in KEYS:
                if k in v:
                    eq(name, "generator", "%s %s" % (f, k), v[k], F[f][k])
    else:
        if os.path.exists(o + ".verdicts"):
            vd = json.load(open(o + ".verdicts"))
            FM = json.load(open(o + ".model"))["findings"]
            for f in ("idle-stacking", "missed-idle"):
                for k in MODEL_KEYS:
                    eq(name, "verdicts.py", "%s %s" % (f, k), vd[f][k], FM[f][k])
        else:
            fail(name, "no verdicts.py counts")
        if os.path.exists(o + ".facts"):
            fa = json.load(open(o + ".facts"))
            eq(name, "facts.json", "offcpu-fork count", fa["offcpu_forks"],
               F["offcpu-fork"]["count"])
            eq(name, "facts.json", "offcpu-fork judged", fa["sched_wakeup_new"],
               F["offcpu-fork"]["judged"])
            eq(name, "facts.json", "events", fa["records"] - fa.get("unparsed", 0), events)

    # audit text and the copy inside the HTML report
    txt = open(o + ".text").read()
    text_table(name, "text", txt, F)
    m = re.search(r"no selection \(on a runqueue at sched_waking: ttwu_runnable\(\)\):\n"
                  r"    (.*)\n", txt)
    got = dict((x.split()[0], int(x.split()[1])) for x in m.group(1).split(", ")) if m else {}
    eq(name, "text", "no selection", got,
       {f: v["no_selection"] for f, v in F.items() if v["no_selection"]})
    m = re.search(r"(\d+) events(?: \(\+(\d+) truth records\))?, (\d+) lost", txt)
    eq(name, "text", "events", int(m.group(1)) if m else None, tp_events)
    eq(name, "text", "truth records", int(m.group(2) or 0) if m else None, truth_recs)
    H = html.unescape(open(o + ".html").read())
    text_table(name, "HTML", H, F)
    # the HTML's findings table: count (or "not judged"), possible, not judged, judged
    for f, v in F.items():
        m = re.search(r"<tr><td><i class=\"sw\"[^>]*></i>%s</td><td>([^<]*)</td><td>(\d+)"
                      r"</td><td>(\d+)</td><td>(\d+)</td><td>(\d+)</td></tr>" % re.escape(f), H)
        want = "not judged" if unjudged(v) else str(v["count"])
        eq(name, "HTML", f + " table count", m and m.group(1), want)
        for i, key in ((2, "possible"), (3, "no_selection"), (4, "not_judged"), (5, "judged")):
            eq(name, "HTML", f + " table " + key, m and int(m.group(i)), v.get(key, 0))

    # CSV
    rows = list(csv.reader(open(o + ".csv")))
    cv = {}
    for r in rows:
        if r and r[0].startswith("finding"):
            cv[(r[0], r[1])] = int(r[4])
        if r and r[0] == "trace" and r[1] == "events":
            eq(name, "CSV", "events", int(r[4]), events)
    for f, v in F.items():
        for k, rec in (("count", "finding"), ("exact", "finding-exact"),
                       ("inferred", "finding-inferred"), ("possible", "finding-possible"),
                       ("not_judged", "finding-not-judged"), ("judged", "finding-judged")):
            eq(name, "CSV", "%s %s" % (f, k), cv.get((rec, f)), v[k])
        eq(name, "CSV", f + " no_selection", cv.get(("finding-no-selection", f)),
           v["no_selection"] if truth else None)

    # rqpath diff T -- T, and the TUI's compare view of T with T: the base column
    for where, d in (("diff", open(o + ".diff").read()), ("compare view", open(o + ".cmp").read())):
      m = re.search(r"(\d+) events, (\d+) lost", d) if where == "diff" else \
          re.search(r" (\d+) events\n", d)
      eq(name, where, "events", int(m.group(1)) if m else None, events)
      for f, v in F.items():
        for k in ("count", "inferred", "possible", "no_selection", "not_judged", "judged"):
            m = re.search(r"^  %s %s +(not judged|\S+) +(not judged|\S+) " % (re.escape(f), k),
                          d, re.M)
            if k == "no_selection" and not (truth and f in WAKE):
                eq(name, where, "%s %s row" % (f, k), m and m.group(0), None)
                continue
            want = "not judged" if unjudged(v) and k in ("count", "inferred", "possible",
                                                         "no_selection") else str(v[k])
            if not m and where.startswith("diff") and want == "0":
                continue	# the diff folds rows that are zero on both sides
            if not m:
                fail(name, "%s: no row '%s %s'" % (where, f, k))
                continue
            eq(name, where, "%s %s" % (f, k), m.group(1), want)

    # the diff's JSON: each finding row's base run (null where nothing was judged)
    try:
        dj = json.load(open(o + ".diffjson"))
    except (OSError, ValueError) as e:
        fail(name, "no diff JSON: %s" % e)
        dj = {"rows": []}
    rows = {(r["key"], r["metric"]): r for r in dj["rows"] if r["section"] == "finding"}
    for f, v in F.items():
        for k in ("count", "inferred", "possible", "no_selection", "not_judged", "judged"):
            r = rows.get((f, k))
            if k == "no_selection" and not (truth and f in WAKE):
                eq(name, "diff JSON", "%s %s row" % (f, k), r, None)
                continue
            want = None if unjudged(v) and k in ("count", "inferred", "possible",
                                                 "no_selection") else v[k]
            eq(name, "diff JSON", "%s %s" % (f, k), r and r["base"]["runs"], [want])

    # the Perfetto export's verdicts instant: "<id>.verdict" and each number
    try:
        pv = json.load(open(o + ".pfv"))
    except (OSError, ValueError) as e:
        fail(name, "no Perfetto verdicts: %s" % e)
        pv = {}
    for f, v in F.items():
        eq(name, "Perfetto", f + " verdict", pv.get(f + ".verdict"),
           "not judged" if unjudged(v) else str(v["count"]))
        for k in ("count", "possible", "no_selection", "not_judged", "judged"):
            eq(name, "Perfetto", "%s %s" % (f, k), pv.get("%s.%s" % (f, k)), v[k])

    # the diff's HTML table
    dh = html.unescape(open(o + ".diffhtml").read())
    for f, v in F.items():
        for k in ("count", "inferred", "possible", "not_judged", "judged"):
            m = re.search(r"<tr><td>%s %s</td><td>([^<]*)</td>" % (re.escape(f), k), dh)
            want = "not judged" if unjudged(v) and k in ("count", "inferred", "possible") \
                else str(v[k])
            if not m and want == "0":
                continue	# the diff folds rows that are zero on both sides
            eq(name, "diff HTML", "%s %s" % (f, k), m and m.group(1), want)
        m = re.search(r"<tr><td>%s no_selection</td><td>([^<]*)</td>" % re.escape(f), dh)
        if not (truth and f in WAKE):
            eq(name, "diff HTML", f + " no_selection row", m and m.group(0), None)
        else:
            want = "not judged" if unjudged(v) else str(v["no_selection"])
            if m or want != "0":	# a row zero on both sides is folded
                eq(name, "diff HTML", f + " no_selection", m and m.group(1), want)

    # the dashboard: count, of N (and "(N no selection)" when N > 0), exact, infer, poss,
    # n/j (or "- of N not judged: N")
    dash = open(o + ".dash").read()
    m = re.search(r" (\d+) events ", dash)
    eq(name, "dashboard", "events", int(m.group(1)) if m else None, tp_events)
    for f, v in F.items():
        m = re.search(r"^ %s +(\d+|-) +of (\d+) (\w+)(?: \((\d+) no selection\))? +(.*?)\s*"
                      r"\u2502" % re.escape(f), dash, re.M)
        if not m:
            fail(name, "dashboard: no row for %s" % f)
            continue
        eq(name, "dashboard", f + " of", int(m.group(2)), kinds.get(KIND.get(m.group(3)), 0))
        if f == "offcpu-fork":
            eq(name, "dashboard", f + " of (JSON of)", int(m.group(2)), a["findings"][f]["of"])
        eq(name, "dashboard", f + " no selection", m.group(4),
           str(v["no_selection"]) if v["no_selection"] else None)
        if unjudged(v):
            eq(name, "dashboard", f + " count", m.group(1), "-")
            eq(name, "dashboard", f + " verdict", m.group(5), "not judged: %d" % v["not_judged"])
        else:
            eq(name, "dashboard", f + " count", m.group(1), str(v["count"]))
            cols = m.group(5).split()
            eq(name, "dashboard", f + " exact infer poss n/j",
               [int(c) for c in cols if c.isdigit()],
               [v["exact"], v["inferred"], v["possible"], v["not_judged"]])

    # the findings view's headers
    fv = open(o + ".find").read()
    for f, v in F.items():
        m = re.search(r"^\S+ %s +(.*)$" % re.escape(f), fv, re.M)
        if not m:
            fail(name, "findings view: no header for %s" % f)
            continue
        h = m.group(1).strip()
        if unjudged(v):
            want = "not judged: %d" % v["not_judged"]
        else:
            want = str(v["count"])
            if f == "offcpu-fork":
                want += " of %d forks" % a["findings"][f]["of"]
            if v["possible"]:
                want += " (+%d possible)" % v["possible"]
            if v.get("no_selection"):
                want += " (%d no selection)" % v["no_selection"]
            nj = max(v["not_judged"], a["findings"][f].get("unknown") or 0)
            if nj:
                want += " (%d not judged)" % nj
        eq(name, "findings view", f, h, want)

print("every number: %d checks, %d failure(s)" % (checked, len(fails)))
sys.exit(1 if fails else 0)
EOF
finish
