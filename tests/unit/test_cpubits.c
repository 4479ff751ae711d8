// SPDX-License-Identifier: GPL-2.0
/*
 * test_cpubits.c - the idle and busy bitmaps kept between events (cpubits.c) against the
 * visit of every CPU they replace: random event streams (switches that contradict the
 * model, repairs from common_pid, lost events, markers changing policies, forks reusing
 * pids, exits and frees until tasks are evicted), and after every event the bits, each
 * CPU's curr_task (and its copy of that task's class) and each task's count of CPUs naming
 * it, and the snapshot a waking of a random task would take, all equal to what the rules
 * compute from scratch.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "classify.h"
#include "cpubits.h"
#include "model.h"
#include "synth.h"

#define NCPUS 70	/* two words, the second partly used */
#define NPIDS 60	/* most events: few pids, reused often */
#define NPIDS_WIDE 6000	/* some: enough dead tasks for the oldest to be evicted */

static uint64_t rng = 88172645463325252ULL;

static unsigned int rnd(unsigned int n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned int)(rng % n);
}

static int rnd_pid(void)
{
	return 1 + (int)rnd(rnd(3) ? NPIDS : NPIDS_WIDE);
}

/* The rules of a CPU's bits, from scratch (the visit of every CPU that cpubits.c replaces). */
static void brute(const struct rq_analysis *an, const struct rq_task *t, unsigned long *idle,
		  unsigned long *busy, unsigned long *unknown)
{
	memset(idle, 0, rqe_mask_longs(an) * sizeof(unsigned long));
	memset(busy, 0, rqe_mask_longs(an) * sizeof(unsigned long));
	memset(unknown, 0, rqe_mask_longs(an) * sizeof(unsigned long));
	for (int cpu = 0; cpu < an->nr_cpus; cpu++) {
		const struct rq_cpu *c = &an->cpus[cpu];
		unsigned int ignored = 0;
		struct cpu_look l;

		if (rqe_cpu_unknown(c)) {
			rqe_bit_set(unknown, cpu);
			continue;
		}
		if (!c->known) {
			if (rqe_runner_busy(an, cpu, t, &l))
				rqe_bit_set(busy, cpu);
			continue;
		}
		if (c->curr == 0) {
			if (!c->nqueued && !c->ndelayed && !c->pending_wakeups) {
				rqe_bit_set(idle, cpu);
				continue;
			}
		} else if (!t || c->curr != t->pid) {
			const struct rq_task *q = rqe_task_find(an, c->curr);

			if (!q || !rqe_task_is_idle_class(q)) {
				rqe_bit_set(busy, cpu);
				continue;
			}
		}
		rqe_look_cpu_scan(an, cpu, t, &l, true);
		if (l.known && rqe_look_busy(&l, &ignored))
			rqe_bit_set(busy, cpu);
	}
}

static int check_task(const struct rq_task *t, void *data)
{
	const struct rq_analysis *an = data;
	int n = 0;

	for (int cpu = 0; cpu < an->nr_cpus; cpu++)
		if (an->cpus[cpu].curr_task == t)
			n++;
	assert_int_equal(t->ncurr, n);
	if (n)
		assert_ptr_equal(an->cpus[t->curr_cpu].curr_task, t);
	return 0;
}

static void check(struct rq_analysis *an, bool every_task)
{
	unsigned long idle[2], busy[2], unknown[2], sidle[2], sbusy[2], sunknown[2];
	int unresolved = 0;
	struct rq_task *t;

	for (int cpu = 0; cpu < an->nr_cpus; cpu++) {
		const struct rq_cpu *c = &an->cpus[cpu];

		assert_ptr_equal(c->curr_task, c->curr > 0 ? rqe_task_find(an, c->curr) : NULL);
		unresolved += c->curr > 0 && !c->curr_task;
		if (c->curr_task)
			check_task(c->curr_task, an);
		/* the copies of the runner's class and of idle_repairs != 0 */
		assert_int_equal(c->curr_idle_class,
				 c->curr_task && rqe_task_is_idle_class(c->curr_task));
		assert_int_equal(c->curr_policy_known,
				 c->curr_task && c->curr_task->policy != RQ_POLICY_UNKNOWN);
		assert_int_equal(c->idle_repaired, c->idle_repairs != 0);
	}
	assert_int_equal(an->bits.nunresolved, unresolved);
	/* the tasks no CPU names: now and then (thousands of them) */
	if (every_task)
		rqe_task_foreach(an, check_task, an);
	rqe_cpubits_flush(an);
	brute(an, NULL, idle, busy, unknown);
	assert_memory_equal(idle, an->bits.idle_bits, sizeof(idle));
	assert_memory_equal(busy, an->bits.busy_bits, sizeof(busy));
	assert_memory_equal(unknown, an->bits.unknown_bits, sizeof(unknown));
	/* a waking of some task: its own CPUs without it */
	t = rqe_task_find(an, 1 + (int)rnd(NPIDS));
	if (t) {
		check_task(t, an);
		brute(an, t, idle, busy, unknown);
		rqe_snapshot_cpus(an, t, sidle, sbusy, sunknown);
		assert_memory_equal(idle, sidle, sizeof(idle));
		assert_memory_equal(busy, sbusy, sizeof(busy));
		assert_memory_equal(unknown, sunknown, sizeof(unknown));
	}
}

