// SPDX-License-Identifier: GPL-2.0
/*
 * test_delay.c - the queue-delay quantile sketch (src/engine/delay.c): exact while small, within
 * 2 % (it promises 1 %) at p50/p90/p99 on large skewed samples, merge equal to adding
 * the values, bounded memory; and the delay of a placement from synthetic events.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "delay.h"
#include "delay_store.h"
#include "model.h"
#include "synth.h"

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t nearest_rank(const uint64_t *sorted, size_t n, double q)
{
	size_t r = (size_t)ceil(q * (double)n - 1e-9);

	return sorted[(r ? r : 1) - 1];
}

static void exact_when_small(void **state)
{
	struct rq_sketch s = { 0 };
	uint64_t v[RQ_SKETCH_EXACT];

	srand(1);
	for (int i = 0; i < RQ_SKETCH_EXACT; i++) {
		v[i] = (uint64_t)rand() % 1000003;
		assert_int_equal(rq_sketch_add(&s, v[i]), 0);
	}
	qsort(v, RQ_SKETCH_EXACT, sizeof(v[0]), cmp);
	assert_true(rq_sketch_is_exact(&s));
	assert_int_equal(rq_sketch_quantile(&s, 0.5), nearest_rank(v, RQ_SKETCH_EXACT, 0.5));
	assert_int_equal(rq_sketch_quantile(&s, 0.99), nearest_rank(v, RQ_SKETCH_EXACT, 0.99));
	assert_int_equal(rq_sketch_quantile(&s, 1.0), v[RQ_SKETCH_EXACT - 1]);
	assert_int_equal(s.min, v[0]);
	rq_sketch_free(&s);
}

/*
 * The bucket of a value comes from tables, not from log(): it must be the bucket of the
 * definition, floor(log_1.02(v / 64)), on every value (here: both sides of every bucket
 * boundary, every value below 2^16, and a million random ones of every magnitude).
 */
static void bucket_matches_log(void **state)
{
	uint64_t x = 1;

	for (uint64_t v = 0; v < 65536; v++)
		assert_true(rq_sketch_bucket_check(v));
	for (int b = 0; b < RQ_SKETCH_BUCKETS - RQ_SKETCH_LINEAR; b++) {
		double edge = RQ_SKETCH_LINEAR * pow(RQ_SKETCH_GAMMA, b);

		for (int64_t d = -3; d <= 3; d++)
			assert_true(rq_sketch_bucket_check((uint64_t)((int64_t)edge + d)));
	}
	for (int i = 0; i < 1000000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		assert_true(rq_sketch_bucket_check(x >> (x % 64)));
	}
	assert_true(rq_sketch_bucket_check(UINT64_MAX));
}

static void within_two_percent(void **state)
{
	const size_t n = 200000;
	uint64_t *v = malloc(n * sizeof(*v)), total = 0;
	struct rq_sketch s = { 0 }, a = { 0 }, b = { 0 };
	static const double qs[] = { 0.5, 0.9, 0.99, 0.999 };

	assert_non_null(v);
	srand(7);
	for (size_t i = 0; i < n; i++) {
		/* log-uniform from 1 ns to ~10 s: every bucket range is used */
		double e = (double)rand() / RAND_MAX * 23.0;

		v[i] = (uint64_t)exp(e);
		total += v[i];
		assert_int_equal(rq_sketch_add(&s, v[i]), 0);
		assert_int_equal(rq_sketch_add(i % 3 ? &a : &b, v[i]), 0);
	}
	assert_int_equal(rq_sketch_merge(&a, &b), 0);
	qsort(v, n, sizeof(*v), cmp);
	assert_false(rq_sketch_is_exact(&s));
	assert_int_equal(s.n, n);
	assert_int_equal(s.total, total);
	assert_int_equal(s.max, v[n - 1]);
	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		double want = (double)nearest_rank(v, n, qs[i]);

		assert_true(fabs((double)rq_sketch_quantile(&s, qs[i]) - want) <= 0.02 * want);
		/* merged halves answer as the whole */
		assert_int_equal(rq_sketch_quantile(&a, qs[i]), rq_sketch_quantile(&s, qs[i]));
	}
	free(v);
	rq_sketch_free(&s);
	rq_sketch_free(&a);
	rq_sketch_free(&b);
}

