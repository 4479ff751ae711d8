// SPDX-License-Identifier: GPL-2.0
/*
 * truth.bpf.c - the kernel's own scheduler state at each placement, read by
 * tp_btf programs (the only BPF attach type that works on every kernel rqpath targets:
 * kprobes, fentry and function tracing may be off) into a BPF ring buffer as struct
 * rq_truth_rec (src/base/truth.h), one per sched_waking,
 * sched_process_fork (the child), sched_wakeup_new and sched_process_exec.
 *
 * The runqueues: the `runqueues` per-CPU symbol does not resolve on every kernel, so
 * each CPU's struct rq is learnt at its first sched_switch, from prev->se.cfs_rq->rq,
 * into rq_of[]; a CPU whose rq was not seen yet is RQ_TRUTH_RQ_UNKNOWN in the record.
 *
 * CO-RE: the reads of the task and of a runqueue are truth_read.h's, shared with the
 * test that runs them against other kernels' layouts: integers read at the running
 * kernel's size (core_read.h), fields that moved between kernels through
 * bpf_core_field_exists() and ___flavours.
 *
 * Size: a record is a prefix of struct rq_truth_rec, cut after the entries its LLCs can
 * need (two LLCs, rounded up to 4, 16 or 64: the reserve size must be a constant); each
 * entry names its CPU; user space copies it into a whole, zeroed struct.  The cost of a
 * record grows with the LLC, not with the machine (up to RQ_TRUTH_CPUS_LIMIT CPUs).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>

#include "truth.h"
#include "core_read.h"
#include "truth_read.h"

char LICENSE[] SEC("license") = "GPL";

/* Set by the loader before load (truth_bpf.c set_llcs()): the machine's CPUs (at most
 * RQ_TRUTH_CPUS_LIMIT; cut: it has more), the entries a record holds (4, 16 or 64), the
 * mask words, and each CPU's LLC as a run of llc_members (start | length << 16). */
const volatile __u32 nr_cpus = 1;
const volatile __u32 cut = 0;
const volatile __u32 rec_entries = 4;
const volatile __u32 mask_words = 1;
const volatile __u16 llc_members[RQ_TRUTH_CPUS_LIMIT];
const volatile __u32 llc_span[RQ_TRUTH_CPUS_LIMIT];

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 24);	/* the loader sets the size */
} truth_rb SEC(".maps");

/* Each CPU's struct rq, learnt at its sched_switch (0: not yet). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, RQ_TRUTH_CPUS_LIMIT);
	__type(key, __u32);
	__type(value, __u64);
} rq_of SEC(".maps");

/* [0]: records the ring buffer had no room for, [1]: records written. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

static __always_inline void count(__u32 which)
{
	__u64 *n = bpf_map_lookup_elem(&counts, &which);

	if (n)
		(*n)++;
}

/* CPU c's entry of r at slot i: its runqueue's state, or unknown before its first switch */
static __always_inline void fill_one(struct rq_truth_rec *r, __u32 i, __u32 c)
{
	__u64 *slot = bpf_map_lookup_elem(&rq_of, &c);

	r->cpus[i].cpu = (__u16)c;
	if (!slot || !*slot) {
		r->cpus[i].known = RQ_TRUTH_RQ_UNKNOWN;
		return;
	}
	truth_read_rq(r, &r->cpus[i], (struct rq *)*slot);
}

/*
 * The CPUs of cpu's LLC that the task may run on, into r after its r->nr_cpus entries
 * (at most cap in all, RQ_TRUTH_CUT past that).  The count lives in the record, not in
 * a register: read back from ring buffer memory it is a number the verifier does not
 * know, so the paths of different counts are one state and two loops of 64 verify
 * (counted in a register, each count was a state of its own: over a million insns).
 */
static __always_inline void add_llc(struct rq_truth_rec *r, __u32 cpu, __u32 cap)
{
	__u32 span = llc_span[cpu & (RQ_TRUTH_CPUS_LIMIT - 1)];
	__u32 start = span & 0xffff, len = span >> 16;

	/* an LLC of more CPUs than a record holds is cut there (the rest: the model's) */
	if (len > RQ_TRUTH_MAX_CPUS) {
		len = RQ_TRUTH_MAX_CPUS;
		r->flags |= RQ_TRUTH_CUT;
	}
	for (__u32 j = 0; j < RQ_TRUTH_MAX_CPUS; j++) {
		__u32 c, n;

		if (j >= len)
			break;
		c = llc_members[(start + j) & (RQ_TRUTH_CPUS_LIMIT - 1)];
		if (!(r->mask[(c / 64) & (RQ_TRUTH_MASK_WORDS - 1)] >> (c % 64) & 1))
			continue;
		n = r->nr_cpus;
		if (n >= cap || n >= RQ_TRUTH_MAX_CPUS) {
			r->flags |= RQ_TRUTH_CUT;
			break;
		}
		fill_one(r, n, c);
		r->nr_cpus = (__u16)(n + 1);
	}
}

