// SPDX-License-Identifier: GPL-2.0
/*
 * mw_check.c - rqpath's Mann-Whitney test (src/output/mannwhitney.c) on the cases of
 * stdin, one a line "a1 a2 ... | b1 b2 ...", printing "U p exact|normal" as
 * tests/tools/mannwhitney.py does (tests/golden/t_diff_stats.sh compares the two).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mannwhitney.h"

#define MAX_VALUES 256

int main(void)
{
	char line[8192];

	while (fgets(line, sizeof(line), stdin)) {
		double a[MAX_VALUES], b[MAX_VALUES];
		int na = 0, nb = 0, side = 0;
		struct rq_mw mw;

		for (char *tok = strtok(line, " \t\n"); tok; tok = strtok(NULL, " \t\n")) {
			if (!strcmp(tok, "|"))
				side = 1;
			else if (side && nb < MAX_VALUES)
				b[nb++] = strtod(tok, NULL);
			else if (!side && na < MAX_VALUES)
				a[na++] = strtod(tok, NULL);
		}
		if (!side)
			continue;
		if (rq_mann_whitney(a, na, b, nb, &mw)) {
			printf("error\n");
			continue;
		}
		printf("%.17g %.17g %s\n", mw.u, mw.p, mw.exact ? "exact" : "normal");
	}
	return 0;
}