/* A wakeup at t=1000 onto CPU 1 runs at t=5000: delay 4000; a wakeup of a running task: 0. */
static void placement_delay(void **state)
{
	struct rq_analysis *an = synth_new(2, "6.18.44");
	struct rq_sketch *w;

	assert_non_null(an);
	ev_switch(an, 100, 0, 0, 0, 10, "a");	/* a runs on CPU 0 */
	ev_switch(an, 200, 1, 0, 0, 20, "b");	/* b runs on CPU 1 */
	ev_switch(an, 300, 1, 20, 1, 0, NULL);	/* b sleeps, CPU 1 idle */
	ev_waking(an, 1000, 0, 10, 20, 1);
	ev_wakeup(an, 1000, 0, 10, 20, 1);
	ev_switch(an, 5000, 1, 0, 0, 20, "b");	/* b runs: 4000 ns later */
	ev_waking(an, 6000, 0, 10, 20, 1);	/* woken while running */
	ev_wakeup(an, 6000, 0, 10, 20, 1);
	rq_analysis_finish(an);
	w = rq_delay_kind(an->delay, RQ_KIND_WAKEUP, false);
	assert_int_equal(w->n, 2);
	assert_int_equal(rq_sketch_quantile(w, 1.0), 4000);
	assert_int_equal(rq_sketch_quantile(w, 0.5), 0);
	assert_int_equal(an->delay->not_run, 0);
	rq_analysis_free(an);
}

/* The histogram puts each value in its log-scale bin, exact and folded alike. */
static void histogram_bins(void **state)
{
	for (int fold = 0; fold < 2; fold++) {
		struct rq_sketch s = { 0 };
		uint64_t c[16];

		rq_sketch_add(&s, 50);		/* below 100 ns: the first bin */
		rq_sketch_add(&s, 150);		/* [100, 316) ns: bin 0 */
		rq_sketch_add(&s, 1100);	/* [1000, 3162) ns: bin 2 */
		rq_sketch_add(&s, 5000000000ULL);	/* [3.16 s, 10 s): bin 15 */
		for (int i = 0; fold && i < RQ_SKETCH_EXACT; i++)
			rq_sketch_add(&s, 40000);	/* [31.6, 100) us: bin 5 */
		assert_int_equal(rq_sketch_is_exact(&s), !fold);
		rq_sketch_histogram(&s, 2, 2, 16, c);
		assert_int_equal(c[0], 2);
		assert_int_equal(c[2], 1);
		assert_int_equal(c[15], 1);
		assert_int_equal(c[5], fold ? RQ_SKETCH_EXACT : 0);
		rq_sketch_free(&s);
	}
}

/*
 * A migration/N move is classified only later (no exec followed: active balance); the
 * task ran in between.  Its delay is still the time to its first run after the move.
 */
static void late_placement_delay(void **state)
{
	struct rq_analysis *an = synth_new(2, "6.18.44");
	struct rq_sketch *s;

	assert_non_null(an);
	ev_switch(an, 5, 0, 0, 0, 20, "t");		/* t runs on CPU 0 */
	ev_switch(an, 8, 0, 20, 0, 50, "migration/0");	/* preempted by the stopper */
	ev_migrate(an, 1000, 0, 50, 0, 20, 120, 0, 1);	/* the stopper moves it to CPU 1 */
	ev_switch(an, 3000, 1, 0, 0, 20, "t");		/* it runs there 2000 ns later */
	ev_switch(an, 4000, 1, 20, 1, 0, NULL);
	rq_analysis_finish(an);				/* now classified: lb-active */
	s = rq_delay_path(an->delay, RQ_PATH_LB_ACTIVE);
	assert_int_equal(s->n, 1);
	assert_int_equal(s->max, 2000);
	rq_analysis_free(an);
}

/*
 * The same, after runs seconds apart: a gap too wide for the task's 32-bit ring moves it
 * to the cold part (issue 23), which answers as the ring of four did.  With up to two
 * runs after the move's first one, that one is still kept (2000 ns); with three, the
 * ring starts at it and an earlier one may have been pushed out: unmeasured.
 */
