// SPDX-License-Identifier: GPL-2.0
/*
 * gen_trace.c - synthesise a trace.dat (v6 or v7) of N CPUs, T tasks and M events with
 * the verdict of every placement known by construction, for the golden tests and the
 * scale benchmarks (issue 23).  The file is written by rqpath's own writer
 * (src/input/tracedat_write.c); `trace-cmd report` reads it like a recording.
 *
 * usage: gen_trace -o FILE [--cpus N] [--llcs L] [--tasks T] [--events M] [--seed S]
 *                  [--file-version 6|7] [--expect FILE] [--spacing NS] [--truth-on-rq PM]
 *                  [--truth-not-delayed] [--no-policy-syscalls]
 *
 * What the trace holds, as `rqpath record` would write it on a 6.18 kernel:
 *   - the recorder's rqpath/1 lines (src/input/markers.h): the kernel, every CPU with
 *     its LLC (L groups of consecutive CPUs), every task with its policy (SCHED_NORMAL,
 *     SCHED_BATCH, SCHED_IDLE, or unknown) and its allowed CPUs (all, one, or unknown);
 *   - one switch to idle on every CPU first, so that every runqueue is known;
 *   - then steps, each a few events with strictly increasing timestamps: wakeups
 *     (sched_waking, a sched_migrate_task when the task changes CPU, sched_wakeup, all
 *     on the waker's CPU; the woken task switched in at once on an idle CPU), blocks and
 *     preemptions (sched_switch), forks (sched_process_fork, sched_wakeup_new), execs,
 *     exits.  Wakeup targets are chosen so that every case happens: an idle CPU, the
 *     previous CPU, the waker's, a busy CPU of the LLC while another is idle
 *     (missed-idle), a CPU running only SCHED_IDLE work for a SCHED_IDLE task while
 *     another is idle (idle-stacking).
 *   - the formats of sys_enter/exit_sched_setaffinity and cgroup_attach_task (no records):
 *     a mask from a marker then rests on no assumption; those of
 *     sys_enter/exit_sched_setscheduler and sys_enter/exit_sched_setattr (no records):
 *     nor does a policy from a marker.  --no-policy-syscalls leaves the last four out, as
 *     `rqpath record` without --syscalls does: a change of policy since the recorder's
 *     read would not be in the trace, so every verdict that used a known policy rests
 *     on that read ("policy-last-read") and is inferred.
 *
 * The generator keeps its own model of every runqueue and judges each placement by the
 * rules of docs/design.md §3 and rqpath-paths(7) (VERDICTS), written here from those
 * documents, not from the engine: needless-callback (an exec of a task allowed on one
 * CPU), offcpu-fork (a fork placed off the parent's CPU), idle-stacking, missed-idle,
 * each as count/exact/inferred/possible/not judged/judged.  It writes them, with the
 * event counts, as JSON to FILE.expect.json (or --expect): tests/golden/t_generated.sh
 * compares them with rqpath audit's.
 *
 * --truth-on-rq PM: kernel truth too (an rqpath-truth buffer, as the recorder's BPF side
 * writes it): per mille PM of the wakeups that stay on their CPU, of a task whose policy
 * and mask the markers give, get an rqpath:truth record at their sched_waking saying the
 * task was still on a runqueue (p->on_rq: ttwu_runnable(), no selection), with its
 * policy and mask and no CPU's state, and delay-dequeued (se.sched_delayed: how a task
 * the trace shows blocking stays on one).  Such a wakeup would-be finding is "no selection"
 * (the no_selection of FILE.expect.json), neither counted nor possible; an exec, whose
 * record is not written, is not judged.  Without the option no random number is drawn
 * for it: the trace is the same as before.  --truth-not-delayed: the same records without
 * the delayed flag, as a 4-byte read of 7.2's u8 on_rq gave them (or a forged file): the
 * audit's self-check must refuse them.
 *
 * The cases kept out on purpose (their rules are being refined, issue 19): repaired
 * switches (every switch is in the trace), CPUs never seen idle, traces without
 * sched_waking, lost events, RT tasks, load balancing.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "markers.h"
#include "outfile.h"
#include "tdhdr.h"
#include "tracedat_write.h"
#include "truth_fmt.h"

#define PAGE_SIZE TDHDR_PAGE
#define PAGE_DATA (PAGE_SIZE - 16)
#define NSEC_PER_MSEC 1000000ULL
/* the engine's DELAYED_WINDOW: a blocked fair task may stay enqueued this long */
#define DELAYED_WINDOW (10 * NSEC_PER_MSEC)
#define RECORDER_PID 900
#define FIRST_PID 1000
#define MAX_PID 4000000		/* below the pid index's limit; no pid is ever reused */

enum { POL_NORMAL = 0, POL_BATCH = 3, POL_IDLE = 5, POL_UNKNOWN = -1 };
enum { TS_SLEEPING, TS_QUEUED, TS_RUNNING, TS_DEAD };

/* ---- the formats (as a 6.18 kernel's tracefs shows them) --------------------------- */

#define WAKE_FIELDS \
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n" \
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n" \
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n" \
	"\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n\n" \
	"print fmt: \"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, " \
	"REC->prio, REC->target_cpu\n"

enum { ID_PRINT = 5, ID_EXEC = 365, ID_FORK = 366, ID_EXIT = 369, ID_MIGRATE = 371,
       ID_SWITCH = 372, ID_WAKEUP_NEW = 373, ID_WAKEUP = 374, ID_WAKING = 375,
       ID_SETAFF_EXIT = 391, ID_SETAFF_ENTER = 392, ID_CGROUP_ATTACH = 538 };

static char fmt_switch[] =
	"name: sched_switch\nID: 372\nformat:\n" TDHDR_COMMON
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> "
	"next_comm=%s next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, "
	"REC->prev_prio, (REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | "
	"0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1)) ? "
	"__print_flags(REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | "
	"0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1), "
	"\"|\", { 0x00000001, \"S\" }, { 0x00000002, \"D\" }, { 0x00000004, \"T\" }, "
	"{ 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { 0x00000020, \"Z\" }, "
	"{ 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", REC->prev_state & "
	"(((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | "
	"0x00000020 | 0x00000040) + 1) << 1) ? \"+\" : \"\", REC->next_comm, REC->next_pid, "
	"REC->next_prio\n";
static char fmt_waking[] = "name: sched_waking\nID: 375\nformat:\n" TDHDR_COMMON WAKE_FIELDS;
static char fmt_wakeup[] = "name: sched_wakeup\nID: 374\nformat:\n" TDHDR_COMMON WAKE_FIELDS;
static char fmt_wakeup_new[] =
	"name: sched_wakeup_new\nID: 373\nformat:\n" TDHDR_COMMON WAKE_FIELDS;
static char fmt_migrate[] =
	"name: sched_migrate_task\nID: 371\nformat:\n" TDHDR_COMMON
	"\tfield:__data_loc char[] comm;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:int orig_cpu;\toffset:20;\tsize:4;\tsigned:1;\n"
	"\tfield:int dest_cpu;\toffset:24;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d\", __get_str(comm), "
	"REC->pid, REC->prio, REC->orig_cpu, REC->dest_cpu\n";
