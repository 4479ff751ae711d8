#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t_diff.sh - `rqpath diff` on tests/fixtures/diff (spawn alone, then beside a CPU hog;
# see its README):
#  - the off-CPU fork counts per run equal tracefacts.py's independent offcpu_forks;
#  - offcpu-fork per second drops from the idle runs to the busy ones (as the workload
#    predicts: every busy run puts a smaller share of its forks on the other CPU than every
#    idle run, by the facts): the rank test's p is 0.1, the least 3 and 3 runs can give
#    (2 of the C(6,3) = 20 splits are as extreme), so it is "within noise" at the default
#    alpha 0.05 and "changed" with --alpha 0.1, and --fail-on offcpu-fork=10% trips
#    (exit 1) only then and only in the direction where it grew;
#  - one run a side: every differing row says "1 run: no noise estimate" and none
#    "changed" (text, JSON, HTML); two runs a side "2 runs: ..."; 4 -> 6 missed-idle
#    (below the floor of 10 events) does not trip --fail-on missed-idle; the offcpu-fork
#    p99 delay (72 us -> 1 ms, ~100 samples) trips --fail-on delay.p99:offcpu-fork=+20%
#    saying there is no noise estimate (not the other way round); RULE:possible is taken;
#  - the text counts per placement: offcpu-fork per 1000 placements equals tracefacts.py's
#    offcpu_forks over the run's placements; no "per s" row unless --per-second, which
#    shows them instead; rows 0 in every run are each on the one "0 in every run:" line
#    of their section and on no line of their own;
#  - JSON and CSV numbers are exact (no 1.37405e+06), the CSV has every run's value;
#  - a trace against itself: every row "unchanged", in text, JSON and CSV;
#  - JSON follows rqpath.diff/1, CSV loads with the same columns on every row, text fits
#    in 80 columns; a missing file is exit 2 with one line.
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
rqpath=${RQPATH:-$top/rqpath}
fx=$top/tests/fixtures/diff
command -v python3 >/dev/null 2>&1 || { echo "skip: python3 is not installed"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

idle="$fx/spawn-idle1.dat $fx/spawn-idle2.dat $fx/spawn-idle3.dat"
busy="$fx/spawn-busy1.dat $fx/spawn-busy2.dat $fx/spawn-busy3.dat"
# shellcheck disable=SC2086
"$rqpath" diff $idle -- $busy --alpha 0.1 --format json >"$tmp/ib.json" || bad "diff idle -- busy: exit $?"
# shellcheck disable=SC2086
"$rqpath" diff $idle -- $busy --format json >"$tmp/ib05.json" || bad "diff idle -- busy (alpha 0.05): exit $?"
# shellcheck disable=SC2086
"$rqpath" diff --alpha 0.1 --fail-on offcpu-fork=10% $idle -- $busy >"$tmp/ib.txt" 2>"$tmp/ib.err"
[ $? -eq 0 ] || bad "--fail-on offcpu-fork=10% tripped although the rate dropped"
# shellcheck disable=SC2086
"$rqpath" diff --alpha 0.1 --fail-on offcpu-fork=10% $busy -- $idle >/dev/null 2>"$tmp/bi.err"
[ $? -eq 1 ] || bad "--fail-on offcpu-fork=10% did not trip when the rate grew"
grep -q "tripped.*p 0.1" "$tmp/bi.err" || bad "no 'tripped' line with the p-value on stderr"
# a rule is checked on the row the table shows: per 1000 placements, per second only with
# --per-second.  The idle runs have fewer placements than the busy ones (468 vs 688 in
# the first pair) in a shorter time, so "all" grows per second and not in count.
grep -q "offcpu-fork per 1k 35.35 -> 205.13" "$tmp/bi.err" ||
	bad "--fail-on offcpu-fork not checked per 1000 placements: $(cat "$tmp/bi.err")"
# shellcheck disable=SC2086
"$rqpath" diff --alpha 0.1 --fail-on all $busy -- $idle >/dev/null 2>"$tmp/all.err"
[ $? -eq 0 ] || bad "--fail-on all tripped on the placements per second: $(cat "$tmp/all.err")"
# shellcheck disable=SC2086
"$rqpath" diff --per-second --alpha 0.1 --fail-on all $busy -- $idle >/dev/null 2>"$tmp/all.err"
[ $? -eq 1 ] || bad "--per-second --fail-on all did not trip on 3333.5 -> 8570.9 per s"
# shellcheck disable=SC2086
"$rqpath" diff --fail-on offcpu-fork=10% $busy -- $idle >/dev/null 2>&1
[ $? -eq 0 ] || bad "3 and 3 runs tripped at alpha 0.05 (p cannot be below 0.1)"
# one run a side: the floor, delay quantiles, RULE:possible
sp=$top/fixtures/spawn.dat
"$rqpath" diff --fail-on missed-idle "$sp" "$fx/spawn-idle1.dat" >"$tmp/one.txt" 2>&1
[ $? -eq 0 ] || bad "missed-idle 4 -> 6 in one run tripped --fail-on missed-idle"
grep -q '^  missed-idle count  *4  *6 .*  1 run: no noise estimate$' "$tmp/one.txt" ||
	bad "missed-idle 4 -> 6 does not say '1 run: no noise estimate'"
grep -q 'one run per side: no noise estimate' "$tmp/one.txt" || bad "no 'one run: no noise estimate' note"
sed 's/unchanged//g' "$tmp/one.txt" | grep -v '^  note' | grep -n 'changed' && bad "one run a side: a row says changed"
grep -q ' per s ' "$tmp/one.txt" && bad "the text has rates per second without --per-second"
"$rqpath" diff --per-second "$sp" "$fx/spawn-idle1.dat" >"$tmp/ps.txt" 2>&1 || bad "--per-second: exit $?"
grep -q '^  offcpu-fork per s ' "$tmp/ps.txt" && ! grep -q ' per 1k ' "$tmp/ps.txt" ||
	bad "--per-second does not show the rates per second instead of per placement"
grep -q '^Placements per second by path' "$tmp/ps.txt" || bad "--per-second: no per-second path section"
"$rqpath" diff "$sp" "$fx/spawn-idle1.dat" --format json >"$tmp/one.json" || bad "diff one json: exit $?"
"$rqpath" diff "$sp" "$fx/spawn-idle1.dat" --format html >"$tmp/one.html" || bad "diff one html: exit $?"
grep -q '>changed<' "$tmp/one.html" && bad "one run a side: the HTML says changed"
grep -q 'class="changed"' "$tmp/one.html" && bad "one run a side: a row in the HTML's changed colour"
"$rqpath" diff "$fx/spawn-idle1.dat" "$fx/spawn-idle2.dat" -- "$fx/spawn-busy1.dat" \
	"$fx/spawn-busy2.dat" --format json >"$tmp/two.json" || bad "diff 2 -- 2: exit $?"
python3 - "$tmp/one.json" "$tmp/one.txt" "$fx/spawn-idle1.facts.json" "$tmp/two.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read().split("\n")
facts = json.load(open(sys.argv[3]))
two = json.load(open(sys.argv[4]))
bad = []
for x in d["rows"]:
    if x["verdict"] in ("changed", "too few") or \
            (x["verdict"] not in ("unchanged", "n/a") and
             x["verdict_text"] != "1 run: no noise estimate"):
        bad.append("one run: %s %s is %r / %r" % (x["name"], x["metric"], x["verdict"],
                                                  x["verdict_text"]))
for x in two["rows"]:
    if x["verdict"] == "changed" or (x["verdict"] == "no noise estimate" and
                                     x["verdict_text"] != "%d runs: no noise estimate" %
                                     min(2, len([v for v in x["base"]["runs"] if v is not None]),
                                         len([v for v in x["new"]["runs"] if v is not None]))):
        bad.append("two runs: %s %s is %r / %r" % (x["name"], x["metric"], x["verdict"],
                                                   x["verdict_text"]))
rows = {(r["section"], r["key"], r["metric"]): r for r in d["rows"]}
pk = rows[("finding", "offcpu-fork", "per_1k")]["new"]["median"]
want = 1000.0 * facts["offcpu_forks"] / d["new"][0]["placements"]
if abs(pk - want) > 1e-9:
    bad.append("offcpu-fork per 1k %s, the facts give %s" % (pk, want))
# the folded rows: on their section's "0 in every run" line, never on a line of their own
zero_lines = " ".join(l for l in text if l.startswith("  0 in every run:") or
                      l.startswith("    "))
suffix = {"per_s": "per s", "per_1k": "per 1k", "p50_ns": "p50", "p99_ns": "p99"}
for x in d["rows"]:
    if not x["shown"] or x["section"] not in ("finding", "delay"):
        continue
    label = "%s %s" % (x["name"], suffix.get(x["metric"], x["metric"]))
    own = [l for l in text if l.startswith("  " + label + " ")]
    if x["all_zero"] and (own or label not in zero_lines):
        bad.append("%s: all 0 but not folded" % label)
    if not x["all_zero"] and not own:
        bad.append("%s: not all 0 but has no line" % label)
if not any(x["all_zero"] for x in d["rows"]):
    bad.append("no row 0 in every run to fold")
for b in bad[:10]:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
"$rqpath" diff --fail-on delay.p99:offcpu-fork=+20% "$sp" "$fx/spawn-idle1.dat" >/dev/null 2>"$tmp/d.err"
[ $? -eq 1 ] && grep -q 'delay.p99:offcpu-fork=+20% tripped.*1 run: no noise estimate' "$tmp/d.err" ||
	bad "--fail-on delay.p99:offcpu-fork=+20% did not trip on 72 us -> 1 ms: $(cat "$tmp/d.err")"
"$rqpath" diff --fail-on delay.p99:offcpu-fork=+20% "$fx/spawn-idle1.dat" "$sp" >/dev/null 2>&1
[ $? -eq 0 ] || bad "--fail-on delay.p99:offcpu-fork tripped when the delay dropped"
"$rqpath" diff --fail-on delay.p99:offcpu-fork=2ms "$sp" "$fx/spawn-idle1.dat" >/dev/null 2>&1
[ $? -eq 0 ] || bad "--fail-on delay.p99:offcpu-fork=2ms tripped on a growth below 1 ms"
"$rqpath" diff --fail-on missed-idle:possible=50% "$sp" "$fx/spawn-idle1.dat" >/dev/null 2>&1
[ $? -eq 0 ] || bad "--fail-on missed-idle:possible=50% refused or tripped (98 -> 96)"
for rule in delay.p99:nope delay.p42:wakeup offcpu-fork=-5 'delay.p99:wakeup=5kg' nope:possible; do
	"$rqpath" diff --fail-on "$rule" "$sp" "$sp" >/dev/null 2>"$tmp/e"
	[ $? -eq 2 ] && [ "$(wc -l <"$tmp/e")" -eq 1 ] || bad "--fail-on $rule is not refused with one line"
done
"$rqpath" diff --alpha 1 "$sp" "$sp" >/dev/null 2>&1
[ $? -eq 2 ] || bad "--alpha 1 is not refused"
# shellcheck disable=SC2086
"$rqpath" diff $idle -- $busy --format csv >"$tmp/ib.csv" || bad "diff --format csv: exit $?"
grep -Eq '[0-9]e[+-]?[0-9]' "$tmp/ib.json" "$tmp/ib.csv" && bad "a number in exponent form: $(grep -Eo '[0-9.]+e[+-]?[0-9]+' "$tmp/ib.json" "$tmp/ib.csv" | head -3)"
# 66 columns and the verdict: "2 runs: no noise estimate" makes 91
awk 'length > 91 && !/^  (base|new)/' "$tmp/ib.txt" | grep . && bad "text wider than 91 columns"

python3 - "$tmp/ib.json" "$fx" <<'PY' || fail=1
import json, os, sys
d = json.load(open(sys.argv[1]))
fx = sys.argv[2]
facts = {n: json.load(open(os.path.join(fx, "spawn-%s.facts.json" % n)))
         for n in ("idle1", "idle2", "idle3", "busy1", "busy2", "busy3")}
bad = []
rows = {(r["section"], r["key"], r["metric"]): r for r in d["rows"]}
cnt = rows[("finding", "offcpu-fork", "count")]
want_b = [facts["idle%d" % i]["offcpu_forks"] for i in (1, 2, 3)]
want_n = [facts["busy%d" % i]["offcpu_forks"] for i in (1, 2, 3)]
if cnt["base"]["runs"] != want_b or cnt["new"]["runs"] != want_n:
    bad.append("offcpu-fork counts %s / %s, trace-cmd says %s / %s" %
               (cnt["base"]["runs"], cnt["new"]["runs"], want_b, want_n))
# the prediction, from the facts alone
share = lambda n: facts[n]["offcpu_forks"] / facts[n]["sched_wakeup_new"]
if not max(share("busy%d" % i) for i in (1, 2, 3)) < min(share("idle%d" % i) for i in (1, 2, 3)):
    bad.append("the fixtures do not show the predicted drop (facts)")
r = rows[("finding", "offcpu-fork", "per_s")]
if not (r["verdict"] == "changed" and r["change"] < 0 and r["new"]["max"] < r["base"]["min"]):
    bad.append("offcpu-fork per_s: %s, change %s" % (r["verdict"], r["change"]))
# separated 3 and 3: U = 0 (no new run above a base run), p = 2/20
if not (r["test"] == "mann-whitney exact" and r["u"] == 0 and abs(r["p"] - 0.1) < 1e-12):
    bad.append("offcpu-fork per_s: test %s, U %s, p %s (want exact, 0, 0.1)" %
               (r["test"], r["u"], r["p"]))
d05 = json.load(open(sys.argv[1].replace("ib.json", "ib05.json")))
if [x["verdict"] for x in d05["rows"] if x["verdict"] == "changed"]:
    bad.append("3 and 3 runs gave a changed row at alpha 0.05")
if d["alpha"] != 0.1 or d["min_count"] != 10:
    bad.append("alpha %s, min_count %s" % (d["alpha"], d["min_count"]))
if d["schema"] != "rqpath.diff/1" or set(d) != {"schema", "alpha", "min_count", "min_runs",
                                                "per_second", "base", "new", "notes", "rows"}:
    bad.append("top-level keys %s" % sorted(d))
RUN = {"source", "kernel", "cpus", "duration_s", "events", "lost_events", "placements"}
if any(set(x) != RUN for x in d["base"] + d["new"]) or len(d["base"]) != 3 or len(d["new"]) != 3:
    bad.append("run objects")
ROW = {"section", "name", "key", "metric", "unit", "base", "new", "change", "change_pct", "verdict",
       "test", "u", "p", "events", "verdict_text", "shown", "all_zero"}
for x in d["rows"]:
    if set(x) != ROW or x["verdict"] not in ("unchanged", "within noise", "changed", "n/a",
                                            "no noise estimate") or \
            set(x["base"]) != {"runs", "min", "median", "max"} or len(x["new"]["runs"]) != 3:
        bad.append("row %r" % x)
        break
# the CSV carries every run's value, as the JSON
import csv
rows_csv = list(csv.DictReader(open(sys.argv[1].replace("ib.json", "ib.csv"), newline="")))
for x in rows_csv:
    if x["section"] in ("run", "note"):
        continue
    j = rows[(x["section"], [k for (s, k, m) in rows if s == x["section"] and
                             rows[(s, k, m)]["name"] == x["name"] and m == x["metric"]][0],
              x["metric"])]
    for side in ("base", "new"):
        for i, v in enumerate(j[side]["runs"]):
            c = x["%s_%d" % (side, i + 1)]
            if (v is None and c != "") or (v is not None and float(c) != v):
                bad.append("CSV %s %s %s_%d = %r, JSON %r" % (x["section"], x["name"], side,
                                                             i + 1, c, v))
for b in bad[:10]:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY

# a trace against itself
for fmt in text json csv; do
	"$rqpath" diff "$top/fixtures/spawn.dat" "$top/fixtures/spawn.dat" --format $fmt \
		-o "$tmp/self.$fmt" || bad "self diff $fmt: exit $?"
done
python3 - "$tmp/self.json" "$tmp/self.csv" "$tmp/self.text" <<'PY' || fail=1
import csv, json, sys
d = json.load(open(sys.argv[1]))
bad = [r for r in d["rows"] if r["verdict"] not in ("unchanged", "n/a") or
       (r["verdict"] == "unchanged" and r["change"] != 0)]
rows = list(csv.reader(open(sys.argv[2], newline="")))
if any(len(r) != len(rows[0]) for r in rows):
    bad.append("CSV rows of another width")
v = rows[0].index("verdict")
bad += [r for r in rows[1:] if r[0] not in ("run", "note") and r[v] not in ("unchanged", "n/a")]
text = "".join(l for l in open(sys.argv[3]) if not l.startswith("  note:"))
if "changed" in text.replace("unchanged", "") or "noise" in text:
    bad.append("text says changed or noise")
if len(d["rows"]) < 10:
    bad.append("only %d rows" % len(d["rows"]))
for b in bad:
    print("FAIL: self diff:", b)
sys.exit(1 if bad else 0)
PY

# --format html: a self-contained page with a row per JSON row; Chromium opens it cleanly
# shellcheck disable=SC2086
"$rqpath" diff $idle -- $busy --format html -o "$tmp/d.html" || bad "diff --format html: exit $?"
rows=$(grep -c '^<tr><td>' "$tmp/d.html")
want=$(python3 -c "import json; print(len([r for r in json.load(open('$tmp/ib.json'))['rows'] if r['shown'] and not r['all_zero']]))")
[ "$rows" -eq "$want" ] || bad "HTML has $rows rows, JSON $want shown and not all 0"
grep -Eq '(src|href)=' "$tmp/d.html" && bad "diff HTML refers to another file"
# each row drawn: a whisker per side and a dot per run that has a value (JSON's runs)
python3 - "$tmp/d.html" "$tmp/ib.json" <<'PY' || fail=1
import json, re, sys
page = open(sys.argv[1]).read()
rows = [r for r in json.load(open(sys.argv[2]))["rows"] if r["shown"] and not r["all_zero"]]
svgs = re.findall(r'<svg width="\d+" height="26" class="whisker".*?</svg>', page)
bad = []
if len(svgs) != len(rows):
    bad.append("%d whisker drawings, %d rows" % (len(svgs), len(rows)))
for svg, r in zip(svgs, rows):
    if r["verdict"] == "n/a":
        continue
    want = sum(1 for s in ("base", "new") for v in r[s]["runs"] if v is not None)
    dots = svg.count('class="run"')
    if dots != want or svg.count('class="median"') != sum(1 for s in ("base", "new") if r[s]["runs"]):
        bad.append("%s %s: %d dots, %d runs with a value" % (r["name"], r["metric"], dots, want))
        break
    xs = [float(x) for x in re.findall(r'cx="([-0-9.]+)"', svg)]
    if any(x < 0 or x > 220 for x in xs):
        bad.append("%s %s: a dot outside its drawing" % (r["name"], r["metric"]))
        break
for b in bad:
    print("FAIL: diff HTML:", b)
sys.exit(1 if bad else 0)
PY
chromium=$(command -v chromium || command -v chromium-browser)
if [ -n "$chromium" ]; then
	timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$tmp/profile" --enable-logging=stderr --v=0 --dump-dom \
		"file://$tmp/d.html" >"$tmp/dom" 2>"$tmp/chrome.log"
	grep -q 'CONSOLE.*"rqpath report ready"' "$tmp/chrome.log" || bad "diff HTML: script did not run"
	grep 'CONSOLE' "$tmp/chrome.log" | grep -v '"rqpath report ready"' | grep . &&
		bad "diff HTML: console messages"
	grep -q 'offcpu-fork' "$tmp/dom" || bad "diff HTML: Chromium's DOM lacks the rows"
else
	echo "note: chromium not installed, the diff HTML was not opened"
fi

# every verdict class of a finding has its own row, equal to each side's audit
"$rqpath" audit --format json "$top/fixtures/spawn.dat" >"$tmp/a.json" || bad "audit spawn: exit $?"
"$rqpath" diff "$top/fixtures/spawn.dat" "$top/fixtures/spawn.dat" --format json \
	>"$tmp/ss.json" || bad "diff spawn spawn: exit $?"
python3 - "$tmp/a.json" "$tmp/ss.json" <<'PY' || fail=1
import json, sys
audit, diff = (json.load(open(p)) for p in sys.argv[1:3])
rows = {(r["name"], r["metric"]): r for r in diff["rows"] if r["section"] == "finding"}
bad = []
for fid, f in audit["findings"].items():
    # judged nothing (issue 20 item 4): its counts are "not judged" (null), never 0
    unjudged = not f["judged"] and not f["count"] and not f["possible"] and f["not_judged"]
    for metric, key in (("count", "count"), ("inferred", "inferred"), ("possible", "possible"),
                        ("not_judged", "not_judged"), ("judged", "judged")):
        r = rows.get((fid, metric))
        want = None if unjudged and metric in ("count", "inferred", "possible") else f[key]
        if r is None:
            bad.append("%s: no %s row" % (fid, metric))
        elif r["base"]["median"] != want or r["new"]["median"] != want:
            bad.append("%s %s: %s/%s, the audit says %s" % (fid, metric, r["base"]["median"],
                                                            r["new"]["median"], want))
for b in bad:
    print("FAIL: diff verdict rows:", b)
sys.exit(1 if bad else 0)
PY

# different kernels (the fixtures were recorded on two kernel builds) are stated at the top
"$rqpath" diff "$top/fixtures/spawn.dat" "$fx/spawn-idle1.dat" >"$tmp/k.txt" || bad "diff of two kernels"
sed -n '1,8p' "$tmp/k.txt" | grep -q '^  note: kernels differ' || bad "differing kernels not stated at the top"

"$rqpath" diff "$top/fixtures/spawn.dat" "$tmp/missing.dat" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] || bad "a missing file is not exit 2 with one line"
"$rqpath" diff "$top/fixtures/spawn.dat" >/dev/null 2>&1
[ $? -eq 2 ] || bad "one file is not exit 2"
[ $fail -eq 0 ] && echo "ok: rqpath diff"
exit $fail
