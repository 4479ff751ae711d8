// SPDX-License-Identifier: GPL-2.0
/*
 * test_order.c - rq_order (src/base/order.c), the stepwise radix sort behind the TUI's
 * sorted lists: the same order as qsort() by (key, item), whatever the step budget, for
 * keys of one digit and of two, none at all and every key equal.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "order.h"

static uint32_t *keys;

static uint32_t key_of(void *data, uint32_t i)
{
	(void)data;
	return keys[i];
}

static int cmp(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	if (keys[a] != keys[b])
		return keys[a] < keys[b] ? -1 : 1;
	return (a > b) - (a < b);
}

static void check(uint32_t n, uint32_t range, uint32_t budget)
{
	uint32_t *want = malloc((n ? n : 1) * sizeof(*want));
	struct rq_order *o;
	int steps = 0;

	keys = malloc((n ? n : 1) * sizeof(*keys));
	assert_non_null(want);
	assert_non_null(keys);
	for (uint32_t i = 0; i < n; i++) {
		keys[i] = range ? (uint32_t)random() % range : 7;
		want[i] = i;
	}
	qsort(want, n, sizeof(*want), cmp);
	o = rq_order_new(n, key_of, NULL);
	assert_non_null(o);
	assert_null(rq_order_ids(o));
	while (!rq_order_step(o, budget))
		steps++;
	/* a budget makes steps: the work is sliced */
	if (budget && n > 4 * budget)
		assert_true(steps >= 4);
	assert_true(rq_order_done(o));
	assert_int_equal(rq_order_len(o), n);
	for (uint32_t i = 0; i < n; i++)
		assert_int_equal(rq_order_ids(o)[i], want[i]);
	rq_order_free(o);
	free(keys);
	free(want);
}

static void one_digit(void **state)
{
	check(10000, 50, 0);
	check(10000, 50, 333);
	check(10000, 65536, 1);
}

static void two_digits(void **state)
{
	check(20000, 4000000, 0);
	check(20000, 4000000, 777);
	check(5000, UINT32_MAX, 10);
}

static void nothing_and_all_equal(void **state)
{
	check(0, 10, 0);
	check(1, 10, 5);
	check(1000, 0, 3);	/* every key 7 */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_digit),
		cmocka_unit_test(two_digits),
		cmocka_unit_test(nothing_and_all_equal),
	};

	srandom(1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