static char fmt_fork[] =
	"name: sched_process_fork\nID: 366\nformat:\n" TDHDR_COMMON
	"\tfield:__data_loc char[] parent_comm;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t parent_pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] child_comm;\toffset:16;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t child_pid;\toffset:20;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"comm=%s pid=%d child_comm=%s child_pid=%d\", __get_str(parent_comm), "
	"REC->parent_pid, __get_str(child_comm), REC->child_pid\n";
static char fmt_exit[] =
	"name: sched_process_exit\nID: 369\nformat:\n" TDHDR_COMMON
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:bool group_dead;\toffset:32;\tsize:1;\tsigned:0;\n\n"
	"print fmt: \"comm=%s pid=%d prio=%d group_dead=%s\", REC->comm, REC->pid, REC->prio, "
	"REC->group_dead ? \"true\" : \"false\"\n";
static char fmt_exec[] =
	"name: sched_process_exec\nID: 365\nformat:\n" TDHDR_COMMON
	"\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:pid_t old_pid;\toffset:16;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"filename=%s pid=%d old_pid=%d\", __get_str(filename), REC->pid, "
	"REC->old_pid\n";
static char fmt_setaff_enter[] =
	"name: sys_enter_sched_setaffinity\nID: 392\nformat:\n" TDHDR_COMMON
	"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:pid_t pid;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned int len;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long * user_mask_ptr;\toffset:32;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"pid: 0x%08lx, len: 0x%08lx, user_mask_ptr: 0x%08lx\", "
	"((unsigned long)(REC->pid)), ((unsigned long)(REC->len)), "
	"((unsigned long)(REC->user_mask_ptr))\n";
static char fmt_setaff_exit[] =
	"name: sys_exit_sched_setaffinity\nID: 391\nformat:\n" TDHDR_COMMON
	"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n\n"
	"print fmt: \"0x%lx\", REC->ret\n";
static char fmt_setsched_enter[] =
	"name: sys_enter_sched_setscheduler\nID: 404\nformat:\n" TDHDR_COMMON
	"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:pid_t pid;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:int policy;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:struct sched_param * param;\toffset:32;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"pid: 0x%08lx, policy: 0x%08lx, param: 0x%08lx\", "
	"((unsigned long)(REC->pid)), ((unsigned long)(REC->policy)), "
	"((unsigned long)(REC->param))\n";
static char fmt_setsched_exit[] =
	"name: sys_exit_sched_setscheduler\nID: 403\nformat:\n" TDHDR_COMMON
	"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n\n"
	"print fmt: \"0x%lx\", REC->ret\n";
static char fmt_setattr_enter[] =
	"name: sys_enter_sched_setattr\nID: 400\nformat:\n" TDHDR_COMMON
	"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:pid_t pid;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:struct sched_attr * uattr;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned int flags;\toffset:32;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"pid: 0x%08lx, uattr: 0x%08lx, flags: 0x%08lx\", "
	"((unsigned long)(REC->pid)), ((unsigned long)(REC->uattr)), "
	"((unsigned long)(REC->flags))\n";
static char fmt_setattr_exit[] =
	"name: sys_exit_sched_setattr\nID: 399\nformat:\n" TDHDR_COMMON
	"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n\n"
	"print fmt: \"0x%lx\", REC->ret\n";
static char fmt_cgroup_attach[] =
	"name: cgroup_attach_task\nID: 538\nformat:\n" TDHDR_COMMON
	"\tfield:int dst_root;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:int dst_level;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:u64 dst_id;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:int pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] dst_path;\toffset:28;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc char[] comm;\toffset:32;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"dst_root=%d dst_id=%llu dst_level=%d dst_path=%s pid=%d comm=%s\", "
	"REC->dst_root, REC->dst_id, REC->dst_level, __get_str(dst_path), REC->pid, "
	"__get_str(comm)\n";
static char fmt_print[] =
	"name: print\nID: 5\nformat:\n" TDHDR_COMMON
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:0;\n\n"
	"print fmt: \"%ps: %s\", (void *)REC->ip, REC->buf\n";

/* ---- the model ------------------------------------------------------------------- */

struct task {
	int pid;
	int8_t state;
	int8_t policy;		/* POL_* */
	bool mask_known;	/* the marker said; else "?" (the real mask is every CPU) */
	bool seen_multi;	/* ran on two CPUs since its mask became unknown */
	int pin;		/* the one allowed CPU, -1 every CPU */
	int cpu;		/* where it runs, waits, or last ran */
	int seen_cpu;		/* first CPU it ran on since its mask became unknown, -1 */
	uint64_t blocked_ts;	/* when it last blocked, 0 before the trace */
	int dl_cpu, dl_idx;	/* its place in a CPU's maybe-delayed list, -1 none */
	int q_idx;		/* its place in its CPU's queue */
	int sl_idx;		/* its place in the sleeping array */
	char comm[16];
};

struct cpu {
	int curr;		/* pid running, 0 idle */
	int llc;		/* first CPU of its LLC */
	int *q, nq, qcap;	/* runnable, waiting: pids */
	int *dl, ndl, dlcap;	/* blocked fair tasks maybe still enqueued (DELAY_DEQUEUE) */
	uint64_t last_idle_ts, last_prune;
};

struct verdicts {
	uint64_t count, exact, inferred, possible, not_judged, judged, unknown, of;
	uint64_t no_selection;	/* would count, but the truth record shows no selection */
};

enum { F_NEEDLESS, F_OFFCPU, F_STACKING, F_MISSED, F__COUNT };
static const char *const finding_name[F__COUNT] = {
	"needless-callback", "offcpu-fork", "idle-stacking", "missed-idle",
};

enum { C_SWITCH, C_WAKING, C_WAKEUP, C_WAKEUP_NEW, C_MIGRATE, C_FORK, C_EXIT, C_EXEC,
       C_PRINT, C__COUNT };
static const char *const count_name[C__COUNT] = {
	"sched_switch", "sched_waking", "sched_wakeup", "sched_wakeup_new",
	"sched_migrate_task", "sched_process_fork", "sched_process_exit",
	"sched_process_exec", NULL,
};

