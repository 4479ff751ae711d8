/* SPDX-License-Identifier: GPL-2.0 */
/*
 * truth_read.h - what truth.bpf.c reads of a task_struct and of a struct rq, in a header
 * so that tests/bpf/layout.bpf.c runs these very reads against other kernels' layouts
 * (tests/live/t_truth_layout.sh): a read changed back to BPF_CORE_READ fails there.
 *
 * Every integer is read with RQ_CORE_READ_INT() (core_read.h: the target's offset and
 * size, zero- or sign-extended), pointers with BPF_CORE_READ.  Fields that moved between
 * kernels are read through bpf_core_field_exists() with the old names as ___flavours;
 * one that this kernel lacks stays 0 and its flag (RQ_TRUTH_NO_*) says so.
 *
 * Needs vmlinux.h (or the test's types), truth.h and core_read.h before it.
 */
#ifndef RQPATH_BPF_TRUTH_READ_H
#define RQPATH_BPF_TRUTH_READ_H

/* cfs_rq before 6.14 (the SCHED_IDLE count's old name) */
struct cfs_rq___old {
	unsigned int idle_h_nr_running;
} __attribute__((preserve_access_index));

/* sched_entity before 6.12 had no delayed dequeue */
struct sched_entity___new {
	unsigned char sched_delayed;
} __attribute__((preserve_access_index));

/* u64 in: a count read from a field wider than vmlinux.h's saturates, not wraps */
static __always_inline __u8 sat(__u64 v)
{
	return v > 255 ? 255 : (__u8)v;
}

/* The SCHED_IDLE entities of a cfs_rq, under either name; -1 when neither exists. */
static __always_inline long long idle_count(struct cfs_rq *cfs)
{
	if (bpf_core_field_exists(cfs->h_nr_idle))
		return RQ_CORE_READ_INT(cfs, h_nr_idle);
	if (bpf_core_field_exists(((struct cfs_rq___old *)cfs)->idle_h_nr_running))
		return RQ_CORE_READ_INT((struct cfs_rq___old *)cfs, idle_h_nr_running);
	return -1;
}

/* Task p's own state into r (all but its cpus_ptr mask). */
static __always_inline void truth_read_task(struct rq_truth_rec *r, struct task_struct *p)
{
	r->pid = RQ_CORE_READ_INT(p, pid);
	r->policy = RQ_CORE_READ_INT(p, policy);
	r->nr_cpus_allowed = RQ_CORE_READ_INT(p, nr_cpus_allowed);
	if (bpf_core_field_exists(p->thread_info.cpu))
		r->task_cpu = RQ_CORE_READ_INT(p, thread_info.cpu);
	/* 7.2: a u8 on_rq and the u8 is_blocked beside it (the bug this header fixes) */
	if (RQ_CORE_READ_INT(p, on_rq))
		r->flags |= RQ_TRUTH_ON_RQ;
	if (bpf_core_field_exists(((struct sched_entity___new *)&p->se)->sched_delayed)) {
		if (RQ_CORE_READ_INT((struct sched_entity___new *)&p->se, sched_delayed))
			r->flags |= RQ_TRUTH_DELAYED;
	} else {
		r->flags |= RQ_TRUTH_NO_DELAYED;
	}
	if (bpf_core_field_exists(p->migration_disabled) &&
	    RQ_CORE_READ_INT(p, migration_disabled))
		r->flags |= RQ_TRUTH_MIGRATE_OFF;
}

/* One CPU's runqueue rq into c (a flag of r when this kernel has no SCHED_IDLE count). */
static __always_inline void truth_read_rq(struct rq_truth_rec *r, struct rq_truth_cpu *c,
					  struct rq *rq)
{
	struct task_struct *curr;
	long long idle;

	c->known = RQ_TRUTH_RQ_KNOWN;
	c->nr_running = sat(RQ_CORE_READ_INT(rq, nr_running));
	c->ttwu_pending = sat(RQ_CORE_READ_INT(rq, ttwu_pending));
	idle = idle_count(&rq->cfs);
	if (idle < 0)
		r->flags |= RQ_TRUTH_NO_IDLE_COUNT;
	else
		c->h_nr_idle = sat(idle);
	curr = BPF_CORE_READ(rq, curr);
	c->curr_pid = RQ_CORE_READ_INT(curr, pid);
	c->curr_policy = (__u8)RQ_CORE_READ_INT(curr, policy);
}

#endif
