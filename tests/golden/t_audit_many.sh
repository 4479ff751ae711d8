#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t_audit_many.sh - `rqpath audit A.dat B.dat C.dat --format jsonl`: one line per file, in
# order; each line is the file's `audit --format json` object (plus "file"); a corrupt
# file in the middle is an error object and exit 2 while the files around it are still
# reported; --fail-on over several files exits 1; -o writes the file.  In text, one
# report per file too; --format json (one object) refuses several.
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
rqpath=${RQPATH:-$top/rqpath}
command -v python3 >/dev/null 2>&1 || { echo "skip: python3 is not installed"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
a=$top/fixtures/spawn.dat
c=$top/fixtures/execl-pinned.dat
head -c 3000 "$a" >"$tmp/corrupt.dat"

"$rqpath" audit "$a" "$tmp/corrupt.dat" "$c" --format jsonl >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] || bad "corrupt file in the middle: exit $rc, want 2"
[ "$(wc -l <"$tmp/out")" -eq 3 ] || bad "$(wc -l <"$tmp/out") lines, want 3"
grep -q "corrupt.dat" "$tmp/err" || bad "no error line on stderr for the corrupt file"
"$rqpath" audit --format json "$a" >"$tmp/a.json"
"$rqpath" audit --format json "$c" >"$tmp/c.json"
python3 - "$tmp/out" "$tmp/a.json" "$tmp/c.json" "$a" "$tmp/corrupt.dat" "$c" <<'PY' || fail=1
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
want = [json.load(open(sys.argv[2])), None, json.load(open(sys.argv[3]))]
files = sys.argv[4:7]
bad = []
for i, (got, w) in enumerate(zip(lines, want)):
    if got.get("file") != files[i]:
        bad.append("line %d is for %r, want %r" % (i + 1, got.get("file"), files[i]))
    got.pop("file", None)
    if w is not None and (got.pop("tripped", None) != [] or w.pop("tripped", None) != []):
        bad.append("line %d: no --fail-on given, but tripped is not []" % (i + 1))
    if w is None:
        if set(got) != {"error"} or not got["error"]:
            bad.append("line 2 is not an error object: %r" % got)
    elif got != w:
        bad.append("line %d differs from audit --format json of the file" % (i + 1))
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
"$rqpath" audit "$a" "$c" "$a" --format jsonl --fail-on offcpu-fork -o "$tmp/o.jsonl" >"$tmp/stdout" 2>/dev/null
rc=$?
[ $rc -eq 1 ] || bad "--fail-on over 3 files: exit $rc, want 1"
[ "$(wc -l <"$tmp/o.jsonl")" -eq 3 ] && [ ! -s "$tmp/stdout" ] || bad "-o FILE: 3 lines there, none on stdout"
"$rqpath" audit "$a" "$c" --format json >/dev/null 2>&1
[ $? -eq 2 ] || bad "two files with --format json (one object): not exit 2"
# text: one report per file, in order, each the file's own, a blank line between them
"$rqpath" audit "$a" >"$tmp/a.txt"
"$rqpath" audit "$c" >"$tmp/c.txt"
{ cat "$tmp/a.txt"; echo; cat "$tmp/c.txt"; } >"$tmp/ac.want"
"$rqpath" audit "$a" "$c" >"$tmp/ac.txt" 2>"$tmp/ac.err" || bad "audit A C (text): exit $?"
cmp -s "$tmp/ac.want" "$tmp/ac.txt" || bad "audit A C (text) is not A's report, a blank line, C's"
# a corrupt file among them: its error line, the others' reports, exit 2
"$rqpath" audit "$a" "$tmp/corrupt.dat" "$c" >"$tmp/acc.txt" 2>"$tmp/acc.err"
[ $? -eq 2 ] || bad "audit A CORRUPT C (text): not exit 2"
[ "$(grep -c '^rqpath audit of' "$tmp/acc.txt")" -ge 2 ] || bad "audit A CORRUPT C: not both reports"
grep -q corrupt.dat "$tmp/acc.err" || bad "audit A CORRUPT C: no error line"
[ $fail -eq 0 ] && echo "ok: audit of several files"
exit $fail