static struct {
	int ncpus, nllc, llc_size, ntasks, version;
	uint64_t nevents, spacing, seed;
	const char *out, *expect;
	bool no_policy_syscalls;	/* the trace lacks the policy syscalls' formats */
	struct cpu *cpus;
	int *llc_idle;		/* idle CPUs per LLC, by the LLC's first CPU */
	struct task *tasks;	/* by pid - FIRST_PID */
	int next_pid, tasks_cap;
	int *sleeping, nsleeping;
	int live, runnable;	/* tasks alive; running + queued */
	uint64_t ts, rng;
	uint64_t last_ts;	/* the timestamp of the record written last */
	uint64_t emitted, counts[C__COUNT];
	struct verdicts v[F__COUNT];
	unsigned int truth_on_rq;	/* --truth-on-rq: per mille */
	bool on_rq;		/* the wakeup judged now has an on_rq truth record */
	bool truth_not_delayed;	/* --truth-not-delayed */
	int truth_id, truth_hdr;
	char *truth_fmt;	/* its format text, truth_fmt_len bytes */
	size_t truth_fmt_len;
	uint64_t truth_records;
	struct rq_tdw *w;
	unsigned char (*page)[PAGE_SIZE];
	uint32_t *page_pos;
	uint64_t *page_last;
	bool *page_open;
	unsigned char rec[256];
} g;

static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("gen_trace: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		die("out of memory");
	return p;
}

static void *xrealloc(void *p, size_t n, size_t size)
{
	p = reallocarray(p, n, size);
	if (!p)
		die("out of memory");
	return p;
}

/* xorshift64*: the same seed, the same trace */
static uint64_t rnd(void)
{
	g.rng ^= g.rng >> 12;
	g.rng ^= g.rng << 25;
	g.rng ^= g.rng >> 27;
	return g.rng * 2685821657736338717ULL;
}

static unsigned int rnd_below(unsigned int n)
{
	return n ? (unsigned int)((rnd() >> 32) % n) : 0;
}

/* true with probability per/1000 */
static bool chance(unsigned int per_mille)
{
	return rnd_below(1000) < per_mille;
}

static struct task *task_of(int pid)
{
	return pid >= FIRST_PID && pid < g.next_pid ? &g.tasks[pid - FIRST_PID] : NULL;
}

/* ---- ring-buffer pages ------------------------------------------------------------ */

static void page_flush(int cpu)
{
	unsigned char *p = g.page[cpu];
	uint64_t commit = g.page_pos[cpu];

	if (!g.page_open[cpu])
		return;
	memcpy(p + 8, &commit, 8);
	memset(p + 16 + g.page_pos[cpu], 0, PAGE_DATA - g.page_pos[cpu]);
	if (rq_tdw_add_page(g.w, cpu, p, PAGE_SIZE) < 0)
		die("cannot write a page: %s", strerror(errno));
	g.page_open[cpu] = false;
}

static void page_word(int cpu, uint32_t w)
{
	memcpy(g.page[cpu] + 16 + g.page_pos[cpu], &w, 4);
	g.page_pos[cpu] += 4;
}

/* Append one record (len a multiple of 4) to cpu's page at g.ts. */
static void emit(int cpu, const void *data, uint32_t len, int counter)
{
	uint32_t need = (len <= 112 ? 4 : 8) + len + 8;	/* + a time extend */
	uint64_t delta;

	if (g.page_open[cpu] && g.page_pos[cpu] + need > PAGE_DATA)
		page_flush(cpu);
	if (!g.page_open[cpu]) {
		memcpy(g.page[cpu], &g.ts, 8);
		g.page_pos[cpu] = 0;
		g.page_last[cpu] = g.ts;
		g.page_open[cpu] = true;
	}
	delta = g.ts - g.page_last[cpu];
	g.page_last[cpu] = g.ts;
	if (delta >= (1u << 27)) {
		page_word(cpu, 30 | (uint32_t)((delta & ((1u << 27) - 1)) << 5));
		page_word(cpu, (uint32_t)(delta >> 27));
		delta = 0;
	}
	if (len <= 112) {
		page_word(cpu, (len / 4) | (uint32_t)(delta << 5));
	} else {
		page_word(cpu, (uint32_t)(delta << 5));
		page_word(cpu, len + 4);
	}
	memcpy(g.page[cpu] + 16 + g.page_pos[cpu], data, len);
	g.page_pos[cpu] += len;
	g.emitted++;
	g.counts[counter]++;
	g.last_ts = g.ts;
	/* every record its own time: the merge of the CPUs is then one order */
	g.ts += g.spacing / 2 + rnd_below((unsigned int)g.spacing) + 1;
}

/* ---- records (layouts of the formats above) ------------------------------------------ */

static unsigned char *rec_start(uint16_t id, int common_pid, uint8_t flags, uint32_t len)
{
	memset(g.rec, 0, len);
	memcpy(g.rec, &id, 2);
	g.rec[2] = flags;
	memcpy(g.rec + 4, &common_pid, 4);
	return g.rec;
}

static void put_i32(unsigned char *r, int off, int v) { memcpy(r + off, &v, 4); }

static void put_comm(unsigned char *r, int off, const char *comm)
{
	strncpy((char *)r + off, comm, 15);
}

/* a __data_loc string at *end; returns the new end */
static uint32_t put_str(unsigned char *r, int loc_off, uint32_t end, const char *s)
{
	uint32_t n = (uint32_t)strlen(s) + 1;
	uint32_t loc = (n << 16) | end;

	memcpy(r + loc_off, &loc, 4);
	memcpy(r + end, s, n);
	return end + n;
}

static uint32_t align4(uint32_t n) { return (n + 3) & ~3u; }

static const char *comm_of(int pid, int cpu)
{
	static char swapper[16];
	struct task *t = task_of(pid);

	if (t)
		return t->comm;
	snprintf(swapper, sizeof(swapper), "swapper/%d", cpu);
	return swapper;
}

static void rec_switch(int cpu, int prev, long prev_state, int next)
{
	unsigned char *r = rec_start(ID_SWITCH, prev, 0, 64);

	put_comm(r, 8, comm_of(prev, cpu));
	put_i32(r, 24, prev);
	put_i32(r, 28, 120);
	memcpy(r + 32, &(int64_t){ prev_state }, 8);
	put_comm(r, 40, comm_of(next, cpu));
	put_i32(r, 56, next);
	put_i32(r, 60, 120);
	emit(cpu, r, 64, C_SWITCH);
}

/* sched_waking, sched_wakeup, sched_wakeup_new */
static void rec_wake(uint16_t id, int counter, int cpu, int writer, const struct task *t,
		     int target)
{
	unsigned char *r = rec_start(id, writer, writer ? 0 : 0x08 /* hardirq */, 36);

	put_comm(r, 8, t->comm);
	put_i32(r, 24, t->pid);
	put_i32(r, 28, 120);
	put_i32(r, 32, target);
	emit(cpu, r, 36, counter);
}

