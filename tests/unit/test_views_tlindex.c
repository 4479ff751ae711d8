// SPDX-License-Identifier: GPL-2.0
/*
 * test_views_tlindex.c - the timeline's index (views/tlindex.c) against the engine it is
 * fed from: what ran on a CPU at an instant and what waited in its runqueue come from
 * one model, so a task is never shown running and queued on the same CPU at once.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "synth.h"
#include "tlindex.h"

#define US 1000ULL

/* Who the index shows on cpu at ts (-1: nothing), and what it shows queued there. */
static int run_pid(const struct tl_index *x, int cpu, uint64_t ts)
{
	size_t i;
	const struct tl_run *r = tl_run_at(x, cpu, ts, &i);

	return r ? r->pid : -1;
}

static void record(struct rq_analysis *an, uint64_t ts, int cpu, int writer, unsigned flags)
{
	feed(an, (struct rq_event){ .ts = ts, .type = RQ_EV_OTHER, .cpu = cpu,
				    .common_pid = writer, .flags = (uint8_t)flags });
}

/*
 * 900 is woken onto idle CPU 1; its switch in is missing.  A record it writes there in
 * NMI context is no proof (rqpath-paths(7), Model repair): 900 stays queued.  Its first
 * record in hard interrupt context is: the interrupt's common_pid is the task it
 * interrupted.  The timeline shows the engine's runs: CPU 1 idle with 900 queued, then
 * 900 running and nothing queued; never 900 running and queued.
 */
static void runs_start_where_the_engine_says(void **state)
{
	struct rq_analysis *an = synth_new(2, "6.18");
	struct tl_index *x = tl_index_new();
	int first, q;

	assert_non_null(an);
	assert_non_null(x);
	tl_index_attach(x, an);
	ev_switch(an, 1 * MS, 0, 50, 1, 0, NULL);
	ev_switch(an, 1 * MS, 1, 51, 1, 0, NULL);
	ev_switch(an, 2 * MS, 0, 0, 0, 900, "t");
	ev_switch(an, 3 * MS, 0, 900, 1, 0, NULL);		/* 900 blocks on CPU 0 */
	ev_waking(an, 4 * MS, 0, 0, 900, 0);
	ev_wakeup(an, 4 * MS + 2 * US, 0, 0, 900, 1);		/* woken onto idle CPU 1 */
	record(an, 5 * MS, 1, 900, RQ_FLAG_NMI);		/* no switch in: NMI first */
	record(an, 7 * MS, 1, 900, RQ_FLAG_HARDIRQ);		/* then an interrupt */
	record(an, 7 * MS + 10 * US, 1, 900, 0);		/* task context */
	record(an, 9 * MS, 0, 0, 0);
	tl_index_complete(x);

	q = tl_queued_before(x, 1, 6 * MS, &first);
	assert_int_equal(q, 1);
	assert_int_equal(first, 900);
	assert_int_not_equal(run_pid(x, 1, 6 * MS), 900);
	assert_int_equal(run_pid(x, 1, 6 * MS), 0);
	assert_int_equal(rq_analysis_curr(an, 1), 900);
	/* from its first record in interrupt context it runs, and waits no more */
	q = tl_queued_before(x, 1, 8 * MS, &first);
	assert_int_equal(q, 0);
	assert_int_equal(run_pid(x, 1, 8 * MS), 900);

	tl_index_detach(x, an);
	tl_index_free(x);
	rq_analysis_free(an);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(runs_start_where_the_engine_says),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
