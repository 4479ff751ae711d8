#!/bin/sh
# rqpath diff --runs N -- BASE_CMD --- NEW_CMD records the runs itself: 2 runs of a
# 20-fork spawn loop and 2 of a 200-fork one, alternating (base 1, new 1, base 2, new 2 on
# stderr in that order); the JSON has 2 runs a side, each with at least the workload's
# own forks as fork placements (the kind's share times the placements: the recording is
# system-wide, other forks may add) and the new side more than the base; with 2 runs no
# row is "changed" and the rows say "2 runs: no noise estimate"; as a user other than
# root it is refused with one line; without "---" it is refused; no instance is left.
. "$(dirname "$0")/lib.sh"
need python3
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT

"$RQPATH" diff --runs 2 --format json -o "$dir/d.json" -- "$RQPATH" workload spawn --count 20 \
	--- "$RQPATH" workload spawn --count 200 2>"$dir/err" || no "diff --runs: exit $?: $(tail -1 "$dir/err")"
order=$(sed -n 's/^rqpath: diff: \(base\|new\) run \([0-9]\).*/\1\2/p' "$dir/err" | tr '\n' ' ')
[ "$order" = "base1 new1 base2 new2 " ] || no "runs not alternating: '$order'"
[ "$(grep -c '^workload=spawn' "$dir/err")" -eq 4 ] || no "the workload did not run 4 times (its lines on stderr)"
python3 - "$dir/d.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
bad = []
if len(d["base"]) != 2 or len(d["new"]) != 2:
    bad.append("%d base and %d new runs, want 2 and 2" % (len(d["base"]), len(d["new"])))
rows = {(r["section"], r["key"], r["metric"]): r for r in d["rows"]}
share, allc = rows[("kind", "fork", "share_pct")], rows[("placements", "all", "count")]
forks = {}
for side, want in (("base", 20), ("new", 200)):
    forks[side] = [round(s * a / 100) for s, a in zip(share[side]["runs"], allc[side]["runs"])]
    for n in forks[side]:
        if n < want:
            bad.append("%s: %d fork placements, the workload forked %d" % (side, n, want))
if min(forks["new"]) <= max(forks["base"]):
    bad.append("forks: new %s not above base %s" % (forks["new"], forks["base"]))
for r in d["rows"]:
    if r["verdict"] == "changed":
        bad.append("2 runs: %s %s changed" % (r["name"], r["metric"]))
if rows[("placements", "all", "count")]["verdict_text"] != "2 runs: no noise estimate":
    bad.append("placements: %r" % rows[("placements", "all", "count")]["verdict_text"])
print("diff --runs 2: fork placements base %s, new %s" % (forks["base"], forks["new"]))
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
# refused: without root, without the second command
if command -v setpriv >/dev/null 2>&1; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$RQPATH" diff --runs 1 -- true --- true \
		>/dev/null 2>"$dir/user.err"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$dir/user.err")" -eq 1 ] && grep -q 'root' "$dir/user.err" ||
		no "not root: exit $rc, not one line naming root: $(cat "$dir/user.err")"
else
	echo "note: setpriv not installed: the refusal without root not checked"
fi
"$RQPATH" diff --runs 1 -- true >/dev/null 2>"$dir/e"
[ $? -eq 2 ] && [ "$(wc -l <"$dir/e")" -eq 1 ] || no "--runs without '---' not refused with one line"
"$RQPATH" diff --runs 1 a.dat b.dat >/dev/null 2>"$dir/e"
[ $? -eq 2 ] && [ "$(wc -l <"$dir/e")" -eq 1 ] || no "--runs with trace files not refused with one line"
[ -z "$(stale)" ] || no "instances left: $(stale)"
[ $fail -eq 0 ] && echo "ok: diff --runs"
exit $fail
