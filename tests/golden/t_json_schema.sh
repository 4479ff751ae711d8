#!/bin/sh
# The JSON of `rqpath audit` is a contract (docs/design.md §2, rqpath.audit/1): exactly these
# keys with these types, for every fixture and the foreign traces.
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v python3 >/dev/null || { echo "python3 missing"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0
for dat in "$top"/fixtures/*.dat "$top"/../shared/traces/*.dat; do
	[ -f "$dat" ] || continue
	n=$((n + 1))
	"$RQPATH" audit --format json "$dat" >"$tmp/$n.json" || { echo "FAIL: audit $dat"; exit 1; }
done
# single-file JSON names the --fail-on rules that tripped, as jsonl does ([] none)
"$RQPATH" audit --format json --fail-on missed-idle --fail-on offcpu-fork=100000 \
	"$top/fixtures/spawn.dat" >"$tmp/tripped.out" 2>/dev/null
[ $? -eq 1 ] || { echo "FAIL: --fail-on missed-idle on spawn.dat did not trip"; exit 1; }
python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
sys.exit(0 if d["tripped"] == ["missed-idle"] else "FAIL: tripped %r" % d["tripped"])' \
	"$tmp/tripped.out" || exit 1
python3 - "$tmp"/*.json <<'PY'
import json, sys
KINDS = {"fork", "exec", "wakeup", "balance", "newidle", "stopper", "affinity", "numa", "unknown"}
EX = {"ts": float, "pid": int, "comm": str, "cpu": int, "from_cpu": int, "to_cpu": int,
      "path": str, "confidence": str, "why": str}
VERDICT = {"count", "exact", "inferred", "possible", "no_selection", "not_judged", "judged", "assumptions",
           "examples", "possible_examples", "delay", "delay_others", "unknown", "of"}
ASSUME = {"affinity-all-cpus", "percpu-kthread-pinned", "policy-from-prio", "cpu-state-watched",
          "llc-assumed", "idle-exits-repaired", "affinity-last-read", "cpuset-unseen",
          "blocked-before-trace", "policy-last-read"}
# one key set for every finding; "unknown" is needless-callback's, "of" offcpu-fork's, null
# in the others
FIND = {"needless-callback": VERDICT, "offcpu-fork": VERDICT, "idle-stacking": VERDICT,
        "missed-idle": VERDICT}
OWN = {"unknown": "needless-callback", "of": "offcpu-fork"}
DELAY = {"n", "p50_ns", "p90_ns", "p99_ns", "max_ns", "total_ns", "exact"}
def delay_ok(o):
    return isinstance(o, dict) and set(o) == DELAY and isinstance(o["exact"], bool) and \
        all(isinstance(o[k], int) and o[k] >= 0 for k in DELAY - {"exact"}) and \
        o["p50_ns"] <= o["p90_ns"] <= o["p99_ns"] <= o["max_ns"] <= max(o["total_ns"], 0) + (o["n"] == 0)
bad = []
for p in sys.argv[1:]:
    d = json.load(open(p))
    def need(cond, what):
        if not cond:
            bad.append("%s: %s" % (p, what))
    need(set(d) == {"schema", "tripped", "trace", "counts", "placements", "findings", "delay"},
         "top-level keys %s" % sorted(d))
    need(isinstance(d["tripped"], list) and all(isinstance(x, str) for x in d["tripped"]),
         "tripped is a list of rule names")
    dl = d["delay"]
    need(set(dl) == {"flagged", "unflagged", "by_kind", "not_run", "unmeasured",
                     "unmeasured_causes"}, "delay keys")
    need(set(dl["unmeasured_causes"]) == {"lost_events", "late_moves", "other"} and
         sum(dl["unmeasured_causes"].values()) == dl["unmeasured"], "delay.unmeasured_causes")
    need(delay_ok(dl["flagged"]) and delay_ok(dl["unflagged"]), "delay flagged/unflagged")
    need(all(k in KINDS and delay_ok(v) for k, v in dl["by_kind"].items()), "delay.by_kind")
    need(d["schema"] == "rqpath.audit/1", "schema id")
    t = d["trace"]
    need(set(t) == {"source", "kernel", "cpus", "events", "lost_events", "first_ts", "last_ts",
                    "cut", "profile", "topology", "truth", "data_quality"}, "trace keys")
    need(t["cut"] in ("none", "unfinished", "disk-full"), "trace.cut")
    need(set(t["truth"]) == {"source", "records", "drops", "misses", "check", "rejected",
                             "rejected_at_record"} and
         t["truth"]["source"] in ("bpf", "none") and
         (t["truth"]["records"] == 0 or t["truth"]["source"] == "bpf"), "trace.truth")
    chk = t["truth"]["check"]
    need(set(chk) == {"on_rq", "cpu_state", "task"} and
         all(set(v) == {"checked", "contradicted"} and 0 <= v["contradicted"] <= v["checked"]
             for v in chk.values()), "trace.truth.check")
    need(all(set(r) == {"field", "why"} and r["field"] in chk and isinstance(r["why"], str)
             for r in t["truth"]["rejected"]) and
         isinstance(t["truth"]["rejected_at_record"], int), "trace.truth.rejected")
    need(set(t["profile"]) == {"exec_callback", "idle_stack", "fork_util", "delay_dequeue",
                               "source"}, "trace.profile keys")
    need(set(t["topology"]) == {"source", "llc", "asym_capacity", "capacity_source",
                                "eas_event"} and
         t["topology"]["source"] in ("trace", "option", "assumed") and
         t["topology"]["capacity_source"] in ("trace", "option", "eas-events", "assumed") and
         isinstance(t["topology"]["eas_event"], str) and
         (t["topology"]["capacity_source"] != "eas-events" or t["topology"]["asym_capacity"]) and
         len(t["topology"]["llc"]) == t["cpus"], "trace.topology")
    q = t["data_quality"]
    need(set(q) == {"repairs", "idle_exits_repaired", "switch_mismatches", "markers_ignored",
                    "mask_violations", "clock_backwards", "cpus", "model_vs_truth"},
         "trace.data_quality keys")
    mvt = q["model_vs_truth"]
    need(set(mvt) == {"records", "used", "placements", "selection", "cpu_state", "policy", "mask"}
         and all(set(mvt[k]) == {"compared", "disagree"} and mvt[k]["disagree"] <= mvt[k]["compared"]
                 for k in ("selection", "cpu_state", "policy", "mask"))
         and mvt["used"] <= mvt["records"], "trace.data_quality.model_vs_truth")
    need(sum(c["repairs"] for c in q["cpus"]) == q["repairs"], "data_quality repairs add up")
    need(all(isinstance(t[k], int) for k in ("cpus", "events", "lost_events")), "trace ints")
    need(all(isinstance(t[k], (int, float)) for k in ("first_ts", "last_ts")), "trace times")
    need(isinstance(t["source"], str) and isinstance(t["kernel"], str), "trace strings")
    for k in ("sched_wakeup_new", "sched_migrate_task", "sched_process_exec"):
        need(isinstance(d["counts"].get(k), int), "counts.%s" % k)
    for pl in d["placements"]:
        need(set(pl) == {"kind", "path", "count", "exact", "inferred", "unknown", "delay"} and
             pl["kind"] in KINDS and pl["count"] > 0, "placement %r" % pl)
        need(pl["exact"] + pl["inferred"] + pl["unknown"] == pl["count"], "placement confidence sums %r" % pl)
        need(delay_ok(pl["delay"]), "placement delay %r" % pl)
    need(set(d["findings"]) == set(FIND), "finding ids")
    for fid, keys in FIND.items():
        f = d["findings"][fid]
        need(set(f) == keys, "%s keys %s" % (fid, sorted(f)))
        for k, owner in OWN.items():
            need((f.get(k) is None) == (fid != owner) and
                 (fid != owner or isinstance(f.get(k), int)), "%s %s: %r" % (fid, k, f.get(k)))
        need(delay_ok(f["delay"]) and delay_ok(f["delay_others"]), "%s delay" % fid)
        need(len(f["examples"]) <= f["count"] and len(f["examples"]) <= 8, "%s examples bounded" % fid)
        need(f["exact"] + f["inferred"] == f["count"], "%s exact + inferred = count" % fid)
        need(set(f["assumptions"]) <= ASSUME and (f["inferred"] > 0) == bool(f["assumptions"]),
             "%s assumptions %r" % (fid, f["assumptions"]))
        need(len(f["possible_examples"]) <= min(f["possible"], 4), "%s possible examples" % fid)
        for ex in f["examples"]:
            need(set(ex) == set(EX), "%s example keys" % fid)
            need(all(isinstance(ex[k], (int, float) if ty is float else ty) for k, ty in EX.items()), "%s example types" % fid)
            need(ex["confidence"] in ("exact", "inferred", "unknown"), "confidence")
if bad:
    print("FAIL\n" + "\n".join(bad[:20]))
    sys.exit(1)
print("%d audits follow rqpath.audit/1" % (len(sys.argv) - 1))
PY
