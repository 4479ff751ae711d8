#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t_perfetto.sh - `rqpath audit FILE --format perfetto` for every fixture follows the
# Chrome/Perfetto trace event format: one JSON object with traceEvents; every event has
# ph, ts, pid and tid; instant events ("i") have s; slices ("X") a dur >= 0 and, per CPU
# track, no overlap; one instant event per placement the audit counts, each with its path.
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
rqpath=${RQPATH:-$top/rqpath}
command -v python3 >/dev/null 2>&1 || { echo "skip: python3 is not installed"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
for dat in "$top"/fixtures/*.dat; do
	case "$dat" in *.v6.dat) continue ;; esac
	"$rqpath" audit "$dat" --format perfetto -o "$tmp/p.json"
	[ $? -le 1 ] || { echo "FAIL: perfetto $dat"; fail=1; continue; }
	"$rqpath" audit "$dat" --format json >"$tmp/a.json"
	python3 - "$dat" "$tmp/p.json" "$tmp/a.json" <<'PY' || fail=1
import json, sys
name, d, a = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
ev = d["traceEvents"]
bad = []
for e in ev:
    if not all(k in e for k in ("ph", "ts", "pid", "tid")):
        bad.append("event without ph/ts/pid/tid: %r" % e)
        break
    if e["ph"] == "i" and e.get("s") not in ("g", "p", "t"):
        bad.append("instant event without s: %r" % e)
        break
    if e["ph"] == "X" and not (isinstance(e.get("dur"), (int, float)) and e["dur"] >= 0):
        bad.append("slice without dur >= 0: %r" % e)
        break
inst = [e for e in ev if e["ph"] == "i"]
want = sum(p["count"] for p in a["placements"])
if len(inst) != want:
    bad.append("%d instant events, %d placements" % (len(inst), want))
paths = {p["path"] for p in a["placements"]}
if any(e["args"]["path"] not in paths for e in inst):
    bad.append("an instant event with a path the audit does not have")
tracks = {}
for e in ev:
    if e["ph"] == "X":
        tracks.setdefault(e["tid"], []).append((e["ts"], e["ts"] + e["dur"]))
for tid, s in tracks.items():
    s.sort()
    if any(s[i][1] > s[i + 1][0] + 1e-6 for i in range(len(s) - 1)):
        bad.append("CPU %s: overlapping slices" % tid)
if not tracks:
    bad.append("no slices")
for b in bad:
    print("FAIL: %s: %s" % (name, b))
sys.exit(1 if bad else 0)
PY
done
[ $fail -eq 0 ] && echo "ok: perfetto traces of every fixture"
exit $fail
