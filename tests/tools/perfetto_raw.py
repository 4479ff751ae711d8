#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""perfetto_raw.py - check `protoc --decode_raw` text of `rqpath audit --perfetto-raw`.

usage: perfetto_raw.py DECODED.txt [--switches CPU=N,...] [--cpus N]

The text is parsed into a tree of numbered fields and every field is checked against
SCHEMA below: its number must be one the message declares and its shape (an integer, a
string, a nested message) what that field's type is.  The numbers were read in Perfetto's
protos (github.com/google/perfetto, protos/perfetto/, read at commit ec5d16b1 of
2026-08-22); the file and message are named beside each table.  decode_raw cannot tell a
string from bytes that happen to parse as a message: a string field shown as a block is
accepted, and counted.

--switches: the sched_switch events each CPU's FtraceEventBundles must hold (an
independent count: trace-cmd report), and no other CPU may have any.  --cpus N: every
CPU 0..N-1 has a bundle with sched_switch events.
"""
import re
import sys

INT, STR, MSG = "int", "str", "msg"

# message -> {field number: (field name, shape, message type of a MSG field)}
SCHEMA = {
    # trace/trace.proto: message Trace
    "Trace": {1: ("packet", MSG, "TracePacket")},
    # trace/trace_packet.proto: message TracePacket
    "TracePacket": {
        1: ("ftrace_events", MSG, "FtraceEventBundle"),
        2: ("process_tree", MSG, "ProcessTree"),
        8: ("timestamp", INT, None),
        10: ("trusted_packet_sequence_id", INT, None),
        11: ("track_event", MSG, "TrackEvent"),
        12: ("interned_data", MSG, "InternedData"),
        13: ("sequence_flags", INT, None),
        45: ("system_info", MSG, "SystemInfo"),
        60: ("track_descriptor", MSG, "TrackDescriptor"),
    },
    # trace/ftrace/ftrace_event_bundle.proto: message FtraceEventBundle
    "FtraceEventBundle": {
        1: ("cpu", INT, None),
        2: ("event", MSG, "FtraceEvent"),
        3: ("lost_events", INT, None),
    },
    # trace/ftrace/ftrace_event.proto: message FtraceEvent (common fields, oneof event)
    "FtraceEvent": {
        1: ("timestamp", INT, None),
        2: ("pid", INT, None),
        4: ("sched_switch", MSG, "SchedSwitchFtraceEvent"),
        17: ("sched_wakeup", MSG, "SchedWakeupFtraceEvent"),
        20: ("sched_waking", MSG, "SchedWakingFtraceEvent"),
        114: ("sched_wakeup_new", MSG, "SchedWakeupNewFtraceEvent"),
        237: ("sched_process_exec", MSG, "SchedProcessExecFtraceEvent"),
        238: ("sched_process_exit", MSG, "SchedProcessExitFtraceEvent"),
        239: ("sched_process_fork", MSG, "SchedProcessForkFtraceEvent"),
        240: ("sched_process_free", MSG, "SchedProcessFreeFtraceEvent"),
        491: ("sched_migrate_task", MSG, "SchedMigrateTaskFtraceEvent"),
    },
    # trace/ftrace/sched.proto: message SchedSwitchFtraceEvent
    "SchedSwitchFtraceEvent": {
        1: ("prev_comm", STR, None), 2: ("prev_pid", INT, None), 3: ("prev_prio", INT, None),
        4: ("prev_state", INT, None), 5: ("next_comm", STR, None), 6: ("next_pid", INT, None),
        7: ("next_prio", INT, None),
    },
    # trace/ftrace/sched.proto: SchedWakeupFtraceEvent (and Waking, WakeupNew below)
    "SchedWakeupFtraceEvent": {
        1: ("comm", STR, None), 2: ("pid", INT, None), 3: ("prio", INT, None),
        4: ("success", INT, None), 5: ("target_cpu", INT, None),
    },
    # trace/ftrace/sched.proto: message SchedMigrateTaskFtraceEvent
    "SchedMigrateTaskFtraceEvent": {
        1: ("comm", STR, None), 2: ("pid", INT, None), 3: ("prio", INT, None),
        4: ("orig_cpu", INT, None), 5: ("dest_cpu", INT, None),
    },
    # trace/ftrace/sched.proto: message SchedProcessForkFtraceEvent
    "SchedProcessForkFtraceEvent": {
        1: ("parent_comm", STR, None), 2: ("parent_pid", INT, None),
        3: ("child_comm", STR, None), 4: ("child_pid", INT, None),
    },
    # trace/ftrace/sched.proto: message SchedProcessExecFtraceEvent
    "SchedProcessExecFtraceEvent": {
        1: ("filename", STR, None), 2: ("pid", INT, None), 3: ("old_pid", INT, None),
    },
    # trace/ftrace/sched.proto: message SchedProcessExitFtraceEvent
    "SchedProcessExitFtraceEvent": {
        1: ("comm", STR, None), 2: ("pid", INT, None), 3: ("tgid", INT, None),
        4: ("prio", INT, None),
    },
    # trace/ftrace/sched.proto: message SchedProcessFreeFtraceEvent
    "SchedProcessFreeFtraceEvent": {
        1: ("comm", STR, None), 2: ("pid", INT, None), 3: ("prio", INT, None),
    },
    # trace/ps/process_tree.proto: message ProcessTree, ProcessTree.Process, .Thread
    "ProcessTree": {
        1: ("processes", MSG, "ProcessTree.Process"),
        2: ("threads", MSG, "ProcessTree.Thread"),
    },
    "ProcessTree.Process": {1: ("pid", INT, None), 2: ("ppid", INT, None)},
    "ProcessTree.Thread": {1: ("tid", INT, None), 2: ("name", STR, None),
                           3: ("tgid", INT, None)},
    # common/system_info.proto: message SystemInfo, message Utsname
    "SystemInfo": {1: ("utsname", MSG, "Utsname")},
    "Utsname": {1: ("sysname", STR, None), 3: ("release", STR, None)},
    # trace/track_event/track_descriptor.proto: message TrackDescriptor
    "TrackDescriptor": {1: ("uuid", INT, None), 2: ("name", STR, None),
                        5: ("parent_uuid", INT, None)},
    # trace/track_event/track_event.proto: message TrackEvent
    "TrackEvent": {
        3: ("category_iids", INT, None), 4: ("debug_annotations", MSG, "DebugAnnotation"),
        9: ("type", INT, None), 10: ("name_iid", INT, None), 11: ("track_uuid", INT, None),
    },
    # trace/track_event/debug_annotation.proto: message DebugAnnotation
    "DebugAnnotation": {
        1: ("name_iid", INT, None), 4: ("int_value", INT, None),
        12: ("array_values", MSG, "DebugAnnotation"), 17: ("string_value_iid", INT, None),
    },
    # trace/interned_data/interned_data.proto: message InternedData
    "InternedData": {
        1: ("event_categories", MSG, "EventCategory"),
        2: ("event_names", MSG, "EventName"),
        3: ("debug_annotation_names", MSG, "DebugAnnotationName"),
        29: ("debug_annotation_string_values", MSG, "InternedString"),
    },
    # trace/track_event/track_event.proto: EventCategory, EventName;
    # trace/track_event/debug_annotation.proto: DebugAnnotationName;
    # trace/profiling/profile_common.proto: InternedString (str: bytes)
    "EventCategory": {1: ("iid", INT, None), 2: ("name", STR, None)},
    "EventName": {1: ("iid", INT, None), 2: ("name", STR, None)},
    "DebugAnnotationName": {1: ("iid", INT, None), 2: ("name", STR, None)},
    "InternedString": {1: ("iid", INT, None), 2: ("str", STR, None)},
}
SCHEMA["SchedWakingFtraceEvent"] = SCHEMA["SchedWakeupFtraceEvent"]
SCHEMA["SchedWakeupNewFtraceEvent"] = SCHEMA["SchedWakeupFtraceEvent"]

LINE = re.compile(r'^\s*(\d+)(?:: (.*)| \{)$')


def parse(lines):
    """decode_raw text -> [(field, value)]: value an int, a str (quoted) or a list."""
    root = []
    stack = [root]
    for n, line in enumerate(lines, 1):
        line = line.rstrip("\n")
        if line.strip() == "}":
            stack.pop()
            continue
        m = LINE.match(line)
        if not m:
            raise ValueError("line %d: %r is not decode_raw output" % (n, line))
        f = int(m.group(1))
        if m.group(2) is None:
            sub = []
            stack[-1].append((f, sub))
            stack.append(sub)
        elif m.group(2).startswith('"'):
            stack[-1].append((f, m.group(2)))
        elif re.match(r'^-?\d+$', m.group(2)):
            stack[-1].append((f, int(m.group(2))))
        else:
            stack[-1].append((f, m.group(2)))	# 0x... fixed32/64: no field of ours
    return root


def main():
    args = sys.argv[1:]
    path = args.pop(0)
    opt = dict(zip(args[::2], args[1::2]))
    bad = []
    seen = {}
    blocks_as_str = 0

    def check(msg, fields, where):
        nonlocal blocks_as_str
        table = SCHEMA[msg]
        for f, v in fields:
            if f not in table:
                bad.append("%s: field %d is not one of %s's" % (where, f, msg))
                continue
            name, shape, sub = table[f]
            seen[(msg, f)] = seen.get((msg, f), 0) + 1
            if shape == MSG:
                if not isinstance(v, list):
                    bad.append("%s.%s: %r, not a message" % (where, name, v))
                else:
                    check(sub, v, where + "." + name)
            elif shape == STR:
                if isinstance(v, list):
                    blocks_as_str += 1	# a string that also parses as a message
                elif not isinstance(v, str) or not v.startswith('"'):
                    bad.append("%s.%s: %r, not a string" % (where, name, v))
            elif not isinstance(v, int):
                bad.append("%s.%s: %r, not an integer" % (where, name, v))

    with open(path) as fh:
        tree = parse(fh)
    check("Trace", tree, "Trace")
    switches = {}
    events = 0
    for f, pkt in tree:
        for pf, bundle in pkt if isinstance(pkt, list) else []:
            if pf != 1 or not isinstance(bundle, list):
                continue
            cpu = next((v for bf, v in bundle if bf == 1), None)
            if cpu is None:
                bad.append("an FtraceEventBundle without its cpu")
                continue
            for bf, ev in bundle:
                if bf == 2 and isinstance(ev, list):
                    events += 1
                    if not any(ef == 1 for ef, _ in ev):
                        bad.append("cpu %d: an FtraceEvent without its timestamp" % cpu)
                    if any(ef == 4 for ef, _ in ev):
                        switches[cpu] = switches.get(cpu, 0) + 1
    if "--switches" in opt:
        want = {int(k): int(v) for k, v in
                (kv.split("=") for kv in opt["--switches"].split(",") if kv)}
        for cpu in sorted(set(want) | set(switches)):
            if switches.get(cpu, 0) != want.get(cpu, 0):
                bad.append("cpu %d: %d sched_switch events, trace-cmd report has %d" %
                           (cpu, switches.get(cpu, 0), want.get(cpu, 0)))
    if "--cpus" in opt:
        for cpu in range(int(opt["--cpus"])):
            if not switches.get(cpu):
                bad.append("cpu %d: no sched_switch event" % cpu)
    for need in (("TracePacket", 1), ("FtraceEvent", 4), ("TracePacket", 2),
                 ("TracePacket", 11)):
        if not seen.get(need):
            bad.append("no %s.%s at all" % (need[0], SCHEMA[need[0]][need[1]][0]))
    for b in bad[:20]:
        print("FAIL: %s: %s" % (path, b))
    print("%s: %d ftrace events, sched_switch per CPU %s, %d strings shown as blocks" %
          (path, events, dict(sorted(switches.items())), blocks_as_str))
    sys.exit(1 if bad else 0)


main()
