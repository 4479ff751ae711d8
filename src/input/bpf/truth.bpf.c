// SPDX-License-Identifier: GPL-2.0
/*
 * truth.bpf.c - the kernel's own scheduler state at each placement (issue 21), read by
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
 * Size: a record is a prefix of struct rq_truth_rec, cut after the CPUs the machine has
 * (rounded up to 4, 16 or 64: the reserve size must be a constant); user space copies it
 * into a whole, zeroed struct.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>

#include "truth.h"
#include "core_read.h"
#include "truth_read.h"

char LICENSE[] SEC("license") = "GPL";

/* Set by the loader before load: the CPUs a record carries (1 .. RQ_TRUTH_MAX_CPUS). */
const volatile __u32 nr_cpus = 1;
/* The machine has more CPUs than a record holds. */
const volatile __u32 cut = 0;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 24);	/* the loader sets the size */
} truth_rb SEC(".maps");

/* Each CPU's struct rq, learnt at its sched_switch (0: not yet). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, RQ_TRUTH_MAX_CPUS);
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

static __always_inline void fill_cpus(struct rq_truth_rec *r, __u32 n)
{
	for (__u32 i = 0; i < RQ_TRUTH_MAX_CPUS; i++) {
		__u64 *slot;
		__u32 key = i;

		if (i >= n)
			break;
		slot = bpf_map_lookup_elem(&rq_of, &key);
		if (!slot || !*slot) {
			r->cpus[i].known = RQ_TRUTH_RQ_UNKNOWN;
			continue;
		}
		truth_read_rq(r, &r->cpus[i], (struct rq *)*slot);
	}
}

static __always_inline void fill_task(struct rq_truth_rec *r, struct task_struct *p)
{
	const struct cpumask *mask;

	truth_read_task(r, p);
	mask = BPF_CORE_READ(p, cpus_ptr);
	/* as many words as the machine has CPUs, at most RQ_TRUTH_MASK_WORDS */
	bpf_probe_read_kernel(&r->mask[0], sizeof(r->mask[0]), &mask->bits[0]);
	if (nr_cpus > 64 || cut) {
		bpf_probe_read_kernel(&r->mask[1], sizeof(r->mask[0]), &mask->bits[1]);
		bpf_probe_read_kernel(&r->mask[2], sizeof(r->mask[0]), &mask->bits[2]);
		bpf_probe_read_kernel(&r->mask[3], sizeof(r->mask[0]), &mask->bits[3]);
	}
}

#define REC_SIZE(n) (sizeof(struct rq_truth_rec) - (RQ_TRUTH_MAX_CPUS - (n)) * \
		     sizeof(struct rq_truth_cpu))

/* One record of task p at point, into the ring buffer (or a drop counted). */
static __always_inline int emit(struct task_struct *p, __u8 point)
{
	struct rq_truth_rec *r;
	__u32 n = nr_cpus;

	/* the reserve size is a constant: the smallest of three that holds n CPUs */
	if (n <= 4) {
		r = bpf_ringbuf_reserve(&truth_rb, REC_SIZE(4), 0);
		if (r)
			__builtin_memset(r, 0, REC_SIZE(4));
	} else if (n <= 16) {
		r = bpf_ringbuf_reserve(&truth_rb, REC_SIZE(16), 0);
		if (r)
			__builtin_memset(r, 0, REC_SIZE(16));
	} else {
		r = bpf_ringbuf_reserve(&truth_rb, REC_SIZE(64), 0);
		if (r)
			__builtin_memset(r, 0, REC_SIZE(64));
	}
	if (!r) {
		count(0);
		return 0;
	}
	r->ts = bpf_ktime_get_ns();
	r->cpu = (__u16)bpf_get_smp_processor_id();
	r->point = point;
	r->nr_cpus = (__u16)n;
	if (cut)
		r->flags |= RQ_TRUTH_CUT;
	fill_task(r, p);
	fill_cpus(r, n);
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
 * recording 1.63-1.69x its tracepoints' size, where ~1.35x without (issue 21 item 5).
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
