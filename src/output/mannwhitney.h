/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mannwhitney.h - the Mann-Whitney U rank test (Wilcoxon rank-sum), two-sided, for
 * rqpath diff's runs: does one side tend to give larger values than the other?
 *
 * Ties get their mean rank.  Exact (the permutation distribution of the rank sum, ties
 * included, counted by dynamic programming) when both sides together have at most
 * RQ_MW_EXACT_MAX values; beyond, the normal approximation with the tie correction of the
 * variance and a continuity correction of 1/2.
 */
#ifndef RQPATH_MANNWHITNEY_H
#define RQPATH_MANNWHITNEY_H

#include <stdbool.h>

#define RQ_MW_EXACT_MAX 30

struct rq_mw {
	double u;	/* pairs (a, b) with b > a, plus half the ties: 0 .. na * nb */
	double p;	/* two-sided p-value */
	bool exact;	/* p from the exact distribution, not the normal approximation */
};

/*
 * Compare a (na values) with b (nb values), both at least 1 and without NaN; u counts
 * b's wins.  0, or -1 on bad arguments or allocation failure.
 */
int rq_mann_whitney(const double *a, int na, const double *b, int nb, struct rq_mw *out);

#endif