static void late_placement_after_long_gaps(void **state)
{
	for (int extra = 0; extra <= 3; extra++) {
		struct rq_analysis *an = synth_new(2, "6.18.44");
		const uint64_t t0 = 10000000000ULL;	/* 10 s: gaps over 32 bits of ns */
		struct rq_sketch *s;

		assert_non_null(an);
		ev_switch(an, 5, 0, 0, 0, 20, "t");
		ev_switch(an, 8, 0, 20, 1, 0, NULL);
		ev_switch(an, t0 / 2, 0, 0, 0, 20, "t");
		ev_switch(an, t0 / 2 + 8, 0, 20, 1, 0, NULL);
		assert_true(rqe_task_find(an, 20)->delay.spilled);
		ev_switch(an, t0, 0, 0, 0, 20, "t");
		ev_switch(an, t0 + 8, 0, 20, 0, 50, "migration/0");
		ev_migrate(an, t0 + 1000, 0, 50, 0, 20, 120, 0, 1);
		ev_switch(an, t0 + 3000, 1, 0, 0, 20, "t");
		ev_switch(an, t0 + 4000, 1, 20, 1, 0, NULL);
		for (int i = 1; i <= extra; i++) {
			ev_switch(an, t0 + 4000 + 1000 * (uint64_t)i, 1, 0, 0, 20, "t");
			ev_switch(an, t0 + 4500 + 1000 * (uint64_t)i, 1, 20, 1, 0, NULL);
		}
		rq_analysis_finish(an);
		s = rq_delay_path(an->delay, RQ_PATH_LB_ACTIVE);
		assert_int_equal(s->n, extra < 3 ? 1 : 0);
		if (extra < 3)
			assert_int_equal(s->max, 2000);
		rq_analysis_free(an);
	}
}

/* A task's 16-bit counters carry into its cold part: 70000 wakeups are 70000. */
static void counters_past_16_bits(void **state)
{
	struct rq_analysis *an = synth_new(2, "6.18.44");
	struct rq_task_info ti;
	uint64_t ts = 100;

	assert_non_null(an);
	ev_switch(an, ts, 0, 0, 0, 10, "waker");
	for (int i = 0; i < 70000; i++) {
		ev_wakeup(an, ts += 10, 0, 10, 20, 1);
		ev_switch(an, ts += 10, 1, 0, 0, 20, "t");
		ev_switch(an, ts += 10, 1, 20, 1, 0, NULL);
	}
	assert_true(rq_task_info_get(an, 20, &ti));
	assert_int_equal(ti.nr_wakeups, 70000);
	assert_true(rqe_task_find(an, 20)->cold != &rqe_cold_none);
	rq_analysis_free(an);
}

/* Events lost on the CPU a task waits on: its delay is not measured, only counted. */
static void lost_events_unmeasured(void **state)
{
	struct rq_analysis *an = synth_new(2, "6.18.44");

	assert_non_null(an);
	ev_switch(an, 100, 0, 0, 0, 10, "a");
	ev_switch(an, 200, 1, 0, 0, 30, "c");		/* CPU 1 busy with c */
	ev_wakeup_new(an, 300, 0, 10, 20, 1);		/* child 20 put on CPU 1 */
	feed(an, (struct rq_event){ .ts = 400, .type = RQ_EV_LOST, .cpu = 1, .arg = 5 });
	ev_switch(an, 900, 1, 30, 1, 20, "child");
	rq_analysis_finish(an);
	assert_int_equal(an->delay->unmeasured, 1);
	assert_int_equal(rq_delay_kind(an->delay, RQ_KIND_FORK, true)->n +
			 rq_delay_kind(an->delay, RQ_KIND_FORK, false)->n, 0);
	rq_analysis_free(an);
}

/*
 * A pid reused after its dead task was evicted (freed) is a new task, whose delay is
 * measured: nothing may hold on to the freed one (a cache of tasks by pid did, ASan).
 */
static void pid_reused_after_eviction(void **state)
{
	struct rq_analysis *an = synth_new(2, "6.18.44");
	uint64_t ts = 1000, evicted;
	struct rq_sketch *s;

	assert_non_null(an);
	ev_switch(an, 100, 0, 0, 0, 20, "old");		/* 20 runs on CPU 0 */
	ev_simple(an, 150, 0, RQ_EV_OTHER, 20, 0, 0);	/* and writes a record */
	ev_switch(an, 200, 0, 20, 1, 10, "parent");
	ev_simple(an, 300, 0, RQ_EV_FREE, 10, 20, 0);	/* 20 is dead: kept for the views */
	evicted = an->tasks.nr_tasks_evicted;
	/* as many dead tasks after it: the oldest kept, 20, is evicted (freed) */
	for (int i = 0; i < EXITED_KEEP; i++) {
		ev_fork(an, ts++, 0, 10, 1000 + i);
		ev_simple(an, ts++, 0, RQ_EV_FREE, 10, 1000 + i, 0);
	}
	assert_true(an->tasks.nr_tasks_evicted > evicted);
	assert_null(rqe_task_find(an, 20));
	ev_fork(an, ts, 0, 10, 20);			/* a new task 20 */
	ev_wakeup_new(an, ts + 1, 0, 10, 20, 1);	/* placed on CPU 1 */
	ev_simple(an, ts + 501, 1, RQ_EV_OTHER, 20, 0, 0);	/* it runs: 500 ns later */
	rq_analysis_finish(an);
	s = rq_delay_all(an->delay, false);
	assert_int_equal(s->n + rq_delay_all(an->delay, true)->n, 1);
	assert_int_equal(rq_sketch_quantile(s->n ? s : rq_delay_all(an->delay, true), 1.0), 500);
	rq_analysis_free(an);
}

