#!/bin/sh
# t_fail_on.sh - --fail-on treats "not judged" as a verdict (issue 20 item 4): a rule on a
# finding that had candidates and could judge none of them trips, with a line naming the
# rule, unless RULE:judged-ok; in a multi-file run each tripped line names its file and
# each JSONL object carries "tripped"; rqpath diff's rules on a finding NEW judged in no
# run trip the same way.  Which findings were judged comes from the
# fixtures' own facts: execl-nomarkers.dat has no rqpath markers, so no exec's allowed
# CPUs are known (needless-callback cannot be judged); execl-pinned.dat has them.
top=$(cd "$(dirname "$0")/../.." && pwd)
rqpath=${RQPATH:-$top/rqpath}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
nm=$top/fixtures/execl-nomarkers.dat
pinned=$top/fixtures/execl-pinned.dat

"$rqpath" audit --fail-on needless-callback "$nm" >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] || no "needless-callback not judged on every exec: did not trip"
grep -q '^rqpath: --fail-on needless-callback tripped: not judged' "$tmp/err" ||
	no "no line naming the rule: $(cat "$tmp/err")"
"$rqpath" audit --fail-on needless-callback:judged-ok "$nm" >/dev/null 2>"$tmp/err"
[ $? -eq 0 ] || no "needless-callback:judged-ok tripped: $(cat "$tmp/err")"
"$rqpath" audit --fail-on needless-callback:possible:judged-ok "$nm" >/dev/null 2>&1
[ $? -eq 0 ] || no "needless-callback:possible:judged-ok tripped"
"$rqpath" audit --fail-on needless-callback:judged-ok=xx "$nm" >/dev/null 2>&1
[ $? -eq 2 ] || no "a bad N after :judged-ok is not refused"
# judged: the count decides, as before
"$rqpath" audit --fail-on needless-callback=100 "$pinned" >/dev/null 2>&1
[ $? -eq 0 ] || no "needless-callback=100 on the pinned fixture tripped"
"$rqpath" audit --fail-on needless-callback "$pinned" >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] || no "needless-callback on the pinned fixture did not trip"
grep -q 'tripped: [0-9]* found' "$tmp/err" || no "pinned: $(cat "$tmp/err")"

# several files: the line names the file, the object says what tripped
"$rqpath" audit --format jsonl --fail-on needless-callback=100 "$pinned" "$nm" \
	>"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] || no "jsonl: a file's rule tripped but the exit status is not 1"
grep -q "execl-nomarkers.dat: --fail-on needless-callback tripped: not judged" "$tmp/err" ||
	no "jsonl: the tripped line does not name its file: $(cat "$tmp/err")"
grep -q "execl-pinned.dat: --fail-on" "$tmp/err" && no "jsonl: the pinned file tripped"
python3 - "$tmp/out" <<'PY' || fail=1
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
want = {"execl-pinned.dat": [], "execl-nomarkers.dat": ["needless-callback"]}
for r in rows:
    name = r["file"].rsplit("/", 1)[-1]
    if r.get("tripped") != want[name]:
        print("FAIL: jsonl: %s tripped %r, want %r" % (name, r.get("tripped"), want[name]))
        sys.exit(1)
PY
# rqpath diff: a finding NEW judged in no run trips as audit's does, unless :judged-ok
"$rqpath" diff "$nm" -- "$nm" --fail-on needless-callback >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] || no "diff: needless-callback not judged in NEW did not trip"
grep -q '^rqpath: --fail-on needless-callback tripped: needless-callback not judged in NEW' \
	"$tmp/err" || no "diff: no line naming the rule: $(cat "$tmp/err")"
"$rqpath" diff "$nm" -- "$nm" --fail-on needless-callback:judged-ok >/dev/null 2>"$tmp/err"
[ $? -eq 0 ] || no "diff: needless-callback:judged-ok tripped: $(cat "$tmp/err")"
"$rqpath" diff "$pinned" -- "$nm" --fail-on needless-callback:possible >/dev/null 2>&1
[ $? -eq 1 ] || no "diff: needless-callback:possible, NEW not judged, did not trip"
"$rqpath" diff "$nm" -- "$pinned" --fail-on needless-callback=1000 >/dev/null 2>&1
[ $? -eq 0 ] || no "diff: NEW judged (pinned), within 1000: tripped"
"$rqpath" diff "$nm" -- "$nm" --fail-on wake-prev:judged-ok >/dev/null 2>&1
[ $? -eq 2 ] || no "diff: :judged-ok on a path is not refused"

[ $fail -eq 0 ] && echo "ok: --fail-on trips on not judged, names its file, JSONL says tripped"
exit $fail
