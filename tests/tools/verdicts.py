#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""verdicts.py - an independent count of the idle-stacking and missed-idle verdicts.

usage: verdicts.py [--trace-cmd PATH] FILE.dat

Reads `trace-cmd report -l -R` (every record, its CPU, its common_flags, raw fields)
and applies the verdict rules as rqpath-paths(7) states them, with a model of its own,
written apart from rqpath's C code.  Prints one JSON object:

  {"missed-idle": {"count": N, "exact": N, "inferred": N, "possible": N,
                   "not_judged": N, "judged": N},
   "idle-stacking": {...}, "repairs": {"CPU": N, ...},
   "paths": {"wake-prev": {"count": N, "exact": N, "inferred": N}, "wake-affine": {...},
             "fork-affine": {...}, "fork-local": {...}, "fork-moved": {...},
             "exec-affine": {...}}}

The rules, in short (rqpath-paths(7), VERDICTS):
  * model: per CPU the running task (from sched_switch, and repaired from the
    common_pid of every task-context record), the queued tasks (woken or preempted),
    the blocked fair tasks that may still be delay-dequeued (10 ms, until the CPU goes
    idle), and the wakeups pending on it (sched_waking seen, sched_wakeup not yet).
    A CPU is known once seen running the idle task, or after 20 ms of its switches.
  * truly idle: known, the idle task runs, nothing queued, no wakeup pending.
  * busy for the kernel: not truly idle and not only SCHED_IDLE work (a task of unknown
    policy counts as not SCHED_IDLE; a CPU with only a pending wakeup is busy).
  * proof of selection (docs/design.md §3, derived here from the text, not from rqpath's
    fields): kernel without delayed dequeue (a release before 6.12, or none known and
    sched_prepare_exec not defined: before v6.10), an RT/DL task, a migration
    inside the waking window, or the CPU it blocked on ran the idle task since it
    blocked.  It blocked at the latest when it was last seen running there: its
    switch-out, or its last record as that CPU's runner when the switch-out is missing.
    Never seen running: it blocked before the trace began, on task_cpu() of its first
    sched_waking, and the proof rests on "blocked-before-trace".
  * a CPU whose idleness was unknown (never seen, not yet known) at the waking or now,
    allowed and in the LLC, may have been idle: a candidate with no idle CPU found but
    such a CPU is not judged.  A CPU whose runqueue is unknown but whose running task is
    known (and not SCHED_IDLE) is busy.
  * no sched_waking in the trace: a move of a task sleeping or of unknown state is its
    wakeup's when sched_wakeup follows; a move between fork and sched_wakeup_new is the
    fork's.
  * missed-idle: a wakeup of a fair non-SCHED_IDLE task onto a CPU busy for the kernel
    at the waking and now, while another allowed CPU of its LLC was truly idle at both.
  * idle-stacking: a wakeup or fork of a SCHED_IDLE task onto a CPU running only
    SCHED_IDLE work, all known, while another allowed CPU of its LLC was truly idle.
    Judged whatever the policies are when the CPU is known truly idle, empty, or has a
    known non-SCHED_IDLE task, or when no allowed CPU of the LLC may have been idle.
  * a trace with no sched_wakeup record (so far) cannot support either finding: every
    candidate is not judged.  A wakeup whose previous CPU is unknown is not judged.
  * unproven selection (or a maybe-delayed non-idle task on the target) -> possible;
    so is every missed-idle when the CPUs' capacities differ (EAS), or, with no
    capacities in the trace, when it defines an energy-aware kernel's sched events.
  * a counted verdict is inferred when it rests on an assumption, else exact.  A mask
    the recorder read rests on "affinity-last-read" when the trace does not define
    sys_enter_sched_setaffinity, on "cpuset-unseen" when it does not define
    cgroup_attach_task (a cpuset move changes the allowed CPUs unseen).  A known policy
    (the recorder's, inherited, or a sched_setscheduler value) used by a verdict, the
    task's own or that of a task on the CPU it was placed on, rests on
    "policy-last-read" unless the trace defines the entry and exit events of both
    sched_setscheduler and sched_setattr (a change through either is unseen).
  * paths (rqpath-paths(7), CONFIDENCE), only those whose confidence rests on the mask:
    wake-affine (a one-CPU mask) exact when proven and the mask is a marker's resting on
    nothing; wake-prev (back to the CPU it left) exact when sched_waking was seen, the
    selection proven, the mask a marker's resting on nothing, no EAS; fork-affine,
    fork-local, fork-moved exact when the child's (inherited) mask is a marker's resting
    on nothing; exec-affine (one CPU allowed at the exec, no stopper move within 100 ms
    before) exact when the mask rests on nothing.  An exec whose mask a later marker
    settles (no sys_enter_sched_setaffinity in the trace) is exec-affine inferred.

Python 3 standard library only.
"""
import json
import re
import subprocess
import sys

MS = 1000000
# scheduler events only energy-aware (EAS) kernels define (Android EAS, SchedTune,
# energy-model tracing): such a kernel runs where the CPUs' capacities differ
EAS_EVENTS = {"sched_energy_diff", "sched_overutilized", "sched_compute_energy",
              "sched_find_best_target", "sched_boost_cpu", "sched_tune_config",
              "sched_feec_candidates", "sched_feec_rd_tasks_energy"}
DELAYED_WINDOW = 10 * MS
KNOWN_AFTER = 20 * MS
WINDOW = 10 * MS          # affinity / NUMA windows
HARDIRQ, SOFTIRQ, NMI = 0x08, 0x10, 0x40
# a policy changes through either syscall: both, entry and exit, or a change is unseen
POLICY_SYSCALLS = {"sys_enter_sched_setscheduler", "sys_exit_sched_setscheduler",
                   "sys_enter_sched_setattr", "sys_exit_sched_setattr"}

HDR = re.compile(r"-(\d+)\s+\[?(\d+)\]?-0x([0-9a-f]+)\s+(\d+)\.(\d+):\s+([A-Za-z0-9_]+):\s*(.*)$")
OURS = {
    "sched_switch", "sched_waking", "sched_wakeup", "sched_wakeup_new",
    "sched_migrate_task", "sched_process_fork", "sched_process_exit", "sched_process_free",
    "sched_prepare_exec", "sched_process_exec", "sched_move_numa", "sched_swap_numa",
    "sys_enter_sched_setaffinity", "sys_exit_sched_setaffinity",
    "sys_enter_sched_setscheduler", "sys_exit_sched_setscheduler",
    "sys_enter_sched_setattr", "sys_exit_sched_setattr", "cgroup_attach_task",
}
PERCPU = ("kworker/", "ksoftirqd/", "migration/", "cpuhp/", "rcuc/", "idle_inject/",
          "watchdog/", "irq_work/", "ktimers/", "posixcputmr/")


def field(body, name, last=False):
    """The value of name=... in a raw body (values of the last field run to the end)."""
    if last:
        m = re.search(r"\b%s=(.*)$" % name, body)
    else:
        m = re.search(r"\b%s=(\S+)" % name, body)
    return m.group(1) if m else None


def num(v):
    v = int(v, 0)
    return v - (1 << 64) if v >= 1 << 63 else v


# The marker grammar (src/input/markers.h), read here on its own: after the keyword, the
# fields of the kind in this order (those in () may be absent), single-blank separated,
# nothing after the last; comm, always last, is the rest of the line.
MARKER_FIELDS = {
    "kernel": ["release", "cpus"],
    "cpu": ["cpu", "(core", "llc", "(node", "(llc_src", "(capacity"],
    "task": ["pid", "(tgid", "(policy", "(cpus", "(idle_cg", "(comm"],
    "snapshot done": ["(tasks"],
}


def parse_marker(text):
    """(kind, {field: value}) for a marker line (after "rqpath/1 "), or None."""
    for kind in ("snapshot done", "kernel", "cpu", "task"):
        if text == kind or text.startswith(kind + " "):
            rest = text[len(kind) + 1:]
            break
    else:
        return None
    if kind == "task":
        m = re.fullmatch(r"pid=(\d+) gone", rest)
        if m:
            return "task gone", {"pid": m.group(1)}
    kv = {}
    for key in MARKER_FIELDS[kind]:
        optional = key.startswith("(")
        key = key.lstrip("(")
        if not rest.startswith(key + "="):
            if optional:
                continue
            return None
        if key == "comm":
            kv[key], rest = rest[5:], ""
            break
        value, _, tail = rest[len(key) + 1:].partition(" ")
        if not value or (_ and not tail):
            return None
        kv[key], rest = value, tail
    return (kind, kv) if rest == "" else None


def parse_cpulist(s, n):
    out = set()
    for part in s.split(","):
        a, _, b = part.partition("-")
        if not a.isdigit() or (b and not b.isdigit()):
            return None
        out.update(c for c in range(int(a), int(b or a) + 1) if c < n)
    return out


def percpu_cpu(comm):
    for i, p in enumerate(PERCPU):
        if not comm.startswith(p):
            continue
        m = re.match(r"(\d+)(.*)$", comm[len(p):])
        if not m:
            return -1
        rest = m.group(2)
        if (i == 0 and not rest.startswith(":")) or (i != 0 and rest):
            return -1
        return int(m.group(1))
    return -1


class Task:
    def __init__(self, pid):
        self.pid = pid
        self.comm = ""
        self.policy = -1
        self.idle_cg = False
        self.mask = None
        self.mask_known = False
        self.mask_changed = False
        self.prio = None
        self.cpu = -1
        self.state = "U"          # U unknown, R running, Q queued, S sleeping, D dead
        self.rq_cpu = -1
        self.on_delayed = False
        self.blocked_ts = 0       # the delayed-dequeue window starts here
        self.last_ran = None      # (cpu, ts): last seen running (switch in/out, records)
        self.first_task_cpu = -1  # task_cpu() at its first sched_waking
        self.wake_move = False    # no sched_waking: a move waiting for its sched_wakeup
        self.forking = False      # between sched_process_fork and sched_wakeup_new
        self.waking = False
        self.waking_cpu = -1
        self.wake_migrated = False
        self.wake_from = -1
        self.pending = -1
        self.idle_before = set()
        self.busy_before = set()
        self.unknown_before = set()
        self.exited = False
        self.inflight_target = 0
        self.inflight_policy = -1
        self.setaff_inflight = False
        self.aff_ts = 0
        self.numa_ts = 0
        self.stopper_ts = None
        self.unknown_execs = 0
        self.seen_cpu = -1
        self.seen_multi = False


class Cpu:
    def __init__(self):
        self.known = False
        self.watched = 0
        self.curr = -1
        self.queued = set()
        self.delayed = set()
        self.pending = 0
        self.llc = 0
        self.last_idle = 0
        self.trailing = -1
        self.repairs = 0
        self.idle_repairs = 0


class Model:
    def __init__(self, ncpu, defined=()):
        self.n = ncpu
        self.defined = set(defined)     # the events the trace defines (formats)
        self.cpus = [Cpu() for _ in range(ncpu)]
        self.tasks = {}
        self.has_markers = False
        self.has_topology = False
        self.capacity = {}        # cpu -> capacity from the cpu markers
        # an energy-aware kernel's scheduler events: asymmetric, unless markers say
        self.asym = bool(self.defined & EAS_EVENTS)
        self.marker_pid = None
        # no release known: the events decide (sched_prepare_exec v6.10, delayed
        # dequeue v6.12): without sched_prepare_exec, a kernel before v6.10
        self.delayed_dequeue = "sched_prepare_exec" in self.defined or not self.defined
        self.stack_allowed = True
        self.now = 0
        self.wakeups_seen = 0
        self.switches_seen = 0
        self.f = {k: {"count": 0, "exact": 0, "inferred": 0, "possible": 0, "not_judged": 0,
                      "judged": 0}
                  for k in ("missed-idle", "idle-stacking")}
        self.paths = {k: {"count": 0, "exact": 0, "inferred": 0}
                      for k in ("wake-prev", "wake-affine", "fork-affine", "fork-local",
                                "fork-moved", "exec-affine")}

    def path(self, name, exact, n=1):
        if name in self.paths:
            self.paths[name]["count"] += n
            self.paths[name]["exact" if exact else "inferred"] += n

    # ---- tasks and lists
    def get(self, pid):
        if pid <= 0:
            return None
        t = self.tasks.get(pid)
        if t is None:
            t = self.tasks[pid] = Task(pid)
        return t

    def rq_remove(self, t):
        if 0 <= t.rq_cpu < self.n:
            c = self.cpus[t.rq_cpu]
            (c.delayed if t.on_delayed else c.queued).discard(t.pid)
        t.rq_cpu = -1
        t.on_delayed = False

    def enqueue(self, t, cpu, delayed):
        self.rq_remove(t)
        if 0 <= cpu < self.n:
            (self.cpus[cpu].delayed if delayed else self.cpus[cpu].queued).add(t.pid)
            t.rq_cpu = cpu
            t.on_delayed = delayed

    def clear_lists(self, cpu):
        c = self.cpus[cpu]
        for pid in c.queued:
            t = self.tasks[pid]
            t.rq_cpu, t.state = -1, "U"
        for pid in c.delayed:
            t = self.tasks[pid]
            t.rq_cpu, t.on_delayed = -1, False
        c.queued, c.delayed = set(), set()

    def clear_pending(self, t):
        if t.pending >= 0:
            if 0 <= t.pending < self.n and self.cpus[t.pending].pending > 0:
                self.cpus[t.pending].pending -= 1
            t.pending = -1

    def set_pending(self, t, cpu):
        self.clear_pending(t)
        if 0 <= cpu < self.n:
            self.cpus[cpu].pending += 1
            t.pending = cpu

    def forget_mask(self, t):
        t.mask_known = False
        t.mask_changed = True
        t.seen_cpu, t.seen_multi = -1, False

    def running(self, t, cpu):
        if t.mask_known and cpu not in t.mask:
            self.forget_mask(t)
        if t.seen_cpu < 0:
            t.seen_cpu = cpu
        elif t.seen_cpu != cpu:
            t.seen_multi = True
        t.cpu = cpu

    def execs_stay(self, t):
        t.unknown_execs = 0

    # ---- attributes
    @staticmethod
    def rt(t):
        return t.policy in (1, 2, 6) or (t.prio is not None and t.prio < 100)

    def idle_cls(self, t, assume):
        if t is None:
            return -1
        if t.idle_cg:
            return 1
        if t.policy != -1:
            # a set* policy syscall the trace cannot show may have changed it since
            if not POLICY_SYSCALLS <= self.defined:
                assume.add("policy-last-read")
            return 1 if t.policy == 5 else 0
        if t.prio is not None and t.prio < 100:
            assume.add("policy-from-prio")
            return 0
        return -1

    def mask_of(self, t, assume):
        if t.mask_known:
            if "sys_enter_sched_setaffinity" not in self.defined:
                assume.add("affinity-last-read")
            if "cgroup_attach_task" not in self.defined:
                assume.add("cpuset-unseen")
            return t.mask
        if t.mask_changed or self.has_markers:
            return None
        cpu = percpu_cpu(t.comm)
        if 0 <= cpu < self.n:
            assume.add("percpu-kthread-pinned")
            return {cpu}
        assume.add("affinity-all-cpus")
        return set(range(self.n))

    # ---- what the kernel would see
    def truly_idle(self, cpu):
        c = self.cpus[cpu]
        return c.known and c.curr == 0 and not c.queued and not c.delayed and not c.pending

    def look(self, cpu, skip):
        c = self.cpus[cpu]
        if not c.known or c.curr < 0:
            return None
        lk = {"assume": set(), "n": 0, "nonidle": 0, "unknown": 0, "delayed": 0,
              "pending": c.pending > 0}
        if c.watched and not c.last_idle:
            lk["assume"].add("cpu-state-watched")
        pids = ([c.curr] if c.curr > 0 and c.curr != skip else []) + \
            [p for p in c.queued if p != skip]
        for p in pids:
            k = self.idle_cls(self.tasks.get(p), lk["assume"])
            lk["n"] += 1
            if k == 0:
                lk["nonidle"] += 1
            elif k < 0:
                lk["unknown"] += 1
        for p in c.delayed:
            t = self.tasks[p]
            if p != skip and self.now - t.blocked_ts <= DELAYED_WINDOW and \
                    self.idle_cls(t, set()) != 1:
                lk["delayed"] += 1
        lk["idle"] = lk["n"] == 0 and not lk["pending"] and c.curr == 0
        return lk

    @staticmethod
    def busy(lk, assume):
        if lk["idle"]:
            return False
        if lk["nonidle"] or (not lk["n"] and lk["pending"]):
            return True
        if lk["unknown"]:
            assume.add("policy-from-prio")
            return True
        return False

    def unknown(self, cpu):
        """Nothing says whether cpu is idle: never seen, or idle task with no known rq."""
        c = self.cpus[cpu]
        return c.curr < 0 or (c.curr == 0 and not c.known)

    def idle_cpu_for(self, mask, x, t, saw, assume):
        """An allowed CPU of x's LLC truly idle at the waking and now: (cpu, False);
        none: (-1, whether one of them may have been idle at both for all we know)."""
        maybe = False
        for cpu in range(self.n):
            if cpu == x or self.cpus[cpu].llc != self.cpus[x].llc or cpu not in mask:
                continue
            then = "idle" if not saw or cpu in t.idle_before else \
                "unknown" if cpu in t.unknown_before else "no"
            now = "idle" if self.truly_idle(cpu) else \
                "unknown" if self.unknown(cpu) else "no"
            if then == "idle" and now == "idle":
                if not self.has_topology:
                    assume.add("llc-assumed")
                if self.cpus[cpu].idle_repairs:
                    assume.add("idle-exits-repaired")
                return cpu, False
            if then != "no" and now != "no":
                maybe = True
        return -1, maybe

    def runner_busy(self, cpu, skip, assume):
        """A known non-SCHED_IDLE task runs on cpu: busy, whatever its rq holds."""
        c = self.cpus[cpu]
        if c.curr <= 0 or c.curr == skip:
            return False
        used = set()
        k = self.idle_cls(self.tasks.get(c.curr), used)
        if k == 1:
            return False
        if k < 0:
            assume.add("policy-from-prio")
        assume |= used
        return True

    def proven(self, t, assume):
        """docs/design.md §3, Proof of selection."""
        if not self.delayed_dequeue or self.rt(t) or (t.wake_migrated and t.waking):
            return True
        if t.last_ran is None:
            # never seen running: blocked before the trace, where its first waking says
            cpu = t.first_task_cpu
            if 0 <= cpu < self.n and self.cpus[cpu].last_idle:
                assume.add("blocked-before-trace")
                return True
            return False
        cpu, ts = t.last_ran
        return bool(self.cpus[cpu].last_idle) and self.cpus[cpu].last_idle >= ts

    # ---- the judges
    def supported(self):
        """A sched_wakeup record so far: else the trace cannot support either finding,
        and every candidate is not judged (a placement before the first sched_switch
        is judged on the model repaired from the writers)."""
        return self.wakeups_seen > 0

    def stacking(self, t, x, saw, proven, proof, fork=False):
        s = self.f["idle-stacking"]
        if not self.stack_allowed:
            return
        assume = set()
        k = self.idle_cls(t, assume)
        if k == 0:
            return
        if not fork and not self.supported():   # a fork's placement needs no sched_wakeup
            s["not_judged"] += 1
            return
        mask = self.mask_of(t, assume)
        lk = self.look(x, t.pid)
        # nothing stacked on x, or x not SCHED_IDLE-only: whatever the policies, no finding
        if lk is not None and (lk["nonidle"] or (not lk["unknown"] and
                                                 (lk["idle"] or not lk["n"]))):
            s["judged"] += 1
            return
        if k < 0 or mask is None or lk is None or (lk["unknown"] and not lk["nonidle"]):
            # no allowed CPU of the LLC that may have been idle: nothing to stack away from
            cpu, maybe = (-1, True) if mask is None else \
                self.idle_cpu_for(mask, x, t, saw, set())
            s["judged" if cpu < 0 and not maybe else "not_judged"] += 1
            return
        cpu, maybe = self.idle_cpu_for(mask, x, t, saw, assume)
        s["not_judged" if cpu < 0 and maybe else "judged"] += 1
        if cpu < 0:
            return
        self.counted(s, not proven or lk["delayed"], assume | lk["assume"] | proof)

    def missed(self, t, x, saw, proven, proof):
        s = self.f["missed-idle"]
        assume = set()
        k = self.idle_cls(t, assume)
        if k == 1 or self.rt(t) or t.policy == 7:
            return
        if not self.supported():
            s["not_judged"] += 1
            return
        mask = self.mask_of(t, assume)
        lk = self.look(x, t.pid)
        if lk is None and mask is not None and self.runner_busy(x, t.pid, assume):
            lk = {"assume": set(), "idle": False, "delayed": 0, "busy": True}
        if mask is None or lk is None:
            s["not_judged"] += 1
            return
        possible = not proven
        if not lk.get("busy") and not self.busy(lk, assume):
            if lk["idle"] or not lk["delayed"]:
                s["judged"] += 1
                return
            possible = True
        if saw and x not in t.busy_before:
            s["judged"] += 1
            return
        cpu, maybe = self.idle_cpu_for(mask, x, t, saw, assume)
        s["not_judged" if cpu < 0 and maybe else "judged"] += 1
        if cpu < 0:
            return
        assume |= proof
        if self.asym:
            possible = True     # EAS may choose a busy CPU on purpose
        self.counted(s, possible, assume | lk["assume"])

    @staticmethod
    def counted(s, possible, assume):
        if possible:
            s["possible"] += 1
        else:
            s["count"] += 1
            s["inferred" if assume else "exact"] += 1

    # ---- records
    def repair(self, ev, cpu, owner, flags):
        if ev in ("sched_switch", "marker") or owner < 0 or flags & NMI:
            return
        c = self.cpus[cpu]
        if owner == c.curr:
            c.trailing = -1
            if owner == 0:
                c.last_idle = self.now
            else:
                self.tasks[owner].last_ran = (cpu, self.now)
            return
        if owner == c.trailing and ev not in OURS:
            return
        c.trailing = -1
        if c.curr >= 0:
            c.repairs += 1
            if c.curr == 0:
                c.idle_repairs += 1
            old = self.tasks.get(c.curr)
            if old is not None and old.state == "R":
                old.state = "U"
        c.curr = owner
        if owner == 0:
            self.clear_lists(cpu)
            c.known = True
            c.last_idle = self.now
            return
        t = self.get(owner)
        self.rq_remove(t)
        self.clear_pending(t)
        t.state = "R"
        t.last_ran = (cpu, self.now)
        self.running(t, cpu)

    def switch(self, ts, cpu, b):
        c = self.cpus[cpu]
        prev_pid, next_pid = int(field(b, "prev_pid")), int(field(b, "next_pid"))
        state = num(field(b, "prev_state"))
        prev = self.get(prev_pid)
        if c.curr == 0 and prev_pid > 0:
            c.repairs += 1          # a switch out of idle the trace lacks
            c.idle_repairs += 1
        elif c.curr >= 0 and c.curr != prev_pid:
            gone = self.tasks.get(c.curr)
            if gone is not None and gone.state == "R":
                gone.state = "U"
        c.trailing = prev_pid
        if prev_pid == 0:
            c.last_idle = ts
        if prev is not None:
            prev.comm = field(b, "prev_comm") or prev.comm
            prev.prio = int(field(b, "prev_prio"))
            prev.last_ran = (cpu, ts)
            self.not_a_wakeup_move(prev)
            if not state & 0xff:
                prev.state = "Q"
                self.enqueue(prev, cpu, False)
            elif state & 0x30 or (prev.exited and state & 0x40):
                prev.exited, prev.state = True, "D"
                self.rq_remove(prev)
            else:
                prev.state = "S"
                prev.blocked_ts, prev.blocked_cpu = ts, cpu
                if not self.rt(prev):
                    self.enqueue(prev, cpu, True)
                else:
                    self.rq_remove(prev)
            prev.cpu = cpu
        if not c.known:
            if not c.watched:
                c.watched = ts
            elif ts - c.watched >= KNOWN_AFTER:
                c.known = True
        if next_pid == 0:
            self.clear_lists(cpu)
            c.curr, c.known, c.last_idle = 0, True, ts
            return
        nxt = self.get(next_pid)
        c.curr = next_pid
        m = re.search(r"next_comm=(.*) next_pid=", b)
        if m and m.group(1):
            nxt.comm = m.group(1)
        nxt.prio = int(field(b, "next_prio"))
        self.not_a_wakeup_move(nxt)
        nxt.forking = False
        self.rq_remove(nxt)
        self.clear_pending(nxt)
        nxt.state = "R"
        nxt.last_ran = (cpu, ts)
        self.running(nxt, cpu)

    def snapshot(self, t):
        idle, busy, unknown = set(), set(), set()
        for cpu in range(self.n):
            if self.truly_idle(cpu):
                idle.add(cpu)
                continue
            if self.unknown(cpu):
                unknown.add(cpu)
                continue
            lk = self.look(cpu, t.pid)
            if (lk is not None and self.busy(lk, set())) or \
                    (lk is None and self.runner_busy(cpu, t.pid, set())):
                busy.add(cpu)
        return idle, busy, unknown

    def not_a_wakeup_move(self, t):
        """Something other than its sched_wakeup shows t after a move held for one."""
        if t.wake_move:
            t.wake_move = t.wake_migrated = False

    def waking(self, cpu, owner, b):
        t = self.get(int(field(b, "pid")))
        t.comm = re.search(r"comm=(.*) pid=\d+ prio=", b).group(1) or t.comm
        t.prio = int(field(b, "prio"))
        old = int(field(b, "target_cpu"))
        self.not_a_wakeup_move(t)
        t.idle_before, t.busy_before, t.unknown_before = self.snapshot(t)
        t.waking, t.waking_cpu, t.wake_migrated = True, cpu, False
        if t.cpu < 0 and 0 <= old < self.n:
            t.cpu = old
        if t.first_task_cpu < 0 and 0 <= old < self.n:
            t.first_task_cpu = old
        if t.state != "R" and not (t.state == "Q" and not t.on_delayed):
            self.set_pending(t, old)

    def placement(self, t, to, cpu):
        saw = t.waking
        frm = t.wake_from if t.wake_migrated else t.cpu
        proof = set()
        proven = self.proven(t, proof)
        assume = set()
        mask = self.mask_of(t, assume)
        self.clear_pending(t)
        judge = True
        if t.state == "R" or (t.state == "Q" and not t.wake_migrated):
            judge = False                   # ttwu_runnable
        elif t.comm.startswith("migration/"):
            judge = False                   # stop class
        elif (t.mask_known and len(t.mask) == 1) or (mask and assume and len(mask) == 1):
            self.path("wake-affine", t.mask_known and len(t.mask) == 1 and proven and
                      not assume and not proof)
        elif self.rt(t):
            pass
        elif frm < 0:
            judge = False                   # path unknown: each candidate not judged
            if self.stack_allowed and self.idle_cls(t, set()) != 0:
                self.f["idle-stacking"]["not_judged"] += 1
            if self.idle_cls(t, set()) != 1 and not self.rt(t) and t.policy != 7:
                self.f["missed-idle"]["not_judged"] += 1
        elif to == frm:
            self.path("wake-prev", saw and proven and t.mask_known and not assume and
                      not proof and not self.asym)
        if judge:
            self.stacking(t, to, saw, proven, proof)
            self.missed(t, to, saw, proven, proof)
        t.waking = t.wake_migrated = False
        t.cpu = to
        if self.cpus[to].curr != t.pid:
            t.state = "Q"
            self.enqueue(t, to, False)

    def wakeup(self, cpu, b):
        t = self.get(int(field(b, "pid")))
        to = int(field(b, "target_cpu"))
        if not 0 <= to < self.n:
            return
        t.prio = int(field(b, "prio"))
        t.wake_move = False                 # the move held for it is part of it
        self.placement(t, to, cpu)

    def wakeup_new(self, cpu, b):
        t = self.get(int(field(b, "pid")))
        to = int(field(b, "target_cpu"))
        if not 0 <= to < self.n:
            return
        t.prio = int(field(b, "prio"))
        unseen = set()
        if t.mask_known:
            self.mask_of(t, unseen)
        if t.mask_known and len(t.mask) == 1:
            self.path("fork-affine", not unseen)
        elif not self.rt(t):
            self.path("fork-local" if to == cpu else "fork-moved", t.mask_known and not unseen)
        t.forking = False
        self.stacking(t, to, False, True, set(), fork=True)
        t.cpu, t.state = to, "Q"
        self.enqueue(t, to, False)

    def migrate(self, ts, cpu, owner, flags, b):
        t = self.get(int(field(b, "pid")))
        frm, to = int(field(b, "orig_cpu")), int(field(b, "dest_cpu"))
        if not 0 <= to < self.n:
            return
        t.prio = int(field(b, "prio"))
        self.not_a_wakeup_move(t)
        queued = t.state == "Q" and not t.on_delayed
        writer = self.tasks.get(owner)
        nowaking = "sched_waking" not in self.defined
        if t.forking:
            t.cpu = to                      # wake_up_new_task()'s set_task_cpu() (< 4.1)
            return
        if t.waking and cpu == t.waking_cpu:
            t.wake_migrated, t.wake_from = True, frm
            self.set_pending(t, to)
            t.cpu = to
            return
        if t.numa_ts and ts - t.numa_ts < WINDOW:
            t.numa_ts = 0
        elif writer is not None and writer.comm.startswith("migration/") and frm == cpu:
            t.stopper_ts = ts               # exec-moved if an exec follows soon
        elif flags & SOFTIRQ and frm != cpu:
            pass
        elif t.setaff_inflight or (writer is not None and writer.inflight_target == t.pid and
                                   t.aff_ts and ts - t.aff_ts < WINDOW):
            pass
        elif self.rt(t):
            pass
        elif not flags & (HARDIRQ | SOFTIRQ) and to == cpu and owner != t.pid and queued:
            pass
        elif t.state == "S" or (t.state == "U" and nowaking):
            t.wake_migrated, t.wake_from = True, frm
            if self.wakeups_seen or ("sched_wakeup" in self.defined and nowaking):
                t.wake_move = True          # its sched_wakeup follows
                t.cpu = to
                return
            self.placement(t, to, cpu)
            return
        t.cpu = to
        if queued:
            self.enqueue(t, to, False)
        elif t.on_delayed:
            self.rq_remove(t)

    def fork(self, b):
        parent = self.get(int(field(b, "parent_pid")))
        cpid = int(field(b, "child_pid"))
        old = self.tasks.get(cpid)
        if old is not None:
            self.rq_remove(old)
            self.clear_pending(old)
        child = self.tasks[cpid] = Task(cpid)
        child.forking = True
        m = re.search(r"child_comm=(.*) child_pid=", b)
        child.comm = m.group(1) if m else ""
        if parent is not None:
            child.prio = parent.prio
            child.policy, child.idle_cg = parent.policy, parent.idle_cg
            child.mask_known, child.mask_changed = parent.mask_known, parent.mask_changed
            if parent.mask_known:
                child.mask = set(parent.mask)
            if self.rt(parent):
                child.policy = -1

    def exec_(self, ts, cpu, b):
        pid, old = int(field(b, "pid")), int(field(b, "old_pid"))
        t = self.tasks.get(old or pid) or self.get(pid)
        if old and old != pid:
            leader = self.get(pid)
            if leader is not t:
                leader.policy, leader.idle_cg = t.policy, t.idle_cg
                leader.mask_known, leader.mask_changed = t.mask_known, t.mask_changed
                leader.mask = set(t.mask) if t.mask else None
                leader.prio = t.prio
                leader.stopper_ts, t.stopper_ts = t.stopper_ts, None
                t = leader
        name = field(b, "filename") or ""
        t.comm = name.rsplit("/", 1)[-1][:15]
        setaff = "sys_enter_sched_setaffinity" in self.defined
        current = t.mask_known and (setaff or not self.has_markers)
        if t.stopper_ts is not None and ts - t.stopper_ts <= 100 * MS:
            pass                            # exec-moved
        elif current and len(t.mask) == 1:
            unseen = set()
            self.mask_of(t, unseen)
            self.path("exec-affine", not unseen)
        t.stopper_ts = None
        if not current and not (t.seen_multi and setaff and
                                "cgroup_attach_task" in self.defined):
            t.unknown_execs += 1            # a later marker may settle it
        t.cpu = cpu

    def syscall(self, ts, ev, owner, b):
        caller = self.get(owner)
        if caller is None:
            return
        if ev.startswith("sys_enter_"):
            pid = num(field(b, "pid"))
            caller.inflight_target = pid if pid > 0 else owner
            caller.inflight_policy = num(field(b, "policy")) if "setscheduler" in ev else -1
            t = self.get(pid if pid > 0 else owner)
            if t is not None and "setaffinity" in ev:
                t.setaff_inflight, t.aff_ts = True, ts
                self.execs_stay(t)
            return
        t = self.tasks.get(caller.inflight_target) if caller.inflight_target else None
        if t is None:
            return
        ret = num(field(b, "ret"))
        if "setaffinity" in ev:
            t.setaff_inflight = False
            if ret == 0:
                self.forget_mask(t)
        elif "setscheduler" in ev and ret == 0:
            p = caller.inflight_policy & ~0x40000000
            t.policy = p if 0 <= p <= 7 and p != 4 else -1
        elif "setattr" in ev and ret == 0:
            t.policy = -1
        caller.inflight_policy = -1

    def marker(self, owner, text):
        if self.marker_pid is None:
            self.marker_pid = owner
        elif owner != self.marker_pid:
            return
        self.has_markers = True
        parsed = parse_marker(text)
        if parsed is None:
            return
        kind, kv = parsed
        if kind == "kernel":
            m = re.match(r"(\d+)\.(\d+)", kv.get("release", ""))
            if m:
                v = int(m.group(1)) * 1000 + int(m.group(2))
                self.delayed_dequeue = v >= 6012
                self.stack_allowed = v < 7001
        elif kind == "cpu":
            cpu, llc = int(kv["cpu"]), int(kv["llc"])
            if 0 <= cpu < self.n:
                self.cpus[cpu].llc = llc if 0 <= llc < self.n else cpu
                self.has_topology = True
                cap = int(kv.get("capacity", "0"))
                if cap > 0:
                    self.capacity[cpu] = cap
                    self.asym = len(set(self.capacity.values())) > 1
        elif kind in ("task", "task gone"):
            t = self.get(int(kv["pid"]))
            if kind == "task gone":
                self.forget_mask(t)
                return
            t.policy = int(kv.get("policy", "-1")) if int(kv.get("policy", "-1")) >= 0 else -1
            t.idle_cg = int(kv.get("idle_cg", "0")) > 0
            if "comm" in kv:
                t.comm = kv["comm"][:15]
            cpus = kv.get("cpus", "?")
            mask = parse_cpulist(cpus, self.n) if cpus != "?" else None
            if mask:
                t.mask, t.mask_known, t.mask_changed = mask, True, False
                t.seen_cpu, t.seen_multi = -1, False
                if t.unknown_execs and len(mask) == 1:
                    # settled by this read: it may be newer than the exec
                    unseen = set()
                    self.mask_of(t, unseen)
                    self.path("exec-affine", not unseen, t.unknown_execs)
            else:
                self.forget_mask(t)
            t.unknown_execs = 0

    def feed(self, ev, cpu, owner, flags, ts, body):
        # rqpath:truth (the kernel's state through BPF) is no tracepoint of the model:
        # it counts as nothing here, and its writer repairs nothing (this model is the
        # tracepoint model the truth tier scores)
        if ev == "truth":
            return
        self.now = max(self.now, ts)
        if not 0 <= cpu < self.n:
            return
        kind = ev
        if ev == "print":
            m = re.search(r"buf=rqpath/1 (.*)$", body)
            if m:
                kind = "marker"
        self.repair(kind, cpu, owner, flags)
        if kind == "marker":
            self.marker(owner, m.group(1).rstrip())
        elif ev == "sched_switch":
            self.switches_seen += 1
            self.switch(ts, cpu, body)
        elif ev == "sched_waking":
            self.waking(cpu, owner, body)
        elif ev == "sched_wakeup":
            self.wakeups_seen += 1
            self.wakeup(cpu, body)
        elif ev == "sched_wakeup_new":
            self.wakeup_new(cpu, body)
        elif ev == "sched_migrate_task":
            self.migrate(ts, cpu, owner, flags, body)
        elif ev == "sched_process_fork":
            self.fork(body)
        elif ev == "sched_process_exit":
            t = self.tasks.get(int(field(body, "pid")))
            if t is not None:
                t.exited = True
        elif ev == "sched_process_free":
            t = self.tasks.get(int(field(body, "pid")))
            if t is not None:
                t.exited, t.state = True, "D"
                self.rq_remove(t)
        elif ev == "sched_process_exec":
            self.exec_(ts, cpu, body)
        elif ev in ("sched_move_numa", "sched_swap_numa"):
            for key in ("pid", "dst_pid"):
                v = field(body, key)
                if v is not None and int(v) > 0:
                    self.get(int(v)).numa_ts = ts
        elif ev.startswith("sys_") and ev in OURS:
            self.syscall(ts, ev, owner, body)
        elif ev == "cgroup_attach_task":
            t = self.get(int(field(body, "pid")))
            self.forget_mask(t)
            self.execs_stay(t)
            if t.idle_cg:
                t.idle_cg = False
                if t.policy != 5:
                    t.policy = -1


def main(argv):
    tc, path = "trace-cmd", None
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--trace-cmd" and args:
            tc = args.pop(0)
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            path = a
    if path is None:
        sys.exit("verdicts: which trace.dat?")
    # the events the trace defines, recorded or not (rqpath's has_event)
    # (`trace-cmd dump --events`: `report --events -i` prints nothing with 3.1.6)
    ev = subprocess.run([tc, "dump", "--events", path], stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE)
    defined = re.findall(r"^name: (\S+)", ev.stdout.decode("utf-8", "replace"), re.M)
    if ev.returncode != 0:
        # trace-cmd 3.1.6 dump fails on a v6 file with a BUFFER option (rqpath's
        # rqpath-truth buffer: "cannot allocate clock"); report -E lists the same events,
        # with ftrace's own, which are none of the model's
        ev = subprocess.run([tc, "report", "-E", path], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
        defined = [l.split(":", 1)[1] for l in ev.stdout.decode("utf-8", "replace").split("\n")
                   if ":" in l and not l.startswith("ftrace:")]
    if ev.returncode != 0 or "sched_switch" not in defined:
        sys.exit("verdicts: trace-cmd dump --events failed on %s" % path)
    proc = subprocess.Popen([tc, "report", "-l", "-R", "-t", path], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    model = None
    for raw in proc.stdout:
        line = raw.decode("utf-8", "replace").rstrip("\n")
        # rqpath's kernel truth, a buffer of its own: no CPU's record
        if line.startswith("rqpath-truth:"):
            continue
        if model is None and line.startswith("cpus="):
            model = Model(int(line[5:]), defined)
            continue
        if "EVENTS DROPPED" in line or "LOST EVENTS" in line:
            sys.exit("verdicts: %s has lost events: not supported" % path)
        m = HDR.search(line)
        if not m or model is None:
            continue
        owner, cpu, flags = int(m.group(1)), int(m.group(2)), int(m.group(3), 16)
        ts = int(m.group(4)) * 1000000000 + int(m.group(5).ljust(9, "0")[:9])
        model.feed(m.group(6), cpu, owner, flags, ts, m.group(7))
    err = proc.stderr.read().decode("utf-8", "replace")
    if proc.wait() != 0 or model is None:
        sys.exit("verdicts: trace-cmd report failed on %s: %s" % (path, err.strip()[-300:]))
    out = dict(model.f)
    out["repairs"] = {str(i): c.repairs for i, c in enumerate(model.cpus) if c.repairs}
    out["paths"] = model.paths
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