/*
 * A placement still waiting when its task goes: the task is evicted (freed), or its pid
 * is reused by a fork.  It did not run: counted so at the end, not lost with the task.
 */
static void pending_outlives_task(void **state)
{
	struct rq_analysis *an = synth_new(2, "6.18.44");
	uint64_t ts = 1000;

	assert_non_null(an);
	ev_switch(an, 100, 0, 0, 0, 10, "parent");	/* 10 runs on CPU 0 */
	ev_switch(an, 110, 1, 0, 0, 30, "busy");	/* 30 keeps CPU 1 busy */
	ev_fork(an, 200, 0, 10, 20);
	ev_wakeup_new(an, 201, 0, 10, 20, 1);		/* 20 waits on CPU 1 ... */
	ev_simple(an, 300, 0, RQ_EV_FREE, 10, 20, 0);	/* ... and is gone, not run */
	for (int i = 0; i < EXITED_KEEP; i++) {		/* 20 is evicted */
		ev_fork(an, ts++, 0, 10, 1000 + i);
		ev_simple(an, ts++, 0, RQ_EV_FREE, 10, 1000 + i, 0);
	}
	assert_null(rqe_task_find(an, 20));
	ev_fork(an, ts, 0, 10, 21);
	ev_wakeup_new(an, ts + 1, 0, 10, 21, 1);	/* 21 waits on CPU 1 ... */
	ev_fork(an, ts + 2, 0, 10, 21);			/* ... when a fork reuses its pid */
	ev_wakeup_new(an, ts + 3, 0, 10, 21, 1);
	ev_switch(an, ts + 103, 1, 30, 0, 21, "child");	/* the new 21 runs: 100 ns */
	rq_analysis_finish(an);
	assert_int_equal(an->delay->not_run, 2);
	assert_int_equal(rq_delay_kind(an->delay, RQ_KIND_FORK, false)->n +
			 rq_delay_kind(an->delay, RQ_KIND_FORK, true)->n, 1);
	rq_analysis_free(an);
}

/*
 * A dead task whose pid a fork reused leaves a stale entry in the ring of dead tasks;
 * when the new task dies with that entry the oldest, it must not evict itself (the
 * switch handler goes on using it: heap-use-after-free under ASan before the fix).
 */
static void retired_pid_reused_not_self_evicted(void **state)
{
	struct rq_analysis *an = synth_new(2, "6.18.44");
	uint64_t ts = 1000;

	assert_non_null(an);
	ev_switch(an, 100, 0, 0, 0, 10, "parent");
	ev_fork(an, 200, 0, 10, 20);
	ev_simple(an, 300, 0, RQ_EV_FREE, 10, 20, 0);	/* 20 dead: first in the ring */
	ev_fork(an, 400, 0, 10, 20);			/* a fork reuses pid 20 */
	for (int i = 0; i < EXITED_KEEP - 1; i++) {	/* the ring fills up */
		ev_fork(an, ts++, 0, 10, 1000 + i);
		ev_simple(an, ts++, 0, RQ_EV_FREE, 10, 1000 + i, 0);
	}
	ev_switch(an, ts++, 1, 0, 0, 20, "child");	/* the new 20 runs on CPU 1 */
	ev_switch(an, ts++, 1, 20, 0x20, 0, NULL);	/* and dies (EXIT_ZOMBIE) */
	assert_non_null(rqe_task_find(an, 20));		/* kept for the views */
	rq_analysis_finish(an);
	rq_analysis_free(an);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exact_when_small),
		cmocka_unit_test(within_two_percent),
		cmocka_unit_test(bucket_matches_log),
		cmocka_unit_test(placement_delay),
		cmocka_unit_test(late_placement_delay),
		cmocka_unit_test(histogram_bins),
		cmocka_unit_test(lost_events_unmeasured),
		cmocka_unit_test(late_placement_after_long_gaps),
		cmocka_unit_test(counters_past_16_bits),
		cmocka_unit_test(pid_reused_after_eviction),
		cmocka_unit_test(pending_outlives_task),
		cmocka_unit_test(retired_pid_reused_not_self_evicted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