/* The rqpath:truth record of t's sched_waking just written on cpu: on a runqueue. */
static void rec_truth_on_rq(int cpu, const struct task *t)
{
	struct rq_truth_rec r = { 0 };
	unsigned char buf[RQ_TRUTH_EVENT_MAX];
	uint32_t len;

	r.ts = g.last_ts;
	r.pid = (uint32_t)t->pid;
	r.policy = (uint32_t)t->policy;
	r.nr_cpus_allowed = t->pin >= 0 ? 1 : (uint32_t)g.ncpus;
	r.task_cpu = (uint32_t)t->cpu;
	r.cpu = (uint16_t)cpu;
	r.point = RQ_TRUTH_WAKING;
	r.flags = RQ_TRUTH_ON_RQ | (g.truth_not_delayed ? 0 : RQ_TRUTH_DELAYED);
	r.nr_cpus = 0;		/* no CPU's state: the model's, as in a record cut short */
	for (int c = 0; c < g.ncpus && c < 64 * RQ_TRUTH_MASK_WORDS; c++)
		if (t->pin < 0 || t->pin == c)
			r.mask[c / 64] |= 1ULL << (c % 64);
	len = rq_truth_encode(&r, g.truth_id, g.truth_hdr, g.ncpus, buf);
	if (rq_tdw_add_record(g.w, r.ts, buf, len) < 0)
		die("cannot write a truth record: %s", strerror(errno));
	g.truth_records++;
}

static void rec_migrate(int cpu, int writer, const struct task *t, int from, int to)
{
	unsigned char *r = rec_start(ID_MIGRATE, writer, writer ? 0 : 0x08, 64);
	uint32_t end = put_str(r, 8, 28, t->comm);

	put_i32(r, 12, t->pid);
	put_i32(r, 16, 120);
	put_i32(r, 20, from);
	put_i32(r, 24, to);
	emit(cpu, r, align4(end), C_MIGRATE);
}

static void rec_fork(int cpu, const struct task *parent, const struct task *child)
{
	unsigned char *r = rec_start(ID_FORK, parent->pid, 0, 64);
	uint32_t end = put_str(r, 8, 24, parent->comm);

	put_i32(r, 12, parent->pid);
	end = put_str(r, 16, end, child->comm);
	put_i32(r, 20, child->pid);
	emit(cpu, r, align4(end), C_FORK);
}

static void rec_exit(int cpu, const struct task *t)
{
	unsigned char *r = rec_start(ID_EXIT, t->pid, 0, 36);

	put_comm(r, 8, t->comm);
	put_i32(r, 24, t->pid);
	put_i32(r, 28, 120);
	r[32] = 1;
	emit(cpu, r, 36, C_EXIT);
}

static void rec_exec(int cpu, const struct task *t, const char *file)
{
	unsigned char *r = rec_start(ID_EXEC, t->pid, 0, 64);
	uint32_t end = put_str(r, 8, 20, file);

	put_i32(r, 12, t->pid);
	put_i32(r, 16, t->pid);
	emit(cpu, r, align4(end), C_EXEC);
}

static void rec_marker(const struct rq_marker *m)
{
	char line[160];
	int n = rq_marker_format(m, line, sizeof(line));
	unsigned char *r;

	if (n < 0 || n >= (int)sizeof(line))
		die("a marker line does not fit");
	r = rec_start(ID_PRINT, RECORDER_PID, 0, align4(16 + (uint32_t)n + 1));
	memcpy(r + 16, line, (size_t)n + 1);
	emit(0, r, align4(16 + (uint32_t)n + 1), C_PRINT);
}

/* ---- the model's lists ------------------------------------------------------------ */

static void sleeping_add(struct task *t)
{
	t->sl_idx = g.nsleeping;
	g.sleeping[g.nsleeping++] = t->pid;
}

static void sleeping_del(struct task *t)
{
	int last = g.sleeping[--g.nsleeping];

	g.sleeping[t->sl_idx] = last;
	task_of(last)->sl_idx = t->sl_idx;
	t->sl_idx = -1;
}

static void queue_add(int cpu, struct task *t)
{
	struct cpu *c = &g.cpus[cpu];

	if (c->nq == c->qcap) {
		c->qcap = c->qcap ? c->qcap * 2 : 8;
		c->q = xrealloc(c->q, (size_t)c->qcap, sizeof(int));
	}
	t->q_idx = c->nq;
	c->q[c->nq++] = t->pid;
	t->state = TS_QUEUED;
	t->cpu = cpu;
}

/* Take the i-th queued task off cpu's queue (the last one fills its place). */
static struct task *queue_take(int cpu, int i)
{
	struct cpu *c = &g.cpus[cpu];
	struct task *t = task_of(c->q[i]);

	c->q[i] = c->q[--c->nq];
	if (i < c->nq)
		task_of(c->q[i])->q_idx = i;
	t->q_idx = -1;
	return t;
}

static void delayed_del(struct task *t)
{
	struct cpu *c;
	int last;

	if (t->dl_cpu < 0)
		return;
	c = &g.cpus[t->dl_cpu];
	last = c->dl[--c->ndl];
	c->dl[t->dl_idx] = last;
	task_of(last)->dl_idx = t->dl_idx;
	t->dl_cpu = -1;
	t->dl_idx = -1;
}

static void delayed_add(int cpu, struct task *t)
{
	struct cpu *c = &g.cpus[cpu];

	delayed_del(t);
	if (c->ndl == c->dlcap) {
		c->dlcap = c->dlcap ? c->dlcap * 2 : 8;
		c->dl = xrealloc(c->dl, (size_t)c->dlcap, sizeof(int));
	}
	t->dl_cpu = cpu;
	t->dl_idx = c->ndl;
	c->dl[c->ndl++] = t->pid;
}

static void delayed_clear(int cpu)
{
	struct cpu *c = &g.cpus[cpu];

	while (c->ndl) {
		struct task *t = task_of(c->dl[--c->ndl]);

		t->dl_cpu = -1;
		t->dl_idx = -1;
	}
}

/* Entries older than the window count for nothing: drop them now and then. */
static void delayed_prune(int cpu)
{
	struct cpu *c = &g.cpus[cpu];

	if (!c->ndl || g.ts - c->last_prune < NSEC_PER_MSEC)
		return;
	c->last_prune = g.ts;
	for (int i = 0; i < c->ndl;) {
		struct task *t = task_of(c->dl[i]);

		if (g.ts - t->blocked_ts > DELAYED_WINDOW)
			delayed_del(t);
		else
			i++;
	}
}

/* Blocked fair tasks other than skip that may still be enqueued on cpu at time now. */
static int delayed_nonidle(int cpu, const struct task *skip, uint64_t now)
{
	const struct cpu *c = &g.cpus[cpu];
	int n = 0;

	for (int i = 0; i < c->ndl; i++) {
		const struct task *d = task_of(c->dl[i]);

		if (d != skip && now - d->blocked_ts <= DELAYED_WINDOW && d->policy != POL_IDLE)
			n++;
	}
	return n;
}

static void set_idle(int cpu, bool idle)
{
	g.llc_idle[g.cpus[cpu].llc] += idle ? 1 : -1;
}

static void note_running(struct task *t, int cpu)
{
	if (t->seen_cpu < 0)
		t->seen_cpu = cpu;
	else if (t->seen_cpu != cpu)
		t->seen_multi = true;
	t->cpu = cpu;
	t->state = TS_RUNNING;
}

