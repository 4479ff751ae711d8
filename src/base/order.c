// SPDX-License-Identifier: GPL-2.0
/*
 * order.c - a stable sort of n items by a 32-bit key in steps of bounded work.
 *
 * Each item becomes one 64-bit word, key << 32 | item: sorting the words sorts by key,
 * and equal keys by item.  The items come in ascending, so a stable least-significant
 * digit radix sort on the key's 16-bit digits alone is enough (one pass when every key
 * is below 65536, two otherwise): a histogram pass and a scatter pass per digit, each
 * linear and each done in slices of the caller's budget.
 */
#include <stdlib.h>
#include <string.h>

#include "order.h"

enum phase { GATHER, HIST, SCATTER, OUT, DONE };

struct rq_order {
	uint32_t n;
	rq_order_key_fn key;
	void *data;
	enum phase phase;
	uint32_t pos;		/* next item of the phase */
	uint32_t max;		/* largest key seen */
	int digit;		/* 0: bits 32-47, 1: bits 48-63 */
	uint64_t *a, *b;	/* the words, and the scatter's target */
	uint32_t *count;	/* 65536 + 1 counters: a digit's histogram, then its offsets */
	uint32_t *ids;
};

struct rq_order *rq_order_new(uint32_t n, rq_order_key_fn key, void *data)
{
	struct rq_order *o = calloc(1, sizeof(*o));

	if (!o)
		return NULL;
	o->n = n;
	o->key = key;
	o->data = data;
	o->a = malloc((size_t)(n ? n : 1) * sizeof(*o->a));
	o->b = malloc((size_t)(n ? n : 1) * sizeof(*o->b));
	o->count = calloc(65536 + 1, sizeof(*o->count));
	o->ids = malloc((size_t)(n ? n : 1) * sizeof(*o->ids));
	if (!o->a || !o->b || !o->count || !o->ids) {
		rq_order_free(o);
		return NULL;
	}
	return o;
}

static unsigned int digit_of(uint64_t w, int digit)
{
	return (unsigned int)(w >> (32 + 16 * digit)) & 0xffff;
}

bool rq_order_step(struct rq_order *o, uint32_t budget)
{
	bool all = !budget;

	while (o->phase != DONE) {
		uint32_t left = o->n - o->pos;
		uint32_t end = o->pos + (all || left < budget ? left : budget);

		switch (o->phase) {
		case GATHER:
			for (uint32_t i = o->pos; i < end; i++) {
				uint32_t k = o->key(o->data, i);

				o->a[i] = (uint64_t)k << 32 | i;
				if (k > o->max)
					o->max = k;
			}
			break;
		case HIST:
			for (uint32_t i = o->pos; i < end; i++)
				o->count[digit_of(o->a[i], o->digit) + 1]++;
			break;
		case SCATTER:
			for (uint32_t i = o->pos; i < end; i++)
				o->b[o->count[digit_of(o->a[i], o->digit)]++] = o->a[i];
			break;
		case OUT:
			for (uint32_t i = o->pos; i < end; i++)
				o->ids[i] = (uint32_t)o->a[i];
			break;
		case DONE:
			break;
		}
		if (!all)
			budget -= end - o->pos;
		o->pos = end;
		if (o->pos < o->n)
			return false;	/* the budget ran out inside the phase */
		o->pos = 0;
		switch (o->phase) {
		case GATHER:
			/* all keys 0: the items are in order already */
			o->phase = o->max ? HIST : OUT;
			break;
		case HIST:
			for (int d = 0; d < 65536; d++)
				o->count[d + 1] += o->count[d];
			o->phase = SCATTER;
			break;
		case SCATTER: {
			uint64_t *t = o->a;

			o->a = o->b;
			o->b = t;
			memset(o->count, 0, (65536 + 1) * sizeof(*o->count));
			if (o->digit == 0 && o->max >= 65536) {
				o->digit = 1;
				o->phase = HIST;
			} else {
				o->phase = OUT;
			}
			break;
		}
		case OUT:
			free(o->a);
			free(o->b);
			free(o->count);
			o->a = o->b = NULL;
			o->count = NULL;
			o->phase = DONE;
			break;
		case DONE:
			break;
		}
		if (!all && !budget)
			break;
	}
	return o->phase == DONE;
}

bool rq_order_done(const struct rq_order *o)
{
	return o && o->phase == DONE;
}

const uint32_t *rq_order_ids(const struct rq_order *o)
{
	return rq_order_done(o) ? o->ids : NULL;
}

uint32_t rq_order_len(const struct rq_order *o)
{
	return o ? o->n : 0;
}

void rq_order_free(struct rq_order *o)
{
	if (!o)
		return;
	free(o->a);
	free(o->b);
	free(o->count);
	free(o->ids);
	free(o);
}
