#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t_hostile_names.sh - task names chosen by an attacker (ESC sequences, BEL, newline,
# quotes, comma, backslash, invalid UTF-8, a CSV formula) recorded live by
# `rqpath record` around tests/helpers/hostile_comm, then:
#   JSON parses and carries the names intact (decoded; invalid UTF-8 bytes may be
#   shown as \xNN, U+FFFD or U+00NN), CSV parses with the same number of columns on
#   every row, the text report and `rqpath explain FILE` contain no raw control byte
#   (< 0x20 other than \n, 0x7f, ESC).  Also: a file name with control bytes given to
#   audit gives an error line without them.
set -u
: "${RQPATH:?}" "${RQPATH_TOP:?}" "${RQPATH_BUILD:?}"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL $*"; fail=1; }

# control bytes in text: anything < 0x20 but \n, and 0x7f
no_ctl() { # FILE LABEL
	python3 - "$1" "$2" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
badpos = [i for i, b in enumerate(data) if (b < 0x20 and b != 0x0a) or b == 0x7f]
if badpos:
    i = badpos[0]
    print("%s: %d raw control byte(s), first 0x%02x at %d: %r" %
          (sys.argv[2], len(badpos), data[i], i, data[max(0, i - 30):i + 30]))
    sys.exit(1)
PY
}

# 1: a file name with control bytes, on a file that does not exist (needs no root)
name=$(printf '%s/no\033[31m such\nfile\007\r.dat' "$tmp")
timeout 30 "$RQPATH" audit "$name" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] || bad "audit of a missing file with a hostile name: exit $rc (want 2)"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || { bad "missing hostile file name: stderr is not one line"; cat -v "$tmp/err"; }
no_ctl "$tmp/err" "error line for a hostile file name" || fail=1
timeout 30 "$RQPATH" explain "$name" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] || bad "explain of a missing file with a hostile name: exit $rc (want 2)"
no_ctl "$tmp/err" "explain error line for a hostile file name" || fail=1

# 2: a real trace under a hostile file name: it shows up in every report
hf=$(printf '%s/t\033]0;x\007 "q",\\ \n\377.dat' "$tmp")
cp "$RQPATH_TOP/fixtures/spawn.dat" "$hf"
for fmt in json csv text; do
	timeout 120 "$RQPATH" audit --format $fmt "$hf" >"$tmp/hf.$fmt" 2>"$tmp/hf.err"
	rc=$?
	[ $rc -eq 0 ] || { bad "audit --format $fmt of a hostile file name: exit $rc"; cat -v "$tmp/hf.err"; }
	no_ctl "$tmp/hf.$fmt" "audit --format $fmt of a hostile file name" || fail=1
done
python3 - "$tmp/hf.json" "$tmp/hf.csv" "$hf" <<'PY' || fail=1
import csv, json, os, sys
try:
    j = json.load(open(sys.argv[1]))
except Exception as e:
    print("FAIL JSON of a hostile file name does not parse:", e)
    sys.exit(1)
src = j["trace"]["source"]
name = os.fsencode(sys.argv[3])
# the exact name, backslashes doubled and its one invalid UTF-8 byte (0xff) as \xff
want = name.replace(b"\\", b"\\\\").replace(b"\xff", b"\\xff").decode("utf-8")
if src != want:
    print("FAIL JSON trace.source %r, want the file name %r" % (src, want))
    sys.exit(1)
rows = list(csv.reader(open(sys.argv[2], newline="", encoding="utf-8")))
bad = [r for r in rows if len(r) != len(rows[0])]
if bad:
    print("FAIL CSV of a hostile file name: row with %d columns, header %d: %r" %
          (len(bad[0]), len(rows[0]), bad[0]))
    sys.exit(1)
PY
rm -f "$hf"

# 3: live names: root and tracefs needed
helper=$RQPATH_BUILD/tests/hostile_comm
if [ "$(id -u)" -ne 0 ]; then
	[ $fail -eq 0 ] || exit 1
	echo "not root: the live part (rqpath record of hostile task names) needs root"; exit 77
fi
. "$(dirname "$0")/../live/tracefs.sh"
if ! tracefs_ready; then
	[ $fail -eq 0 ] || exit 1
	echo "live part skipped"; exit 77
fi
if [ ! -x "$helper" ]; then
	echo "FAIL helper $helper not built (make check builds tests/helpers/*.c)"; exit 1
fi
timeout 120 "$RQPATH" record -o "$tmp/h.dat" -- "$helper" >"$tmp/names.hex" 2>"$tmp/rec.err"
rc=$?
if [ $rc -ne 0 ]; then
	echo "FAIL rqpath record exit $rc:"; cat "$tmp/rec.err"; exit 1
fi
grep -q 'Sanitizer\|runtime error' "$tmp/rec.err" && { bad "record: sanitizer report"; cat "$tmp/rec.err"; }

for fmt in json csv text; do
	timeout 120 "$RQPATH" audit --format $fmt "$tmp/h.dat" >"$tmp/a.$fmt" 2>"$tmp/a.$fmt.err"
	rc=$?
	[ $rc -eq 0 ] || { bad "audit --format $fmt: exit $rc"; cat "$tmp/a.$fmt.err"; }
	grep -q 'Sanitizer\|runtime error' "$tmp/a.$fmt.err" && bad "audit $fmt: sanitizer report"