/*
 * The CPUs select_task_rq() can choose from at a waking or fork: wake_affine() picks
 * between task_cpu(p) and this CPU, select_idle_sibling() then scans the chosen one's
 * LLC, so the LLCs of the two (once when they are one), those the task may use.  What
 * the fork's slow path may find beyond them is the model's (an entry the record lacks is
 * unknown).  O(LLC), not O(CPUs).
 */
static __always_inline void fill_cpus(struct rq_truth_rec *r, __u32 cap)
{
	__u32 here = bpf_get_smp_processor_id(), prev = r->task_cpu;

	if (prev >= nr_cpus)
		prev = here;
	add_llc(r, prev, cap);
	if (llc_span[here & (RQ_TRUTH_CPUS_LIMIT - 1)] != llc_span[prev & (RQ_TRUTH_CPUS_LIMIT - 1)])
		add_llc(r, here, cap);
}

static __always_inline void fill_task(struct rq_truth_rec *r, struct task_struct *p)
{
	const struct cpumask *mask;
	__u32 bytes = mask_words * 8;

	truth_read_task(r, p);
	mask = BPF_CORE_READ(p, cpus_ptr);
	/* as many words as the machine has CPUs, at most RQ_TRUTH_MASK_WORDS */
	if (bytes > sizeof(r->mask))
		bytes = sizeof(r->mask);
	if (bytes)
		bpf_probe_read_kernel(r->mask, bytes, &mask->bits[0]);
	r->mask_words = (__u8)mask_words;
}

#define REC_SIZE(n) (sizeof(struct rq_truth_rec) - (RQ_TRUTH_MAX_CPUS - (n)) * \
		     sizeof(struct rq_truth_cpu))

/* One record of task p at point, into the ring buffer (or a drop counted). */
static __always_inline int emit(struct task_struct *p, __u8 point)
{
	struct rq_truth_rec *r;
	__u32 cap = rec_entries;

	/* the reserve size is a constant: the smallest of three that holds cap entries */
	if (cap <= 4) {
		cap = 4;
		r = bpf_ringbuf_reserve(&truth_rb, REC_SIZE(4), 0);
		if (r)
			__builtin_memset(r, 0, REC_SIZE(4));
	} else if (cap <= 16) {
		cap = 16;
		r = bpf_ringbuf_reserve(&truth_rb, REC_SIZE(16), 0);
		if (r)
			__builtin_memset(r, 0, REC_SIZE(16));
	} else {
		cap = RQ_TRUTH_MAX_CPUS;
		r = bpf_ringbuf_reserve(&truth_rb, REC_SIZE(RQ_TRUTH_MAX_CPUS), 0);
		if (r)
			__builtin_memset(r, 0, REC_SIZE(RQ_TRUTH_MAX_CPUS));
	}
	if (!r) {
		count(0);
		return 0;
	}
	r->ts = bpf_ktime_get_ns();
	r->cpu = (__u16)bpf_get_smp_processor_id();
	r->point = point;
	if (cut)
		r->flags |= RQ_TRUTH_CUT;
	fill_task(r, p);
	/*
	 * at an exec p is current, and on 7.2 the programs run under migrate_disable() of
	 * the tracepoint's own: its count says nothing of the task (nor of sched_exec())
	 */
	if (point == RQ_TRUTH_EXEC)
		r->flags &= ~RQ_TRUTH_MIGRATE_OFF;
	/* an exec's verdict needs the task alone (its mask and policy): no runqueue */
	if (point != RQ_TRUTH_EXEC)
		fill_cpus(r, cap);
	bpf_ringbuf_submit(r, 0);
	count(1);
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(truth_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u32 cpu = bpf_get_smp_processor_id();
	__u64 *slot = bpf_map_lookup_elem(&rq_of, &cpu);
	struct rq *rq;

	if (!slot || *slot)
		return 0;
	rq = BPF_CORE_READ(prev, se.cfs_rq, rq);
	if (!rq)
		rq = BPF_CORE_READ(next, se.cfs_rq, rq);
	if (rq)
		*slot = (__u64)rq;
	return 0;
}

SEC("tp_btf/sched_waking")
int BPF_PROG(truth_waking, struct task_struct *p)
{
	return emit(p, RQ_TRUTH_WAKING);
}

/*
 * No program at sched_wakeup: select_task_rq() decides between sched_waking and the
 * enqueue, so the waking's record is the state it read, and the judges use that one.
 * A second record per wakeup (RQ_TRUTH_WAKEUP, still read from older files) made a
 * recording 1.63-1.69x its tracepoints' size, where ~1.35x without.
 */

SEC("tp_btf/sched_process_fork")
int BPF_PROG(truth_fork, struct task_struct *parent, struct task_struct *child)
{
	return emit(child, RQ_TRUTH_FORK);
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(truth_wakeup_new, struct task_struct *p)
{
	return emit(p, RQ_TRUTH_WAKEUP_NEW);
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(truth_exec, struct task_struct *p)
{
	return emit(p, RQ_TRUTH_EXEC);
}