static void marker(struct rq_analysis *an, uint64_t ts, int pid, int policy)
{
	char buf[128];

	snprintf(buf, sizeof(buf), "task pid=%d tgid=%d policy=%d cpus=0-%d idle_cg=%d comm=t",
		 pid, pid, policy, NCPUS - 1, (int)rnd(8) == 0);
	ev_marker(an, ts, buf);
}

static void random_stream(void **state)
{
	struct rq_analysis *an = synth_new(NCPUS, "6.18.0");
	uint64_t ts = 1000;
	static const long long states[] = { 0, 1, 2, 0x20, 0x100 };

	assert_non_null(an);
	ev_marker(an, ts, "kernel release=6.18.0 cpus=70");
	for (int cpu = 0; cpu < NCPUS; cpu++) {
		char buf[128];

		snprintf(buf, sizeof(buf), "cpu cpu=%d core=%d llc=%d node=0 llc_src=cache", cpu,
			 cpu, cpu / 16 * 16);
		ev_marker(an, ++ts, buf);
	}
	for (int i = 0; i < 80000; i++) {
		int cpu = (int)rnd(NCPUS), pid = rnd_pid(), other = rnd_pid();
		int r = (int)rnd(100);
		int curr = an->cpus[cpu].curr;

		ts += 1 + rnd(200000);
		if (r < 30) {
			/* mostly the model's prev, sometimes not (a switch missing) */
			int prev = rnd(5) && curr >= 0 ? curr : rnd_pid() - 1;

			ev_switch(an, ts, cpu, prev, states[rnd(5)], rnd(4) ? pid : 0, "t");
		} else if (r < 45) {
			ev_waking(an, ts, cpu, rnd(3) ? (curr > 0 ? curr : 0) : other, pid,
				  (int)rnd(NCPUS));
			if (rnd(3) == 0)
				ev_migrate(an, ++ts, cpu, curr > 0 ? curr : 0, 0, pid, 120,
					   (int)rnd(NCPUS), (int)rnd(NCPUS));
			ev_wakeup(an, ++ts, cpu, curr > 0 ? curr : 0, pid, (int)rnd(NCPUS));
		} else if (r < 52) {
			ev_wakeup_new(an, ts, cpu, other, pid, (int)rnd(NCPUS));
		} else if (r < 58) {
			ev_fork(an, ts, cpu, other, pid);
		} else if (r < 64) {
			ev_simple(an, ts, cpu, RQ_EV_EXIT, pid, pid, 0);
		} else if (r < 72) {
			ev_simple(an, ts, cpu, RQ_EV_FREE, other, pid, 0);
		} else if (r < 80) {
			marker(an, ts, pid, rnd(3) ? 5 : (int)rnd(2) * 3 - 1);
		} else if (r < 82) {
			feed(an, (struct rq_event){ .ts = ts, .type = RQ_EV_LOST, .cpu = cpu,
						    .arg = 3 });
		} else if (r < 84) {
			ev_simple(an, ts, cpu, RQ_EV_CGROUP_ATTACH, other, pid, 0);
		} else if (r < 86) {
			ev_simple(an, ts, cpu, RQ_EV_SETSCHED_ENTER, other, pid, rnd(2) ? 5 : 0);
			ev_simple(an, ++ts, cpu, RQ_EV_SETSCHED_EXIT, other, 0, 0);
		} else {
			/* any other record: repairs curr from its writer */
			ev_simple(an, ts, cpu, RQ_EV_EXEC, rnd(4) ? pid : 0, pid, 0);
		}
		check(an, i % 1000 == 999);
	}
	/* the stream evicted tasks, and CPUs named tasks that were reused and evicted */
	assert_true(an->tasks.nr_tasks_evicted > 0);
	rq_analysis_free(an);
	(void)state;
}

/*
 * struct rq_cpu keeps its placement counts in 32 bits, the rest beside them (to fit its
 * first cache line): the count goes on past 2^32, and the summary says it whole.
 */
static void placements_past_32_bits(void **state)
{
	struct rq_analysis *an = synth_new(2, "6.18.0");
	const struct rq_summary *s;

	assert_non_null(an);
	an->cpus[1].placements_in = UINT32_MAX;
	an->cpus[1].placements_in_hi = 2;
	an->cpus[1].placements_out = UINT32_MAX - 1;
	rqe_count32(&an->cpus[1].placements_in, &an->cpus[1].placements_in_hi);
	rqe_count32(&an->cpus[1].placements_out, &an->cpus[1].placements_out_hi);
	s = rq_analysis_summary(an);
	assert_true(s->cpus[1].placements_in == 3ULL << 32);
	assert_true(s->cpus[1].placements_out == UINT32_MAX);
	rq_analysis_free(an);
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(random_stream),
		cmocka_unit_test(placements_past_32_bits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