/* sched_switch on cpu from its running task (prev_state) to next (0: idle). */
static void do_switch(int cpu, long prev_state, int next)
{
	struct cpu *c = &g.cpus[cpu];
	int prev = c->curr;
	struct task *p = task_of(prev);
	uint64_t ts = g.ts;

	rec_switch(cpu, prev, prev_state, next);
	if (!prev)
		c->last_idle_ts = ts;
	if (p) {
		if (prev_state == 0) {
			queue_add(cpu, p);
		} else if (prev_state & 0x30) {
			p->state = TS_DEAD;
			g.runnable--;
		} else {
			p->state = TS_SLEEPING;
			p->blocked_ts = ts;
			sleeping_add(p);
			delayed_add(cpu, p);
			g.runnable--;
		}
	}
	delayed_prune(cpu);
	c->curr = next;
	if (!next) {
		delayed_clear(cpu);
		c->last_idle_ts = ts;
		set_idle(cpu, true);
		return;
	}
	if (!prev)
		set_idle(cpu, false);
	note_running(task_of(next), cpu);
}

/* The running task leaves cpu (blocked, preempted or dead): the next queued one runs. */
static void switch_out(int cpu, long prev_state)
{
	struct cpu *c = &g.cpus[cpu];
	int next = 0;

	if (c->nq)
		next = queue_take(cpu, (int)rnd_below((unsigned int)c->nq))->pid;
	do_switch(cpu, prev_state, next);
}

/* ---- the judges (docs/design.md §3, rqpath-paths(7)) -------------------------------- */

/* What the kernel sees on cpu, the task being placed left out. */
struct look {
	int ntasks, known_nonidle, unknown;
};

static struct look look_cpu(int cpu, const struct task *skip)
{
	const struct cpu *c = &g.cpus[cpu];
	struct look l = { 0 };

	for (int i = -1; i < c->nq; i++) {
		const struct task *t = task_of(i < 0 ? c->curr : c->q[i]);

		if (!t || t == skip)
			continue;
		l.ntasks++;
		if (t->policy == POL_UNKNOWN)
			l.unknown++;
		else if (t->policy != POL_IDLE)
			l.known_nonidle++;
	}
	return l;
}

/* Another CPU of x's LLC, allowed to t, truly idle (the idle task, nothing queued). */
static bool idle_sibling(const struct task *t, int x)
{
	const struct cpu *c = &g.cpus[x];
	int idle = g.llc_idle[c->llc] - (c->curr == 0);

	if (idle <= 0)
		return false;
	return t->pin < 0;	/* a task allowed on one CPU has no other */
}

static void count(int f, bool possible, bool inferred)
{
	if (g.on_rq) {
		g.v[f].no_selection++;
		return;
	}
	if (possible) {
		g.v[f].possible++;
		return;
	}
	g.v[f].count++;
	if (inferred)
		g.v[f].inferred++;
	else
		g.v[f].exact++;
}

/*
 * A wakeup (fork: is_fork) of t onto x, judged right after its sched_wakeup
 * (sched_wakeup_new) was written.  proven: select_task_rq() provably ran (a fork; the
 * task moved; or its previous CPU went idle since it blocked there); proof_assumed: that
 * last proof for a task the trace never showed blocking, which blocked before the trace
 * began (the assumption blocked-before: the verdict is inferred).  The state is the same
 * at sched_waking and at sched_wakeup: nothing happens in between.
 */
static void judge_placement(const struct task *t, int x, bool is_fork, bool proven,
			    bool proof_assumed)
{
	struct look l = look_cpu(x, t);

	/* missed-idle: wakeups of fair tasks not SCHED_IDLE (an unknown policy is assumed so) */
	if (!is_fork && t->policy != POL_IDLE) {
		if (!t->mask_known) {
			g.v[F_MISSED].not_judged++;
		} else {
			bool busy = l.known_nonidle || l.unknown;

			g.v[F_MISSED].judged++;
			/*
			 * a known policy used (the wakee's, or one that makes x busy) may have
			 * changed unseen without the policy syscalls' events
			 */
			if (busy && idle_sibling(t, x))
				count(F_MISSED, !proven, t->policy == POL_UNKNOWN ||
				      (!l.known_nonidle && l.unknown) || proof_assumed ||
				      (g.no_policy_syscalls &&
				       (t->policy != POL_UNKNOWN || l.known_nonidle)));
		}
	}
	/*
	 * idle-stacking: SCHED_IDLE tasks; one of unknown policy (or x's unknown policies)
	 * cannot be judged, unless x is empty or runs a known non-SCHED_IDLE task (nothing
	 * stacked on SCHED_IDLE work), or no allowed CPU of the LLC is idle (nothing to be
	 * stacked away from: a known mask needed)
	 */
	if (t->policy == POL_IDLE || t->policy == POL_UNKNOWN) {
		if (l.known_nonidle || (!l.unknown && !l.ntasks)) {
			g.v[F_STACKING].judged++;
		} else if (t->policy == POL_UNKNOWN || !t->mask_known ||
			   (l.unknown && !l.known_nonidle)) {
			if (t->mask_known && !idle_sibling(t, x))
				g.v[F_STACKING].judged++;
			else
				g.v[F_STACKING].not_judged++;
		} else {
			g.v[F_STACKING].judged++;
			/* the wakee's SCHED_IDLE and x's: known policies, maybe stale */
			if (l.ntasks && !l.known_nonidle && idle_sibling(t, x))
				count(F_STACKING, !proven || delayed_nonidle(x, t, g.last_ts),
				      proof_assumed || g.no_policy_syscalls);
		}
	}
}

/* ---- steps ------------------------------------------------------------------------- */

static int random_cpu_in_llc(int llc)
{
	int n = g.llc_size;

	if (llc + n > g.ncpus)
		n = g.ncpus - llc;
	return llc + (int)rnd_below((unsigned int)n);
}

/* An idle CPU of the LLC, prefer first if it is one; -1 if none. */
static int idle_cpu_in_llc(int llc, int prefer)
{
	int n = g.llc_size, start;

	if (!g.llc_idle[llc])
		return -1;
	if (prefer >= 0 && !g.cpus[prefer].curr)
		return prefer;
	if (llc + n > g.ncpus)
		n = g.ncpus - llc;
	start = (int)rnd_below((unsigned int)n);
	for (int i = 0; i < n; i++) {
		int cpu = llc + (start + i) % n;

		if (!g.cpus[cpu].curr)
			return cpu;
	}
	return -1;
}

/* A CPU of the LLC running only SCHED_IDLE work (all policies known); -1 if none. */
static int idle_only_cpu_in_llc(int llc, const struct task *skip)
{
	int n = g.llc_size, start;

	if (llc + n > g.ncpus)
		n = g.ncpus - llc;
	start = (int)rnd_below((unsigned int)n);
	for (int i = 0; i < n; i++) {
		int cpu = llc + (start + i) % n;
		struct look l = look_cpu(cpu, skip);

		if (l.ntasks && !l.known_nonidle && !l.unknown)
			return cpu;
	}
	return -1;
}

