// SPDX-License-Identifier: GPL-2.0
/* cpumask.c - run-time sized CPU sets with the kernel's list syntax. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpumask.h"

#define BITS_PER_LONG_ (sizeof(unsigned long) * CHAR_BIT)
#define NLONGS(n) (((size_t)(n) + BITS_PER_LONG_ - 1) / BITS_PER_LONG_)

int rq_cpumask_init(struct rq_cpumask *m, int nbits)
{
	if (nbits <= 0 || nbits > RQ_MAX_CPUS) {
		errno = EINVAL;
		return -1;
	}
	m->bits = calloc(NLONGS(nbits), sizeof(unsigned long));
	if (!m->bits)
		return -1;
	m->nbits = nbits;
	return 0;
}

void rq_cpumask_free(struct rq_cpumask *m)
{
	free(m->bits);
	m->bits = NULL;
	m->nbits = 0;
}

int rq_cpumask_copy(struct rq_cpumask *dst, const struct rq_cpumask *src)
{
	if (!dst->bits && rq_cpumask_init(dst, src->nbits))
		return -1;
	memcpy(dst->bits, src->bits, NLONGS(src->nbits) * sizeof(unsigned long));
	return 0;
}

void rq_cpumask_clear(struct rq_cpumask *m)
{
	if (m->bits)
		memset(m->bits, 0, NLONGS(m->nbits) * sizeof(unsigned long));
}

void rq_cpumask_set(struct rq_cpumask *m, int cpu)
{
	if (cpu >= 0 && cpu < m->nbits)
		m->bits[cpu / BITS_PER_LONG_] |= 1UL << (cpu % BITS_PER_LONG_);
}

/* rq_cpumask_weight() of a mask wider than a long */
int rq_cpumask_weight_long(const struct rq_cpumask *m)
{
	int w = 0;

	for (size_t i = 0; m->bits && i < NLONGS(m->nbits); i++)
		w += rq_popcount_long(m->bits[i]);
	return w;
}

/* rq_cpumask_single() of a mask wider than a long */
bool rq_cpumask_single_long(const struct rq_cpumask *m)
{
	bool one = false;

	for (size_t i = 0; m->bits && i < NLONGS(m->nbits); i++) {
		unsigned long x = m->bits[i];

		if (!x)
			continue;
		if (one || (x & (x - 1)))
			return false;
		one = true;
	}
	return one;
}

int rq_cpumask_first(const struct rq_cpumask *m)
{
	for (int c = 0; c < m->nbits; c++)
		if (rq_cpumask_test(m, c))
			return c;
	return -1;
}

int rq_cpumask_parse(struct rq_cpumask *m, const char *list)
{
	const char *p = list;

	rq_cpumask_clear(m);
	while (*p && *p != '\n') {
		char *end;
		long a, b;

		errno = 0;
		a = strtol(p, &end, 10);
		if (end == p || a < 0 || errno)
			return -1;
		b = a;
		p = end;
		if (*p == '-') {
			p++;
			b = strtol(p, &end, 10);
			if (end == p || b < a || errno)
				return -1;
			p = end;
		}
		for (long c = a; c <= b && c < m->nbits; c++)
			rq_cpumask_set(m, (int)c);
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -1;
	}
	return 0;
}

char *rq_cpumask_format(const struct rq_cpumask *m, char *buf, size_t size)
{
	size_t o = 0;

	if (!size)
		return buf;
	buf[0] = '\0';
	for (int c = 0; c < m->nbits; c++) {
		int e = c;
		int n;

		if (!rq_cpumask_test(m, c))
			continue;
		while (e + 1 < m->nbits && rq_cpumask_test(m, e + 1))
			e++;
		if (e == c)
			n = snprintf(buf + o, size - o, "%s%d", o ? "," : "", c);
		else
			n = snprintf(buf + o, size - o, "%s%d-%d", o ? "," : "", c, e);
		if (n < 0 || (size_t)n >= size - o)
			break;
		o += (size_t)n;
		c = e;
	}
	return buf;
}
