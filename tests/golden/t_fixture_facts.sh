#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t_fixture_facts.sh - `rqpath audit --format json` on every real fixture must agree with
# numbers that do not come from rqpath: fixtures/NAME.facts.json (tests/tools/tracefacts.py
# over `trace-cmd report`) and fixtures/NAME.workload (what the workload says it did),
# and the verdicts and mask-resting path confidences of tests/tools/verdicts.py.
# NAME.dat (v7) and NAME.v6.dat share NAME.facts.json.
#
# Exit 0 pass, 1 fail (each differing fixture/key named), 77 skip (last line says why).
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
rqpath=${RQPATH:-$top/rqpath}
fixtures=$top/fixtures

if ! command -v python3 >/dev/null 2>&1; then
	echo "skip: python3 is not installed (needed to compare JSON)"
	exit 77
fi
if [ ! -x "$rqpath" ]; then
	echo "FAIL: no rqpath binary at $rqpath (set RQPATH)"
	exit 1
fi

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
list=$tmp/list
: >"$list"
n=0
for dat in "$fixtures"/*.dat; do
	[ -f "$dat" ] || continue
	base=${dat%.dat}
	base=${base%.v6}
	base=${base%.v7}
	[ -f "$base.facts.json" ] || continue
	n=$((n + 1))
	out=$tmp/$n.json
	"$rqpath" audit --format json "$dat" >"$out" 2>"$tmp/$n.err"
	rc=$?
	# the verdicts, counted apart from rqpath by tests/tools/verdicts.py (once per trace)
	verdicts=$tmp/$(basename "$base").verdicts.json
	if [ ! -s "$verdicts" ] &&
	   ! python3 "$top/tests/tools/verdicts.py" "$base.dat" >"$verdicts" 2>"$tmp/v.err"; then
		echo "FAIL: tests/tools/verdicts.py on $base.dat: $(tail -n 1 "$tmp/v.err")"
		exit 1
	fi
	echo "$(basename "$dat")	$rc	$base.facts.json	$base.workload	$out	$tmp/$n.err	$verdicts" >>"$list"
done
if [ $n -eq 0 ]; then
	echo "FAIL: no fixtures/*.dat with a .facts.json in $fixtures"
	exit 1
fi

python3 - "$list" <<'EOF'
import json, os, sys

fails = []
checked = 0

def fail(dat, what):
    fails.append("FAIL %s: %s" % (dat, what))

def eq(dat, key, got, want):
    global checked
    checked += 1
    if got != want:
        fail(dat, "%s: audit %r != expected %r" % (key, got, want))

def get(d, *path):
    for p in path:
        if not isinstance(d, dict) or p not in d:
            return None
        d = d[p]
    return d

def is_event(k):
    return k.startswith("sched_") or k.startswith("sys_enter_") or k.startswith("sys_exit_")

for line in open(sys.argv[1]):
    dat, rc, facts_p, wl_p, out_p, err_p, verdicts_p = line.rstrip("\n").split("\t")
    name = os.path.basename(facts_p)[:-len(".facts.json")]
    err = open(err_p, errors="replace").read().strip()
    if rc not in ("0", "1"):
        fail(dat, "rqpath audit exited %s: %s" % (rc, err.splitlines()[-1] if err else ""))
        continue
    try:
        audit = json.load(open(out_p))
    except ValueError as e:
        fail(dat, "audit output is not JSON: %s" % e)
        continue
    facts = json.load(open(facts_p))
    wl = facts.get("workload") or {}
    if not wl and os.path.exists(wl_p):
        for tok in open(wl_p).read().split():
            k, _, v = tok.partition("=")
            wl[k] = int(v) if v.lstrip("-").isdigit() else v

    eq(dat, "schema", audit.get("schema"), "rqpath.audit/1")
    if facts.get("cpus") is not None and get(audit, "trace", "cpus") is not None:
        eq(dat, "trace.cpus", get(audit, "trace", "cpus"), facts["cpus"])

    # counts: the three named ones must be there; every event key either side must agree
    # (an event tracefacts never saw has 0 records).
    ac = audit.get("counts")
    if not isinstance(ac, dict):
        fail(dat, "no counts object")
        ac = {}
    fc = facts.get("counts", {})
    for k in ("sched_wakeup_new", "sched_migrate_task", "sched_process_exec"):
        if k not in ac:
            fail(dat, "counts.%s missing (facts say %d)" % (k, fc.get(k, 0)))
    for k in sorted(set(ac) | set(fc)):
        if k in ac and is_event(k):
            eq(dat, "counts." + k, ac[k], fc.get(k, 0))

    f = audit.get("findings") or {}
    eq(dat, 'findings["offcpu-fork"].count', get(f, "offcpu-fork", "count"),
       facts["offcpu_forks"])
    eq(dat, 'findings["offcpu-fork"].of', get(f, "offcpu-fork", "of"),
       fc.get("sched_wakeup_new", 0))

    nc = get(f, "needless-callback", "count")
    nu = get(f, "needless-callback", "unknown")
    execs = wl.get("execs")
    if name == "execl-pinned":
        eq(dat, 'findings["needless-callback"].count (= workload execs)', nc, execs)
        eq(dat, 'findings["needless-callback"].unknown', nu, 0)
    elif name == "execl-unpinned":
        eq(dat, 'findings["needless-callback"].count', nc, 0)
    elif name == "execl-nomarkers":
        eq(dat, 'findings["needless-callback"].count', nc, 0)
        # Without markers no exec in the trace has a known mask: the workload's execs
        # plus the one that started it (and any other task's) are all unknown.
        eq(dat, 'findings["needless-callback"].unknown (= every sched_process_exec)', nu,
           fc.get("sched_process_exec", 0))
        checked += 1
        if not isinstance(nu, int) or execs is None or nu < execs:
            fail(dat, 'findings["needless-callback"].unknown %r < workload execs %r'
                 % (nu, execs))

    # the verdicts: proven, possible, not judged and judged, as the independent model
    # of tests/tools/verdicts.py counts them from trace-cmd report
    verdicts = json.load(open(verdicts_p))
    for fid in ("missed-idle", "idle-stacking"):
        for key in ("count", "exact", "inferred", "possible", "not_judged", "judged"):
            eq(dat, 'findings["%s"].%s (verdicts.py)' % (fid, key), get(f, fid, key),
               verdicts[fid][key])
    # the paths whose confidence rests on the allowed CPUs (wake-prev, wake-affine,
    # fork-*, exec-affine): exact only on a mask that rests on no assumption
    rows = {p.get("path"): p for p in (get(audit, "placements") or [])}
    for pid, want in sorted(verdicts["paths"].items()):
        row = rows.get(pid, {"count": 0, "exact": 0, "inferred": 0})
        for key in ("count", "exact", "inferred"):
            eq(dat, 'placements["%s"].%s (verdicts.py)' % (pid, key), row.get(key),
               want[key])
    got = {str(c["cpu"]): c["repairs"] for c in
           (get(audit, "trace", "data_quality", "cpus") or []) if c.get("repairs")}
    eq(dat, "trace.data_quality repairs per CPU (verdicts.py)", got, verdicts["repairs"])

    sc = get(f, "idle-stacking", "count")
    if name == "idle-stack":
        checked += 1
        if not isinstance(sc, int) or sc <= 0:
            fail(dat, 'findings["idle-stacking"].count is %r, expected > 0 (facts: %s)'
                 % (sc, json.dumps(facts.get("idle_stack", {}).get("by_target_cpu"))))
        # never more than the independent count of sleeper wakeups onto the hog's CPU
        # while the other CPU ran the idle task (rqpath also needs CPU 0 to hold only
        # SCHED_IDLE work and CPU 1 to have been idle at the waking: it may find fewer)
        bound = facts.get("idle_stack", {}).get("on_hog_cpu_while_other_idle")
        checked += 1
        if isinstance(bound, int) and isinstance(sc, int) and sc > bound:
            fail(dat, 'findings["idle-stacking"].count %d > %d sleeper wakeups onto the '
                 "hog's CPU while the other CPU idled (trace-cmd report)" % (sc, bound))
    elif name == "idle-stack-control":
        eq(dat, 'findings["idle-stacking"].count', sc, 0)
    elif name == "idle-stack-plain":
        # plain tracefs + trace-cmd extract, no rqpath markers: SCHED_IDLE comes from the
        # sched_setscheduler syscall events, the masks are assumed, so every stacking
        # counted is inferred and says so
        checked += 1
        if not isinstance(sc, int) or sc <= 0:
            fail(dat, 'findings["idle-stacking"].count is %r, expected > 0' % sc)
        eq(dat, 'findings["idle-stacking"].inferred (no markers)', get(f, "idle-stacking",
           "inferred"), sc)
        checked += 1
        if "affinity-all-cpus" not in (get(f, "idle-stacking", "assumptions") or []):
            fail(dat, 'idle-stacking does not name the affinity-all-cpus assumption')
        bound = facts.get("idle_stack", {}).get("on_hog_cpu_while_other_idle")
        checked += 1
        if isinstance(bound, int) and isinstance(sc, int) and sc > bound:
            fail(dat, 'findings["idle-stacking"].count %d > %d (trace-cmd report)' % (sc, bound))
    elif name == "idle-stack-plain-control":
        eq(dat, 'findings["idle-stacking"].count', sc, 0)
        eq(dat, 'findings["idle-stacking"].possible', get(f, "idle-stacking", "possible"), 0)

for m in fails:
    print(m)
print("%d fixture files, %d checks, %d failed" %
      (sum(1 for _ in open(sys.argv[1])), checked, len(fails)))
sys.exit(1 if fails else 0)
EOF
