// SPDX-License-Identifier: GPL-2.0
/*
 * topology_spec.c - this machine's LLC, SMT and node groups and CPU capacities as the
 * lines of a --topology spec (topology_spec.h); the engine reads them (topology.c).
 */
#include <errno.h>
#include <string.h>

#include "analysis.h"
#include "topology_spec.h"

/* Print one property's groups ("llc 0-1 2-3") from first-CPU-of-group numbers. */
static void print_groups(FILE *f, const char *key, const int *group, int n)
{
	struct rq_cpumask m;
	char list[4096];

	if (rq_cpumask_init(&m, n))
		return;
	fprintf(f, "%s", key);
	for (int first = 0; first < n; first++) {
		if (group[first] != first)
			continue;
		rq_cpumask_clear(&m);
		for (int cpu = first; cpu < n; cpu++)
			if (group[cpu] == first)
				rq_cpumask_set(&m, cpu);
		fprintf(f, " %s", rq_cpumask_format(&m, list, sizeof(list)));
	}
	fputc('\n', f);
	rq_cpumask_free(&m);
}

int rq_topology_describe_host(FILE *f, char *err, size_t errlen)
{
	struct rq_host_topology h;
	int n;

	if (rq_topology_host(&h, err, errlen))
		return -1;
	n = h.nr_cpus;
	fprintf(f, "# rqpath topology of this machine (%d CPUs); use with --topology FILE\n", n);
	if (!h.llc_from_cache)
		fprintf(f, "# no cache information in sysfs: llc groups are the packages\n");
	print_groups(f, "llc", h.llc, n);
	print_groups(f, "smt", h.smt, n);
	print_groups(f, "node", h.node, n);
	if (h.has_capacity) {
		fprintf(f, "capacity");
		for (int cpu = 0; cpu < n; cpu++)
			fprintf(f, " %d", h.capacity[cpu]);
		fputc('\n', f);
	}
	rq_topology_host_free(&h);
	if (fflush(f) || ferror(f)) {
		snprintf(err, errlen, "cannot write: %s", strerror(errno));
		return -1;
	}
	return 0;
}