/* Put t (not running anywhere) on x's queue; an idle x switches to it at once. */
static void enqueue_and_run(struct task *t, int x)
{
	queue_add(x, t);
	g.runnable++;
	if (!g.cpus[x].curr)
		do_switch(x, 0, queue_take(x, t->q_idx)->pid);
}

/* A sleeping task woken by whoever runs on cpu (the idle task: an interrupt). */
static void step_wake(int cpu)
{
	struct task *t = task_of(g.sleeping[rnd_below((unsigned int)g.nsleeping)]);
	int writer = g.cpus[cpu].curr, prev = t->cpu, llc = g.cpus[prev].llc, x = -1;
	unsigned int r = rnd_below(1000);
	bool proven;

	if (t->pin >= 0) {
		x = t->pin;
	} else {
		if (t->policy == POL_IDLE && r < 300)
			x = idle_only_cpu_in_llc(llc, t);	/* stacking, if another is idle */
		r = rnd_below(1000);
		if (x >= 0)
			;
		else if (r < 450)
			x = idle_cpu_in_llc(llc, prev);
		else if (r < 650)
			x = prev;
		else if (r < 800)
			x = cpu;			/* pulled to the waker */
		else if (r < 920)
			x = random_cpu_in_llc(llc);	/* maybe busy with a sibling idle */
		else
			x = (int)rnd_below((unsigned int)g.ncpus);
		if (x < 0)
			x = prev;
	}
	/*
	 * proof of selection: the task moves, or the CPU it blocked on ran the idle task
	 * since (a task of the snapshot never blocked in the trace: blocked_ts 0)
	 */
	proven = x != prev || (g.cpus[prev].last_idle_ts &&
			       g.cpus[prev].last_idle_ts >= t->blocked_ts);
	rec_wake(ID_WAKING, C_WAKING, cpu, writer, t, prev);
	/* a task that moves was selected for, whatever on_rq said: only one that stays */
	g.on_rq = g.truth_on_rq && x == prev && t->mask_known && t->policy != POL_UNKNOWN &&
		  chance(g.truth_on_rq);
	if (g.on_rq)
		rec_truth_on_rq(cpu, t);
	if (x != prev)
		rec_migrate(cpu, writer, t, prev, x);
	rec_wake(ID_WAKEUP, C_WAKEUP, cpu, writer, t, x);
	judge_placement(t, x, false, proven, x == prev && !t->blocked_ts);
	g.on_rq = false;
	sleeping_del(t);
	delayed_del(t);
	enqueue_and_run(t, x);
}

static void name_task(struct task *t, const char *role)
{
	snprintf(t->comm, sizeof(t->comm), "%s%d", role, t->pid);
}

static struct task *new_task(void)
{
	struct task *t;

	if (g.next_pid - FIRST_PID == g.tasks_cap) {
		g.tasks_cap *= 2;
		g.tasks = xrealloc(g.tasks, (size_t)g.tasks_cap, sizeof(*g.tasks));
	}
	t = &g.tasks[g.next_pid - FIRST_PID];
	memset(t, 0, sizeof(*t));
	t->pid = g.next_pid++;
	t->dl_cpu = t->dl_idx = t->q_idx = t->sl_idx = -1;
	t->seen_cpu = -1;
	g.live++;
	return t;
}

static void step_fork(int cpu)
{
	struct task *child = new_task();
	/* after new_task(): the array may have moved */
	struct task *parent = task_of(g.cpus[cpu].curr);
	int x;

	child->policy = parent->policy;
	child->mask_known = parent->mask_known;
	child->pin = parent->pin;
	memcpy(child->comm, parent->comm, sizeof(child->comm));
	if (child->pin >= 0) {
		x = child->pin;
	} else {
		unsigned int r = rnd_below(1000);

		x = r < 600 ? cpu : r < 850 ? idle_cpu_in_llc(g.cpus[cpu].llc, -1) :
		    (int)rnd_below((unsigned int)g.ncpus);
		if (x < 0)
			x = cpu;
	}
	rec_fork(cpu, parent, child);
	rec_wake(ID_WAKEUP_NEW, C_WAKEUP_NEW, cpu, parent->pid, child, x);
	g.v[F_OFFCPU].of++;
	g.v[F_OFFCPU].judged++;
	if (x != cpu)
		count(F_OFFCPU, false, false);
	judge_placement(child, x, true, true, false);
	enqueue_and_run(child, x);
}

static void step_exec(int cpu)
{
	struct task *t = task_of(g.cpus[cpu].curr);
	char file[64];

	snprintf(file, sizeof(file), "/usr/bin/e%d", t->pid);
	rec_exec(cpu, t, file);
	snprintf(t->comm, sizeof(t->comm), "e%d", t->pid);
	if (g.truth_on_rq) {
		/*
		 * with truth records in the trace an exec is judged from its own record
		 * (sched_process_exec's), and none is written: not judged, its mask unknown
		 */
		g.v[F_NEEDLESS].unknown++;
		g.v[F_NEEDLESS].not_judged++;
		return;
	}
	if (!t->mask_known) {
		/* a task seen on two CPUs since has a proven multi-CPU mask */
		if (t->seen_multi) {
			g.v[F_NEEDLESS].judged++;
		} else {
			g.v[F_NEEDLESS].unknown++;
			g.v[F_NEEDLESS].not_judged++;
		}
	} else {
		g.v[F_NEEDLESS].judged++;
		if (t->pin >= 0)
			count(F_NEEDLESS, false, false);
	}
}

static void step_exit(int cpu)
{
	rec_exit(cpu, task_of(g.cpus[cpu].curr));
	g.live--;
	switch_out(cpu, 0x20);	/* Z */
}

static void step(void)
{
	int cpu = (int)rnd_below((unsigned int)g.ncpus);
	struct cpu *c = &g.cpus[cpu];
	/* keep about 70 % of the CPUs' worth of tasks runnable: some idle, some queues */
	int load = g.runnable * 10 / g.ncpus;
	unsigned int pw = load < 5 ? 550 : load < 7 ? 420 : load < 12 ? 300 : 120;
	unsigned int r;

	if (!c->curr) {
		if (g.nsleeping && chance(600))
			step_wake(cpu);
		return;
	}
	r = rnd_below(1000);
	if (r < pw) {
		if (g.nsleeping)
			step_wake(cpu);
	} else if (r < pw + 20) {
		if (g.live < g.ntasks + g.ntasks / 20 + 1 && g.next_pid < MAX_PID)
			step_fork(cpu);
	} else if (r < pw + 30) {
		step_exec(cpu);
	} else if (r < pw + 50) {
		if (g.live > g.ntasks - g.ntasks / 20)
			step_exit(cpu);
	} else if (r < pw + 200 && c->nq) {
		switch_out(cpu, 0);	/* preempted */
	} else {
		switch_out(cpu, 1);	/* S */
	}
}

/* ---- the start: markers, one switch to idle per CPU ---------------------------------- */

