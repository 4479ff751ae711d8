/* SPDX-License-Identifier: GPL-2.0 */
/*
 * order.h - a stable order of n items by a 32-bit key, computed in bounded steps (an
 * LSD radix sort, 16 bits a pass), so that a list of millions of rows can have its sort
 * orders made while the program waits for keys, a step at a time.
 */
#ifndef RQPATH_ORDER_H
#define RQPATH_ORDER_H

#include <stdbool.h>
#include <stdint.h>

struct rq_order;
/* The key of item i (0 <= i < n); called once per item. */
typedef uint32_t (*rq_order_key_fn)(void *data, uint32_t i);

/* NULL when out of memory. */
struct rq_order *rq_order_new(uint32_t n, rq_order_key_fn key, void *data);
/* Work on about budget items (0: to the end); true once the order is complete. */
bool rq_order_step(struct rq_order *o, uint32_t budget);
bool rq_order_done(const struct rq_order *o);
/* The items by key, equal keys by item: n ids, once complete (NULL before). */
const uint32_t *rq_order_ids(const struct rq_order *o);
uint32_t rq_order_len(const struct rq_order *o);
void rq_order_free(struct rq_order *o);

#endif
