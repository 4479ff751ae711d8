#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""perfetto_check.py - read a Perfetto protobuf trace the way a reader would, and check it.

usage: perfetto_check.py TRACE.pb [--inner OUT] [--jsonl PLACEMENTS.jsonl] [--instants OUT.json]
                         [--verdicts OUT.json] [--audit AUDIT.json] [--expect GEN.expect.json]
                         [--max-bytes N]

A decoder of the protobuf wire format written here from Perfetto's field numbers (the
table of tests/tools/perfetto_raw.py names where each is declared), independent of
rqpath's encoder.  It reads the
Trace (packets, deflated compressed_packets unpacked), writes the inner packets as one
uncompressed Trace to OUT (for protoc --decode_raw), and checks:
  - the scheduler's records (ftrace_events: FtraceEventBundle), the process tree and the
    system info are on sequence 2, each FtraceEvent one event, in time order per CPU;
  - every other packet is on one sequence whose first packet clears the incremental state;
    every iid a packet uses (event names, categories, argument names, string values)
    was interned on the sequence since the last clearing, at most once each;
  - every track an event names has a TrackDescriptor; on each track the slices begin
    and end in pairs (TYPE_SLICE_BEGIN/END) and never overlap;
  - every instant event (a placement) has the arguments of the JSONL export, findings,
    possible and no_selection (when present) arrays of finding ids;
  - with --jsonl: one instant per row, and for each seq the same ts, comm, path,
    confidence, from/to CPU, delay, findings, possible, no_selection and why;
  - one instant on the track "rqpath findings (verdicts)": with --audit (the audit's
    JSON), each finding's verdict (its count, or "not judged") and counts as it says;
  - with --expect (tests/helpers/gen_trace.c's counts, made by its own model): as many
    ftrace events of each sched tracepoint as the generator wrote, instants
    = sched_wakeup + sched_wakeup_new + sched_process_exec, and per finding the
    instants whose findings / possible (/ no_selection) hold it = its count / possible
    (/ no_selection: gen_trace --truth-on-rq);
  - with --max-bytes: the file is at most N bytes.
Prints one line of figures; exits 1 with a FAIL line per problem.
"""
import json
import sys
import zlib

FINDINGS = {"needless-callback", "offcpu-fork", "idle-stacking", "missed-idle", "test-dummy"}


def varint(b, i):
    v = s = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return v, i


def fields(b):
    """(field, wire, value) of a message: value an int (varint) or bytes (length)."""
    i, out = 0, []
    while i < len(b):
        k, i = varint(b, i)
        f, w = k >> 3, k & 7
        if w == 0:
            v, i = varint(b, i)
        elif w == 2:
            n, i = varint(b, i)
            v = b[i:i + n]
            if len(v) != n:
                raise ValueError("field %d: length %d past the end" % (f, n))
            i += n
        elif w == 1:
            v = int.from_bytes(b[i:i + 8], "little")
            i += 8
        elif w == 5:
            v = int.from_bytes(b[i:i + 4], "little")
            i += 4
        else:
            raise ValueError("field %d: wire type %d" % (f, w))
        out.append((f, w, v))
    return out


def one(fs, f, default=None):
    for x, _, v in fs:
        if x == f:
            return v
    return default


def many(fs, f):
    return [v for x, _, v in fs if x == f]


def signed(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def main():
    args = sys.argv[1:]
    path = args.pop(0)
    opt = {}
    while args:
        k = args.pop(0)
        opt[k] = args.pop(0)
    bad = []
    raw = open(path, "rb").read()
    packets = []
    compressed = 0
    for f, w, v in fields(raw):
        if f != 1 or w != 2:
            bad.append("top level: field %d is not Trace.packet" % f)
            continue
        pf = fields(v)
        z = one(pf, 50)
        if z is not None:
            compressed += 1
            if len(v) > 512 * 1024:
                bad.append("a compressed packet of %d bytes (Perfetto: < 512 KB)" % len(v))
            inner = zlib.decompress(z)
            packets += [p for ff, _, p in fields(inner) if ff == 1]
        else:
            packets.append(v)
    if "--inner" in opt:
        with open(opt["--inner"], "wb") as out:
            for p in packets:
                n = len(p)
                hdr = bytearray([0x0A])
                while True:
                    hdr.append((n & 0x7F) | (0x80 if n > 0x7F else 0))
                    n >>= 7
                    if not n:
                        break
                out.write(hdr)
                out.write(p)
    tables = {1: "category", 2: "event_name", 3: "arg_name", 29: "string"}
    interned = None
    tracks = set()
    verdict_track = None
    verdicts = None
    open_slice = {}
    last_end = {}
    slices = 0
    instants = []
    # FtraceEvent's event oneof (ftrace/ftrace_event.proto) -> the tracepoint
    ftrace_names = {4: "sched_switch", 17: "sched_wakeup", 20: "sched_waking",
                    114: "sched_wakeup_new", 237: "sched_process_exec",
                    238: "sched_process_exit", 239: "sched_process_fork",
                    240: "sched_process_free", 491: "sched_migrate_task"}
    ftrace = {}
    last_ftrace_ts = {}
    for n, p in enumerate(packets):
        fs = fields(p)
        seq = one(fs, 10)
        flags = one(fs, 13, 0)
        # the scheduler's records, the process tree, the system info: sequence 2
        if one(fs, 1) is not None or one(fs, 2) is not None or one(fs, 45) is not None:
            if seq != 2:
                bad.append("packet %d: ftrace data on sequence %r, not 2" % (n, seq))
            bundle = one(fs, 1)
            if bundle is None:
                continue
            bf = fields(bundle)
            cpu = one(bf, 1)
            for ev in many(bf, 2):
                evf = fields(ev)
                ts = one(evf, 1)
                if ts is None or ts < last_ftrace_ts.get(cpu, 0):
                    bad.append("cpu %r: an ftrace event out of order or without time" % cpu)
                last_ftrace_ts[cpu] = ts or 0
                kinds = [ftrace_names[f] for f, _, _ in evf if f in ftrace_names]
                if len(kinds) != 1:
                    bad.append("cpu %r: an ftrace event with %d events" % (cpu, len(kinds)))
                    continue
                ftrace[kinds[0]] = ftrace.get(kinds[0], 0) + 1
            continue
        if seq != 1:
            bad.append("packet %d: sequence %r, not 1" % (n, seq))
            break
        if flags & 1:
            interned = {t: {} for t in tables}
        if interned is None:
            bad.append("packet %d comes before the state is cleared" % n)
            break
        idata = one(fs, 12)
        if idata is not None:
            for f, _, e in fields(idata):
                if f not in tables:
                    bad.append("packet %d: interned table %d" % (n, f))
                    continue
                ef = fields(e)
                iid, name = one(ef, 1), one(ef, 2)
                if iid in interned[f]:
                    bad.append("packet %d: %s iid %d interned twice" % (n, tables[f], iid))
                interned[f][iid] = name.decode("utf-8")

        def lookup(t, iid, what):
            if iid not in interned[t]:
                bad.append("packet %d: %s iid %d not interned" % (n, what, iid))
                return None
            return interned[t][iid]

        td = one(fs, 60)
        if td is not None:
            tracks.add(one(fields(td), 1))
            if one(fields(td), 2) == b"rqpath findings (verdicts)":
                verdict_track = one(fields(td), 1)
            continue
        te = one(fs, 11)
        if te is None:
            continue
        ts = one(fs, 8)
        ef = fields(te)
        typ, track = one(ef, 9), one(ef, 11)
        if track not in tracks:
            bad.append("packet %d: track %r without a descriptor" % (n, track))
        name = lookup(2, one(ef, 10), "event name") if one(ef, 10) is not None else None
        cats = [lookup(1, c, "category") for c in many(ef, 3)]
        targs = {}
        for a in many(ef, 4):
            af = fields(a)
            an = lookup(3, one(af, 1), "argument name")
            if one(af, 17) is not None:
                targs[an] = lookup(29, one(af, 17), "string value")
            elif one(af, 4) is not None:
                targs[an] = signed(one(af, 4))
            elif many(af, 12):
                targs[an] = [lookup(29, one(fields(x), 17), "string value")
                             for x in many(af, 12)]
            else:
                bad.append("packet %d: argument %s without a value" % (n, an))
        if typ == 1:
            if track in open_slice:
                bad.append("track %d: a slice begins at %d inside the one of %d" %
                           (track, ts, open_slice[track]))
            open_slice[track] = ts
        elif typ == 2:
            if track not in open_slice:
                bad.append("track %d: a slice ends at %d that never began" % (track, ts))
            elif ts < open_slice[track]:
                bad.append("track %d: a slice ends before it begins" % track)
            else:
                if ts < last_end.get(track, 0):
                    bad.append("track %d: slices overlap at %d" % (track, ts))
                last_end[track] = ts
                slices += 1
            open_slice.pop(track, None)
        elif typ == 3 and track == verdict_track:
            if verdicts is not None:
                bad.append("packet %d: a second verdicts event" % n)
            verdicts = targs
        elif typ == 3:
            targs["_ts"], targs["_name"], targs["_cats"] = ts, name, cats
            instants.append(targs)
        else:
            bad.append("packet %d: event type %r" % (n, typ))
        if len(bad) > 20:
            break
    if "--instants" in opt:
        # the decoded placement instants (their args, and _ts in ns), for other tests
        with open(opt["--instants"], "w") as out:
            json.dump(instants, out)
    if "--verdicts" in opt:
        # the verdicts instant's args ("<id>.count", ...), for other tests
        with open(opt["--verdicts"], "w") as out:
            json.dump(verdicts, out)
    need = ("seq", "cpu", "pid", "tgid", "comm", "kind", "path", "confidence", "from_cpu",
            "to_cpu", "waker", "why")
    for i in instants:
        miss = [k for k in need if k not in i]
        if miss:
            bad.append("instant %r without %s" % (i.get("seq"), ", ".join(miss)))
            break
        for k in ("findings", "possible", "no_selection"):
            if k in i and (not isinstance(i[k], list) or not set(i[k]) <= FINDINGS):
                bad.append("instant %r: %s %r is not an array of finding ids" %
                           (i["seq"], k, i[k]))
        if not i["_name"] or not i["_name"].startswith(i["path"]):
            bad.append("instant %r: name %r does not start with its path" % (i["seq"], i["_name"]))
        if i["_cats"] != [i["kind"]]:
            bad.append("instant %r: category %r is not its kind" % (i["seq"], i["_cats"]))
    if open_slice:
        bad.append("%d slices never end" % len(open_slice))
    if verdicts is None:
        bad.append("no verdicts event")
    if "--audit" in opt and verdicts is not None:
        a = json.load(open(opt["--audit"]))
        for fid, f in a["findings"].items():
            nj = (f.get("not_judged", 0) and not f.get("judged", 1) and not f["count"]
                  and not f.get("possible", 0))
            want = "not judged" if nj else str(f["count"])
            if verdicts.get(fid + ".verdict") != want:
                bad.append("%s: verdict %r, the audit says %r" %
                           (fid, verdicts.get(fid + ".verdict"), want))
            for k in ("count", "possible", "no_selection", "not_judged", "judged"):
                if k in f and verdicts.get(fid + "." + k) != f[k]:
                    bad.append("%s: %s %r, the audit's %r" % (fid, k, verdicts.get(fid + "." + k), f[k]))
    if "--jsonl" in opt:
        rows = [json.loads(l) for l in open(opt["--jsonl"])]
        if len(rows) != len(instants):
            bad.append("%d instants, %d rows in the placements export" % (len(instants), len(rows)))
        byseq = {i["seq"]: i for i in instants}
        for r in rows:
            i = byseq.get(r["seq"])
            if i is None:
                bad.append("placement %d: no instant" % r["seq"])
                break
            got = {"ts": round(i["_ts"] / 1e9, 9), "comm": i["comm"], "path": i["path"],
                   "kind": i["kind"], "confidence": i["confidence"], "pid": i["pid"],
                   "tgid": i["tgid"], "cpu": i["cpu"], "waker": i["waker"],
                   "from_cpu": i["from_cpu"], "to_cpu": i["to_cpu"],
                   "delay_ns": i.get("delay_ns"), "findings": i.get("findings", []),
                   "possible": i.get("possible", []),
                   "no_selection": i.get("no_selection", []), "why": i["why"]}
            want = {k: r[k] for k in got}
            want["ts"] = round(want["ts"], 9)
            if got != want:
                diff = {k: (got[k], want[k]) for k in got if got[k] != want[k]}
                bad.append("placement %d differs from the export: %r" % (r["seq"], diff))
                break
    if "--expect" in opt:
        e = json.load(open(opt["--expect"]))
        c = e["counts"]
        for name, count in c.items():
            if name in ftrace_names.values() and ftrace.get(name, 0) != count:
                bad.append("%d %s ftrace events, the generator made %d" %
                           (ftrace.get(name, 0), name, count))
        want = c["sched_wakeup"] + c["sched_wakeup_new"] + c["sched_process_exec"]
        if len(instants) != want:
            bad.append("%d instants, the generator made %d placements" % (len(instants), want))
        for fid, s in e["findings"].items():
            for key, arg in (("count", "findings"), ("possible", "possible"),
                             ("no_selection", "no_selection")):
                if key not in s:
                    continue	# a generator's count of a trace without truth records
                got = sum(1 for i in instants if fid in i.get(arg, []))
                if got != s[key]:
                    bad.append("%s: %d instants with it in %s, the generator's %s is %d" %
                               (fid, got, arg, key, s[key]))
    if "--max-bytes" in opt and len(raw) > int(opt["--max-bytes"]):
        bad.append("%d bytes, more than %s" % (len(raw), opt["--max-bytes"]))
    for b in bad[:20]:
        print("FAIL: %s: %s" % (path, b))
    print("%s: %d bytes, %d packets (%d compressed chunks), %d slices, %d instants, "
          "ftrace events %r" % (path, len(raw), len(packets), compressed, slices,
                                len(instants), dict(sorted(ftrace.items()))))
    sys.exit(1 if bad else 0)


main()
