// SPDX-License-Identifier: GPL-2.0
/*
 * mannwhitney.c - the Mann-Whitney U test (mannwhitney.h).
 *
 * Ranks are kept doubled (a tie group over positions i..j, 0-based, has the mean rank
 * (i + j + 2) / 2), so that every rank sum is an integer and the exact distribution is a
 * table of counts: the number of ways to choose nb of the N pooled values whose doubled
 * ranks add up to s, for every s.  p is the share of those choices at least as far from
 * the mean as the observed one.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mannwhitney.h"

struct pooled {
	double v;
	bool b;		/* from the second sample */
};

static int cmp_pooled(const void *x, const void *y)
{
	double a = ((const struct pooled *)x)->v, b = ((const struct pooled *)y)->v;

	return a < b ? -1 : a > b;
}

/* Two-sided exact p: choices of nb doubled ranks whose sum is as far from the mean. */
static int exact_p(const int *rank2, int n, int nb, long s_obs, double *p)
{
	long smax = (long)n * (n + 1), mean = (long)nb * (n + 1);
	long dev = labs(s_obs - mean);
	double *dp = calloc((size_t)(nb + 1) * (size_t)(smax + 1), sizeof(double));
	double total = 0, tail = 0;

	if (!dp)
		return -1;
	dp[0] = 1;	/* dp[k * (smax + 1) + s]: ways to pick k values summing to s */
	for (int i = 0; i < n; i++)
		for (int k = (i + 1 < nb ? i + 1 : nb); k >= 1; k--)
			for (long s = smax; s >= rank2[i]; s--)
				dp[k * (smax + 1) + s] += dp[(k - 1) * (smax + 1) + s - rank2[i]];
	for (long s = 0; s <= smax; s++) {
		double w = dp[(long)nb * (smax + 1) + s];

		total += w;
		if (labs(s - mean) >= dev)
			tail += w;
	}
	free(dp);
	*p = total > 0 ? tail / total : 1.0;
	return 0;
}

int rq_mann_whitney(const double *a, int na, const double *b, int nb, struct rq_mw *out)
{
	int n = na + nb;
	struct pooled *v;
	int *rank2;
	long s_obs = 0;
	double ties = 0, mu, sigma, z;

	if (na < 1 || nb < 1 || !out)
		return -1;
	v = malloc((size_t)n * sizeof(*v));
	rank2 = malloc((size_t)n * sizeof(*rank2));
	if (!v || !rank2) {
		free(v);
		free(rank2);
		return -1;
	}
	for (int i = 0; i < na; i++)
		v[i] = (struct pooled){ a[i], false };
	for (int i = 0; i < nb; i++)
		v[na + i] = (struct pooled){ b[i], true };
	qsort(v, (size_t)n, sizeof(*v), cmp_pooled);
	for (int i = 0, j; i < n; i = j + 1) {
		double t;

		for (j = i; j + 1 < n && v[j + 1].v == v[i].v; j++)
			;
		for (int k = i; k <= j; k++) {
			rank2[k] = i + j + 2;
			if (v[k].b)
				s_obs += rank2[k];
		}
		t = j - i + 1;
		ties += t * t * t - t;
	}
	out->u = (double)s_obs / 2 - (double)nb * (nb + 1) / 2;
	mu = (double)na * nb / 2;
	out->exact = n <= RQ_MW_EXACT_MAX;
	if (out->exact) {
		int ret = exact_p(rank2, n, nb, s_obs, &out->p);

		free(v);
		free(rank2);
		return ret;
	}
	free(v);
	free(rank2);
	sigma = sqrt((double)na * nb / 12.0 * ((n + 1) - ties / ((double)n * (n - 1))));
	if (sigma <= 0) {
		out->p = 1.0;
		return 0;
	}
	z = (fabs(out->u - mu) - 0.5) / sigma;
	out->p = z > 0 ? erfc(z / sqrt(2.0)) : 1.0;
	if (out->p > 1.0)
		out->p = 1.0;
	return 0;
}