static void snapshot(void)
{
	struct rq_marker m = { .kind = RQ_MARK_KERNEL, .cpus = g.ncpus };

	snprintf(m.release, sizeof(m.release), "6.18.0-gen");
	rec_marker(&m);
	for (int cpu = 0; cpu < g.ncpus; cpu++) {
		m = (struct rq_marker){ .kind = RQ_MARK_CPU, .cpu = cpu, .core = cpu,
					.llc = g.cpus[cpu].llc, .node = 0 };
		strcpy(m.llc_src, "cache");
		rec_marker(&m);
	}
	for (int i = 0; i < g.ntasks; i++) {
		struct task *t = new_task();
		unsigned int r = rnd_below(1000);

		/* the first ones run on each CPU at the start: known fair tasks */
		t->policy = i < g.ncpus ? POL_NORMAL : r < 150 ? POL_IDLE : r < 200 ? POL_BATCH :
			    r < 220 ? POL_UNKNOWN : POL_NORMAL;
		r = rnd_below(1000);
		t->mask_known = i < g.ncpus || r >= 20;
		t->pin = i >= g.ncpus && r >= 20 && r < 50 ? (int)rnd_below((unsigned int)g.ncpus) :
			 -1;
		t->cpu = i < g.ncpus ? i : t->pin >= 0 ? t->pin : (int)rnd_below((unsigned int)g.ncpus);
		t->state = TS_SLEEPING;
		name_task(t, t->policy == POL_IDLE ? "bg" : "app");
		m = (struct rq_marker){ .kind = RQ_MARK_TASK, .pid = t->pid, .tgid = t->pid,
					.policy = t->policy };
		if (!t->mask_known)
			strcpy(m.cpulist, "?");
		else if (t->pin >= 0)
			snprintf(m.cpulist, sizeof(m.cpulist), "%d", t->pin);
		else
			snprintf(m.cpulist, sizeof(m.cpulist), "0-%d", g.ncpus - 1);
		strcpy(m.comm, t->comm);
		rec_marker(&m);
	}
	m = (struct rq_marker){ .kind = RQ_MARK_SNAPSHOT_DONE, .ntasks = g.ntasks };
	rec_marker(&m);
	/* each CPU: its first task blocks and the CPU goes idle (runqueue known) */
	for (int cpu = 0; cpu < g.ncpus; cpu++) {
		struct task *t = task_of(FIRST_PID + cpu);

		g.cpus[cpu].curr = t->pid;
		t->state = TS_RUNNING;
		g.runnable++;
		do_switch(cpu, 1, 0);
	}
	for (int i = g.ncpus; i < g.ntasks; i++)
		sleeping_add(task_of(FIRST_PID + i));
}

/* ---- output ------------------------------------------------------------------------ */

static void finish_file(void)
{
	struct rq_tdw_format events[] = {
		{ "sched", "sched_switch", fmt_switch, sizeof(fmt_switch) - 1 },
		{ "sched", "sched_waking", fmt_waking, sizeof(fmt_waking) - 1 },
		{ "sched", "sched_wakeup", fmt_wakeup, sizeof(fmt_wakeup) - 1 },
		{ "sched", "sched_wakeup_new", fmt_wakeup_new, sizeof(fmt_wakeup_new) - 1 },
		{ "sched", "sched_migrate_task", fmt_migrate, sizeof(fmt_migrate) - 1 },
		{ "sched", "sched_process_fork", fmt_fork, sizeof(fmt_fork) - 1 },
		{ "sched", "sched_process_exit", fmt_exit, sizeof(fmt_exit) - 1 },
		{ "sched", "sched_process_exec", fmt_exec, sizeof(fmt_exec) - 1 },
		{ "cgroup", "cgroup_attach_task", fmt_cgroup_attach, sizeof(fmt_cgroup_attach) - 1 },
		/* one run of the system: the writer takes a run of equal names as one */
		{ "syscalls", "sys_enter_sched_setaffinity", fmt_setaff_enter,
		  sizeof(fmt_setaff_enter) - 1 },
		{ "syscalls", "sys_exit_sched_setaffinity", fmt_setaff_exit,
		  sizeof(fmt_setaff_exit) - 1 },
		/* the four policy syscalls: --no-policy-syscalls leaves them out */
		{ "syscalls", "sys_enter_sched_setscheduler", fmt_setsched_enter,
		  sizeof(fmt_setsched_enter) - 1 },
		{ "syscalls", "sys_exit_sched_setscheduler", fmt_setsched_exit,
		  sizeof(fmt_setsched_exit) - 1 },
		{ "syscalls", "sys_enter_sched_setattr", fmt_setattr_enter,
		  sizeof(fmt_setattr_enter) - 1 },
		{ "syscalls", "sys_exit_sched_setattr", fmt_setattr_exit,
		  sizeof(fmt_setattr_exit) - 1 },
		/* last: rqpath:truth, only with its buffer (--truth-on-rq) */
		{ RQ_TRUTH_SYSTEM, RQ_TRUTH_EVENT, g.truth_fmt, g.truth_fmt_len },
	};
	int nr_events = (int)(sizeof(events) / sizeof(events[0]));
	struct rq_tdw_format truth = events[nr_events - 1];

	/* without truth the last goes; without the policy syscalls the four before it */
	nr_events -= 1;
	if (g.no_policy_syscalls)
		nr_events -= 4;
	if (g.truth_fmt)
		events[nr_events++] = truth;
	struct rq_tdw_format ftrace[] = {
		{ "ftrace", "print", fmt_print, sizeof(fmt_print) - 1 },
	};
	char **stats = xcalloc((size_t)g.ncpus, sizeof(char *));
	struct rq_tdw_meta m = {
		TDHDR_META_HEADERS,
		.ftrace = ftrace, .nr_ftrace = 1,
		.events = events, .nr_events = nr_events,
		.uname = "Linux gen 6.18.0-gen #1 SMP x86_64",
		.trace_clock = "[local] global counter mono", .clock_name = "local",
		.cpustats = stats, .version = "rqpath gen_trace",
	};
	char err[512];
	uint64_t bytes;
	int ret;

	for (int cpu = 0; cpu < g.ncpus; cpu++)
		page_flush(cpu);
	ret = rq_tdw_finish(g.w, &m, &bytes, err, sizeof(err));
	if (ret)
		die("%s", err);
	rq_tdw_close(g.w);
	free(stats);
}

