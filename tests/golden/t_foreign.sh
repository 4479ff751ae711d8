#!/bin/sh
# Foreign real-world traces (arm64 Juno, 6 CPUs, recorded elsewhere with trace-cmd, file
# version 6): rqpath's counts must equal trace-cmd report's, the JSON must parse, and a
# trace without the needed events must say which findings it cannot support; the
# idle-stacking and missed-idle verdicts must equal tests/tools/verdicts.py's.
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
traces=$top/../shared/traces
[ -d "$traces" ] || { echo "no ../shared/traces beside the checkout"; exit 77; }
command -v python3 >/dev/null || { echo "python3 missing"; exit 77; }
command -v trace-cmd >/dev/null || { echo "trace-cmd missing"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
for dat in "$traces"/*.dat; do
	name=$(basename "$dat")
	python3 "$top/tests/tools/tracefacts.py" "$dat" >"$tmp/facts.json" || { echo "FAIL: tracefacts $name"; fail=1; continue; }
	"$RQPATH" audit --format json "$dat" >"$tmp/out.json" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 0 ] || { echo "FAIL: audit $name exit $rc: $(cat "$tmp/err")"; fail=1; continue; }
	# the verdicts as the independent model of tests/tools/verdicts.py counts them
	python3 "$top/tests/tools/verdicts.py" "$dat" >"$tmp/verdicts.json" 2>"$tmp/verr" ||
		{ echo "FAIL: verdicts.py $name: $(tail -n 1 "$tmp/verr")"; fail=1; continue; }
	python3 - "$tmp/facts.json" "$tmp/out.json" "$name" "$tmp/verdicts.json" <<'PY' || fail=1
import json, sys
facts = json.load(open(sys.argv[1])); out = json.load(open(sys.argv[2])); name = sys.argv[3]
verdicts = json.load(open(sys.argv[4]))
bad = []
for fid in ("missed-idle", "idle-stacking"):
    for key in ("count", "exact", "inferred", "possible", "not_judged", "judged"):
        got, want = out["findings"][fid].get(key), verdicts[fid][key]
        if got != want:
            bad.append(f"{fid}.{key}: rqpath {got}, verdicts.py {want}")
for k, v in out["counts"].items():
    if facts["counts"].get(k, 0) != v:
        bad.append(f"{k}: rqpath {v}, trace-cmd {facts['counts'].get(k, 0)}")
for k in ("sched_wakeup_new", "sched_migrate_task", "sched_process_exec"):
    if k not in out["counts"]:
        bad.append(f"counts lacks {k}")
if out["trace"]["cpus"] != facts["cpus"]:
    bad.append(f"cpus {out['trace']['cpus']} vs {facts['cpus']}")
if out["findings"]["offcpu-fork"]["count"] != facts["offcpu_forks"]:
    bad.append("offcpu-fork differs")
if sum(p["count"] for p in out["placements"]) < facts["counts"].get("sched_wakeup_new", 0):
    bad.append("fewer placements than forks")
if bad:
    print(f"FAIL {name}: " + "; ".join(bad)); sys.exit(1)
print(f"ok {name}: counts match trace-cmd report ({sum(out['counts'].values())} sched records)")
PY
done
# the rt-app trace has no placement events at all: the report must say so
"$RQPATH" audit "$traces/lisa-juno-rtapp.dat" >"$tmp/rtapp.txt" 2>&1 || fail=1
grep -q "cannot support offcpu-fork: the trace has no sched_wakeup_new" "$tmp/rtapp.txt" || { echo "FAIL: rt-app report does not say what it cannot support"; fail=1; }
grep -q "all CPUs assumed to share one LLC" "$tmp/rtapp.txt" || { echo "FAIL: assumed topology not stated"; fail=1; }
# every trace's audit names its assumptions: delayed dequeue or not and from what, the
# LLC layout, symmetric capacities or not and from what; the Juno's plat_info.yml gives
# the capacities (asymmetric, from --topology); its kernel (4.19 by the plat_info)
# defines sched_waking but not sched_prepare_exec (v6.10): no delayed dequeue
for dat in "$traces"/*.dat; do
	name=$(basename "$dat")
	"$RQPATH" audit "$dat" >"$tmp/a.txt" 2>&1
	grep -q "^    delay-dequeue off (kernel release unknown; no sched_prepare_exec event" "$tmp/a.txt" ||
		{ echo "FAIL: $name: delayed dequeue assumed on, or not said why: $(grep -A1 profile: "$tmp/a.txt")"; fail=1; }
	grep -q "^  capacities: " "$tmp/a.txt" || { echo "FAIL: $name: no capacities line"; fail=1; }
	"$RQPATH" audit --topology "$traces/lisa-juno-plat_info.yml" "$dat" >"$tmp/p.txt" 2>&1 ||
		{ echo "FAIL: $name with the plat_info: $(tail -n 1 "$tmp/p.txt")"; fail=1; }
	grep -q "^  capacities: from --topology: they differ (asymmetric" "$tmp/p.txt" ||
		{ echo "FAIL: $name: plat_info capacities not read: $(grep capacities "$tmp/p.txt")"; fail=1; }
done
grep -q "^  capacities: not in the trace: all CPUs assumed of one capacity" "$tmp/a.txt" ||
	{ echo "FAIL: the sched_load trace does not say it assumed a symmetric machine"; fail=1; }
"$RQPATH" audit "$traces/lisa-juno-rtapp.dat" | grep -q "^  capacities: not in the trace, but the kernel defines sched_tune_config" ||
	{ echo "FAIL: the rt-app trace's EAS events not taken for an asymmetric machine"; fail=1; }
# no sched_wakeup records: the moves of sleeping tasks are not a basis for wakeup verdicts;
# missed-idle and idle-stacking are not judged (every candidate), and --fail-on on them
# is not checked (exit 0) with a line that says why
juno=$traces/lisa-juno-sched_load.dat
"$RQPATH" audit --fail-on missed-idle "$juno" >"$tmp/juno.txt" 2>"$tmp/juno.err"
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: --fail-on missed-idle on the Juno trace exit $rc: $(cat "$tmp/juno.err")"; fail=1; }
grep -q "^rqpath: --fail-on missed-idle not checked: missed-idle is not judged, the trace has no sched_wakeup events" "$tmp/juno.err" ||
	{ echo "FAIL: --fail-on missed-idle on the Juno trace: no line saying why: $(cat "$tmp/juno.err")"; fail=1; }
grep -Eq "^  missed-idle +not judged +0 +0 +0 +[0-9]+ +0$" "$tmp/juno.txt" ||
	{ echo "FAIL: Juno missed-idle is not 'not judged': $(grep '^  missed-idle ' "$tmp/juno.txt")"; fail=1; }
"$RQPATH" audit --format csv "$juno" | grep -q '^finding,missed-idle,,,0,' ||
	{ echo "FAIL: Juno CSV counts missed-idle"; fail=1; }
# the delay section: the Juno trace lost no events; its unmeasured delays are those of
# migration/N moves classified late: with the measured ones, every move trace-cmd
# report shows written by a migration/N thread
moves=$(trace-cmd report "$juno" 2>/dev/null | grep -c ' migration/[0-9]*-[0-9]* .* sched_migrate_task:')
grep -q "^  not measured: 0 did not run again inside the trace, 0 after lost events$" "$tmp/juno.txt" &&
grep -q "^    and [0-9]* move(s) classified late (a migration/N move once what followed$" "$tmp/juno.txt" ||
	{ echo "FAIL: Juno delay section: $(grep -A2 'not measured' "$tmp/juno.txt")"; fail=1; }
"$RQPATH" audit --format json "$juno" | python3 -c '
import json, sys
d = json.load(sys.stdin); moves = int(sys.argv[1]); c = d["delay"]["unmeasured_causes"]
measured = sum(p["delay"]["n"] for p in d["placements"]
               if p["kind"] in ("stopper", "exec") and p.get("delay"))
ok = (c["lost_events"] == 0 == d["trace"]["lost_events"] and c["other"] == 0 and
      c["late_moves"] == d["delay"]["unmeasured"] and c["late_moves"] + measured == moves)
sys.exit(0 if ok else "FAIL: Juno delay causes %r, %d measured, %d migration/N moves" % (c, measured, moves))
' "$moves" || fail=1
exit $fail
