/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpumask.h - a CPU set sized at run time (traces come from machines with any
 * number of CPUs), with the kernel's "0-3,8" list syntax.
 */
#ifndef RQPATH_CPUMASK_H
#define RQPATH_CPUMASK_H

#include <stdbool.h>
#include <stddef.h>

#define RQ_MAX_CPUS 4096

struct rq_cpumask {
	int nbits;
	unsigned long *bits;
};

int rq_cpumask_init(struct rq_cpumask *m, int nbits);
void rq_cpumask_free(struct rq_cpumask *m);
int rq_cpumask_copy(struct rq_cpumask *dst, const struct rq_cpumask *src);
void rq_cpumask_clear(struct rq_cpumask *m);
void rq_cpumask_set(struct rq_cpumask *m, int cpu);
static inline bool rq_cpumask_test(const struct rq_cpumask *m, int cpu)
{
	const int bpl = (int)(sizeof(unsigned long) * 8);

	if (!m->bits || cpu < 0 || cpu >= m->nbits)
		return false;
	return m->bits[cpu / bpl] & (1UL << (cpu % bpl));
}

int rq_cpumask_weight_long(const struct rq_cpumask *m);

/* Bits set in x, without libgcc's __popcountdi2 (no POPCNT in the baseline ISA). */
static inline int rq_popcount_long(unsigned long x)
{
	unsigned long long v = x;

	v = v - ((v >> 1) & 0x5555555555555555ULL);
	v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL);
	v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (int)((v * 0x0101010101010101ULL) >> 56);
}

static inline int rq_cpumask_weight(const struct rq_cpumask *m)
{
	if (m->bits && m->nbits <= (int)(sizeof(unsigned long) * 8))
		return rq_popcount_long(m->bits[0]);
	return rq_cpumask_weight_long(m);
}
bool rq_cpumask_single_long(const struct rq_cpumask *m);
/* Exactly one CPU set (rq_cpumask_weight() == 1, without counting them all). */
static inline bool rq_cpumask_single(const struct rq_cpumask *m)
{
	if (m->bits && m->nbits <= (int)(sizeof(unsigned long) * 8))
		return m->bits[0] && !(m->bits[0] & (m->bits[0] - 1));
	return rq_cpumask_single_long(m);
}
int rq_cpumask_first(const struct rq_cpumask *m);
/* Parse "0-3,8"; CPUs >= nbits are ignored.  Returns 0 or -1 on syntax error. */
int rq_cpumask_parse(struct rq_cpumask *m, const char *list);
/* Format as a list into buf; returns buf. */
char *rq_cpumask_format(const struct rq_cpumask *m, char *buf, size_t size);

#endif