static void write_expect(void)
{
	char path[4096];
	FILE *f;

	if (g.expect)
		snprintf(path, sizeof(path), "%s", g.expect);
	else
		snprintf(path, sizeof(path), "%s.expect.json", g.out);
	f = fopen(path, "w");
	if (!f)
		die("cannot write %s: %s", path, strerror(errno));
	fprintf(f, "{\n  \"generator\": {\"cpus\": %d, \"llcs\": %d, \"tasks\": %d, "
		"\"seed\": %llu, \"file_version\": %d, \"policy_syscalls\": %s},\n", g.ncpus,
		g.nllc, g.ntasks, (unsigned long long)g.seed, g.version,
		g.no_policy_syscalls ? "false" : "true");
	/* every record of the file, the truth buffer's too */
	fprintf(f, "  \"events\": %llu,\n  \"counts\": {",
		(unsigned long long)(g.emitted + g.truth_records));
	for (int i = 0; i < C__COUNT; i++)
		if (count_name[i])
			fprintf(f, "%s\"%s\": %llu", i ? ", " : "", count_name[i],
				(unsigned long long)g.counts[i]);
	fprintf(f, "},\n  \"findings\": {\n");
	for (int i = 0; i < F__COUNT; i++) {
		const struct verdicts *v = &g.v[i];

		fprintf(f, "    \"%s\": {\"count\": %llu, \"exact\": %llu, \"inferred\": %llu, "
			"\"possible\": %llu, \"not_judged\": %llu, \"judged\": %llu",
			finding_name[i], (unsigned long long)v->count,
			(unsigned long long)v->exact, (unsigned long long)v->inferred,
			(unsigned long long)v->possible, (unsigned long long)v->not_judged,
			(unsigned long long)v->judged);
		if (i == F_NEEDLESS)
			fprintf(f, ", \"unknown\": %llu", (unsigned long long)v->unknown);
		if (i == F_OFFCPU)
			fprintf(f, ", \"of\": %llu", (unsigned long long)v->of);
		if (g.truth_on_rq)
			fprintf(f, ", \"no_selection\": %llu", (unsigned long long)v->no_selection);
		fprintf(f, "}%s\n", i + 1 < F__COUNT ? "," : "");
	}
	fprintf(f, "  }\n}\n");
	if (fclose(f))
		die("cannot write %s: %s", path, strerror(errno));
}

static uint64_t parse_num(const char *s, const char *what)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	/* 100M, 10k, 1e8 */
	if (*end == 'k' || *end == 'K')
		v *= 1e3, end++;
	else if (*end == 'M')
		v *= 1e6, end++;
	else if (*end == 'G')
		v *= 1e9, end++;
	if (errno || *end || v < 0 || v > 1e12)
		die("bad %s: %s", what, s);
	return (uint64_t)v;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpus", required_argument, NULL, 'c' },
		{ "llcs", required_argument, NULL, 'l' },
		{ "tasks", required_argument, NULL, 't' },
		{ "events", required_argument, NULL, 'e' },
		{ "seed", required_argument, NULL, 's' },
		{ "file-version", required_argument, NULL, 'v' },
		{ "expect", required_argument, NULL, 'x' },
		{ "spacing", required_argument, NULL, 'p' },
		{ "truth-on-rq", required_argument, NULL, 'r' },
		{ "no-policy-syscalls", no_argument, NULL, 'P' },
		{ "truth-not-delayed", no_argument, NULL, 'D' },
		{ NULL, 0, NULL, 0 },
	};
	char err[512];
	int opt;

	g.ncpus = 2;
	g.nllc = 1;
	g.ntasks = 100;
	g.nevents = 100000;
	g.seed = 1;
	g.version = 7;
	while ((opt = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
		switch (opt) {
		case 'o': g.out = optarg; break;
		case 'c': g.ncpus = (int)parse_num(optarg, "--cpus"); break;
		case 'l': g.nllc = (int)parse_num(optarg, "--llcs"); break;
		case 't': g.ntasks = (int)parse_num(optarg, "--tasks"); break;
		case 'e': g.nevents = parse_num(optarg, "--events"); break;
		case 's': g.seed = parse_num(optarg, "--seed"); break;
		case 'v': g.version = (int)parse_num(optarg, "--file-version"); break;
		case 'x': g.expect = optarg; break;
		case 'p': g.spacing = parse_num(optarg, "--spacing"); break;
		case 'r': g.truth_on_rq = (unsigned int)parse_num(optarg, "--truth-on-rq"); break;
		case 'P': g.no_policy_syscalls = true; break;
		case 'D': g.truth_not_delayed = true; break;
		default:
			fprintf(stderr, "usage: gen_trace -o FILE [--cpus N] [--llcs L] [--tasks T] "
				"[--events M] [--seed S] [--file-version 6|7] [--expect FILE] "
				"[--spacing NS] [--truth-on-rq PER_MILLE] [--truth-not-delayed] "
				"[--no-policy-syscalls]\n");
			return 2;
		}
	}
	if (!g.out || optind != argc)
		die("usage: gen_trace -o FILE [options] (gen_trace --help)");
	if (g.ncpus < 1 || g.ncpus > 4096 || g.nllc < 1 || g.nllc > g.ncpus)
		die("--cpus 1..4096 and --llcs 1..cpus");
	if (g.ntasks < g.ncpus + 1 || g.ntasks > 2000000)
		die("--tasks from cpus + 1 to 2000000");
	if (g.version != 6 && g.version != 7)
		die("--file-version 6 or 7");
	if (g.truth_on_rq > 1000)
		die("--truth-on-rq 0..1000 (per mille)");
	/* about one event per 20 us on each CPU */
	if (!g.spacing)
		g.spacing = 20000 / (uint64_t)g.ncpus > 20 ? 20000 / (uint64_t)g.ncpus : 20;
	g.rng = g.seed * 0x9E3779B97F4A7C15ULL + 1;
	g.llc_size = (g.ncpus + g.nllc - 1) / g.nllc;
	g.cpus = xcalloc((size_t)g.ncpus, sizeof(*g.cpus));
	g.llc_idle = xcalloc((size_t)g.ncpus, sizeof(int));
	for (int cpu = 0; cpu < g.ncpus; cpu++)
		g.cpus[cpu].llc = cpu / g.llc_size * g.llc_size;
	g.tasks_cap = g.ntasks * 2;
	g.tasks = xcalloc((size_t)g.tasks_cap, sizeof(*g.tasks));
	g.next_pid = FIRST_PID;
	g.sleeping = xcalloc((size_t)MAX_PID, sizeof(int));
	g.page = xcalloc((size_t)g.ncpus, PAGE_SIZE);
	g.page_pos = xcalloc((size_t)g.ncpus, sizeof(uint32_t));
	g.page_last = xcalloc((size_t)g.ncpus, sizeof(uint64_t));
	g.page_open = xcalloc((size_t)g.ncpus, sizeof(bool));
	g.ts = 1000000000ULL;
	g.w = rq_tdw_open(g.out, RQ_OUT_REPLACE, 0644, g.version, g.ncpus, PAGE_SIZE, err,
			  sizeof(err));
	if (!g.w)
		die("%s", err);
	if (g.truth_on_rq) {
		/* an event id after every other; the common fields as the kernel's formats have */
		g.truth_id = ID_CGROUP_ATTACH + 1;
		g.truth_fmt = rq_truth_format(g.truth_id, fmt_switch, &g.truth_fmt_len,
					      &g.truth_hdr);
		if (!g.truth_fmt || rq_tdw_add_instance(g.w, RQ_TRUTH_BUFFER) < 0)
			die("out of memory");
	}
	snapshot();
	while (g.emitted < g.nevents)
		step();
	finish_file();
	write_expect();
	return 0;
}