done
timeout 120 "$RQPATH" explain "$tmp/h.dat" >"$tmp/explain" 2>"$tmp/explain.err"
rc=$?
[ $rc -eq 0 ] || { bad "explain FILE: exit $rc"; cat "$tmp/explain.err"; }

python3 - "$tmp/names.hex" "$tmp/a.json" "$tmp/a.csv" <<'PY' || fail=1
import csv, json, sys

names = [bytes.fromhex(l.strip()) for l in open(sys.argv[1]) if l.strip()]
# what the kernel keeps: TASK_COMM_LEN - 1 bytes
comms = {n[:15] for n in names}

def forms(b):
    """Acceptable decoded JSON forms of a comm given as bytes."""
    out = set()
    out.add(b.decode("utf-8", "replace"))
    out.add(b.decode("latin-1"))
    s = ""
    i = 0
    while i < len(b):
        for j in (4, 3, 2, 1):
            try:
                # rqpath doubles backslashes so that \xHH is unambiguous
                s += b[i:i + j].decode("utf-8").replace("\\", "\\\\")
                i += j
                break
            except UnicodeDecodeError:
                continue
        else:
            s += "\\x%02x" % b[i]
            i += 1
    out.add(s)
    return out

accepted = {}
for c in comms:
    for f in forms(c):
        accepted[f] = c

ok = True
try:
    j = json.load(open(sys.argv[2]))
except Exception as e:
    print("FAIL JSON does not parse:", e)
    sys.exit(1)
seen = set()
for fid, store in j["findings"].items():
    for ex in store["examples"]:
        c = ex["comm"]
        if c in accepted:
            seen.add(accepted[c])
        elif any(ch in c for ch in "\x1b\x07\n\"\\,\x7f") or "\ufffd" in c or "\\x" in c:
            print("FAIL JSON %s example comm %r is a hostile name, but not intact" % (fid, c))
            ok = False
        for k in ("why", "path"):
            if k in ex and not isinstance(ex[k], str):
                print("FAIL JSON %s example %s is not a string" % (fid, k))
                ok = False
print("hostile names seen intact in JSON examples: %d of %d" % (len(seen), len(comms)))
if len(seen) < 3:
    print("FAIL fewer than 3 hostile names reached the JSON examples: the test proves nothing")
    ok = False

rows = list(csv.reader(open(sys.argv[3], newline="", encoding="utf-8", errors="strict")))
if not rows:
    print("FAIL CSV is empty")
    sys.exit(1)
width = len(rows[0])
for n, r in enumerate(rows[1:], 2):
    if len(r) != width:
        print("FAIL CSV row %d has %d columns, the header %d: %r" % (n, len(r), width, r))
        ok = False
        break
hdr = rows[0]
if "comm" in hdr:
    ci = hdr.index("comm")
    csv_seen = {r[ci] for r in rows[1:] if len(r) == width and r[ci]}
    for c in csv_seen:
        if c[:1] in ("=", "+", "-", "@"):
            print("FAIL CSV comm %r starts with a spreadsheet formula character" % c)
            ok = False
sys.exit(0 if ok else 1)
PY

# the placements export carries the same names, escaped the same way
for pf in csv jsonl; do
	timeout 120 "$RQPATH" audit "$tmp/h.dat" --placements $pf -o "$tmp/p.$pf" 2>"$tmp/p.err" ||
		{ bad "audit --placements $pf: exit $?"; cat "$tmp/p.err"; }
	no_ctl "$tmp/p.$pf" "placements $pf" || fail=1
done
python3 - "$tmp/names.hex" "$tmp/p.jsonl" "$tmp/p.csv" <<'PY' || fail=1
import csv, json, sys
names = {bytes.fromhex(l.strip())[:15] for l in open(sys.argv[1]) if l.strip()}
def form(b):
    s, i = "", 0
    while i < len(b):
        for j in (4, 3, 2, 1):
            try:
                s += b[i:i + j].decode("utf-8").replace("\\", "\\\\")
                i += j
                break
            except UnicodeDecodeError:
                continue
        else:
            s += "\\x%02x" % b[i]
            i += 1
    return s
want = {form(n) for n in names}
comms = {json.loads(l)["comm"] for l in open(sys.argv[2])}
rows = list(csv.reader(open(sys.argv[3], newline="", encoding="utf-8")))
ok = all(len(r) == len(rows[0]) for r in rows)
if not ok:
    print("FAIL placements CSV rows of another width")
if len(want & comms) < 3:
    print("FAIL placements JSONL: %d hostile names intact, want >= 3" % len(want & comms))
    ok = False
sys.exit(0 if ok else 1)
PY

no_ctl "$tmp/a.text" "audit text report" || fail=1
no_ctl "$tmp/a.csv" "audit CSV report" || fail=1
no_ctl "$tmp/a.json" "audit JSON report" || fail=1
no_ctl "$tmp/explain" "rqpath explain FILE" || fail=1
exit $fail
