#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t_truth_selfcheck.sh - the truth records' self-check (issue 31): records the trace
# contradicts are refused from the first one, and the verdicts are then exactly the
# tracepoint model's (--no-truth); records it does not contradict are used.
#   - generated (tests/helpers/gen_trace.c --truth-on-rq): wakeups whose record says
#     "still on a runqueue" of tasks the trace shows blocking -- delay-dequeued (kept) and
#     not (--truth-not-delayed: what the 4-byte on_rq read gave on 7.2; refused);
#   - a real recording of this machine's kernel (tests/fixtures/truth/spawn-truth.dat,
#     6.18): nothing contradicted;
#   - fixtures/truth/*-onrq-bug.dat, where present: the same recorded on Debian's 7.2
#     kernel by the rqpath that read on_rq with 4 bytes: on_rq refused.
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
: "${RQPATH:?RQPATH must name the rqpath binary to test}"
build=${RQPATH_BUILD:-$top/build}
gen=$build/tests/gen_trace
command -v python3 >/dev/null || { echo "skip: python3 missing"; exit 77; }
[ -x "$gen" ] || { echo "skip: $gen not built (make check builds it)"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

# audit NAME FILE: $tmp/NAME.json with truth, $tmp/NAME.model.json without
audit() {
	"$RQPATH" audit --format json "$2" >"$tmp/$1.json" || no "$1: audit exited $?"
	"$RQPATH" audit --format json --no-truth "$2" >"$tmp/$1.model.json" ||
		no "$1: audit --no-truth exited $?"
}

# expect NAME REJECTED: the check's verdict, and with REJECTED (a field) the findings
# equal to --no-truth's
expect() {
	python3 - "$tmp/$1.json" "$tmp/$1.model.json" "$1" "$2" <<'PY' || fail=1
import json, sys
d, m, name, want = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3], sys.argv[4]
t = d["trace"]["truth"]
got = sorted(r["field"] for r in t["rejected"])
print("%s: records %d, check %s, rejected %s at record %d" % (
    name, t["records"], ", ".join("%s %d/%d" % (k, v["contradicted"], v["checked"])
                                  for k, v in t["check"].items()), got or "none",
    t["rejected_at_record"]))
ok = True
if t["records"] == 0:
    print("FAIL: %s: no truth records" % name); ok = False
if want == "none":
    if got:
        print("FAIL: %s: refused %s, want nothing refused" % (name, got)); ok = False
    if d["trace"]["data_quality"]["model_vs_truth"]["used"] == 0:
        print("FAIL: %s: no record used" % name); ok = False
else:
    if want not in got:
        print("FAIL: %s: %s not refused" % (name, want)); ok = False
    if t["rejected_at_record"] != 0:
        print("FAIL: %s: refused at record %d, want from the first (the file's pre-check)"
              % (name, t["rejected_at_record"])); ok = False
    mvt = d["trace"]["data_quality"]["model_vs_truth"]
    if mvt["used"] or mvt["placements"]:
        print("FAIL: %s: refused records used: %d, placements %d" % (name, mvt["used"],
                                                                     mvt["placements"]))
        ok = False
    for f, v in d["findings"].items():
        for k in ("count", "exact", "inferred", "possible", "not_judged", "judged"):
            if v[k] != m["findings"][f][k]:
                print("FAIL: %s: %s %s %d with refused truth, %d with --no-truth"
                      % (name, f, k, v[k], m["findings"][f][k])); ok = False
sys.exit(0 if ok else 1)
PY
}

"$gen" -o "$tmp/delayed.dat" --events 100000 --truth-on-rq 300 >/dev/null 2>"$tmp/gen.err" ||
	{ echo "FAIL: gen_trace: $(cat "$tmp/gen.err")"; exit 1; }
"$gen" -o "$tmp/forged.dat" --events 100000 --truth-on-rq 300 --truth-not-delayed \
	>/dev/null 2>"$tmp/gen.err" || { echo "FAIL: gen_trace: $(cat "$tmp/gen.err")"; exit 1; }
audit delayed "$tmp/delayed.dat"; expect delayed none
audit forged "$tmp/forged.dat"; expect forged on_rq
# the text report says it too
"$RQPATH" audit "$tmp/forged.dat" >"$tmp/forged.txt" || no "forged: text audit exited $?"
grep -q "REFUSED by their self-check (from the first)" "$tmp/forged.txt" ||
	no "forged: the text report does not say the records were refused"
grep -q "every verdict is the tracepoint model's" "$tmp/forged.txt" ||
	no "forged: the text report does not say whose verdicts these are"
audit real618 "$top/tests/fixtures/truth/spawn-truth.dat"; expect real618 none
for f in "$top"/fixtures/truth/*-onrq-bug.dat; do
	[ -f "$f" ] || continue
	n=$(basename "$f" .dat)
	audit "$n" "$f"; expect "$n" on_rq
done
[ $fail -eq 0 ] && echo "PASS"
exit $fail
