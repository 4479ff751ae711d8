// SPDX-License-Identifier: GPL-2.0
/*
 * topology.c - which CPUs share an LLC, a core (SMT), a node, and what capacity each
 * has, when the trace does not say: `--topology SPEC|FILE` and `rqpath topology`.
 *
 * The spec has one line per property (lines may also be joined with ';'):
 *   llc 0-3 4-7          groups of CPUs sharing the last-level cache (sd_llc)
 *   smt 0,4 1,5 ...      hardware threads of one core
 *   node 0-7 8-15        NUMA nodes
 *   capacity 1024 446 .. one value per CPU, in CPU order (arch_scale_cpu_capacity)
 * CPUs left out of a grouping are each their own group.  Without llc groups from the
 * trace or this option, rqpath assumes one LLC and says so.
 *
 * A FILE may also be a LISA platform description (plat_info.yml): its
 * "cpu-capacities:" block's "orig:" lines ("N: CAPACITY", one per CPU) are read as a
 * capacity line; the rest of it is not.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bsd/string.h>

#include "engine.h"
#include "markers.h"
#include "snapshot.h"

#define SPEC_MAX (64 * 1024)

/* Up to size bytes of fd into buf; the count read, or -1 (errno). */
static ssize_t read_upto(int fd, char *buf, size_t size)
{
	size_t got = 0;

	while (got < size) {
		ssize_t r = read(fd, buf + got, size - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (!r)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/* The spec itself, or the contents of the file it names. */
static char *load_spec(const char *arg, char *err, size_t errlen)
{
	struct stat st;
	ssize_t n;
	char *buf;
	int fd;

	if (stat(arg, &st) || !S_ISREG(st.st_mode))
		return strdup(arg);
	if (st.st_size > SPEC_MAX) {
		snprintf(err, errlen, "topology file is larger than %d bytes", SPEC_MAX);
		return NULL;
	}
	fd = open(arg, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "cannot read the topology file: %s", strerror(errno));
		return NULL;
	}
	buf = calloc(1, (size_t)st.st_size + 1);
	n = buf ? read_upto(fd, buf, (size_t)st.st_size) : 0;
	close(fd);
	if (buf)
		buf[n > 0 ? n : 0] = '\0';
	return buf;
}

/*
 * A LISA plat_info.yml (text): its original CPU capacities as a "capacity ..." spec in
 * buf; 1 done, 0 not such a file, -1 a bad block (err says why).
 */
static int plat_info_spec(const char *text, char *buf, size_t size, char *err, size_t errlen)
{
	const char *p = strstr(text, "cpu-capacities:");
	int cap[RQ_MAX_CPUS], n = 0;
	size_t len;

	if (!p || (p > text && p[-1] != ' ' && p[-1] != '\n'))
		return 0;
	p = strchr(p, '\n');
	while (p && isspace((unsigned char)*p))
		p++;
	if (!p || strncmp(p, "orig:", 5)) {
		snprintf(err, errlen, "platform file: no \"orig:\" under cpu-capacities");
		return -1;
	}
	p = strchr(p, '\n');
	for (; p; p = strchr(p + 1, '\n')) {
		const char *q = p + 1;
		char *end;
		long cpu, val;

		while (*q == ' ')
			q++;
		cpu = strtol(q, &end, 10);
		if (end == q || *end != ':')
			break;
		val = strtol(end + 1, &end, 10);
		if (cpu != n || n >= RQ_MAX_CPUS || val <= 0 || val > 1024 * 1024 ||
		    (*end && *end != '\n')) {
			snprintf(err, errlen, "platform file: bad cpu-capacities line for CPU %d",
				 n);
			return -1;
		}
		cap[n++] = (int)val;
	}
	if (!n) {
		snprintf(err, errlen, "platform file: no CPU under cpu-capacities orig");
		return -1;
	}
	len = strlcpy(buf, "capacity", size);
	for (int i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, " %d", cap[i]);
	if (len >= size) {
		snprintf(err, errlen, "platform file: too many CPUs");
		return -1;
	}
	return 1;
}

/* Parse "llc 0-3 4-7": set group[cpu] to the first CPU of its group. */
static int parse_groups(const char *key, char *rest, int nr_cpus, int *group, char *err,
			size_t errlen)
{
	struct rq_cpumask m;
	char *save = NULL;

	if (rq_cpumask_init(&m, RQ_MAX_CPUS))
		return -1;
	for (char *tok = strtok_r(rest, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		int first = -1;

		rq_cpumask_clear(&m);
		if (rq_cpumask_parse(&m, tok) || !rq_cpumask_weight(&m)) {
			snprintf(err, errlen, "%s: bad CPU list '%.40s'", key, tok);
			goto bad;
		}
		for (int cpu = 0; cpu < RQ_MAX_CPUS; cpu++) {
			if (!rq_cpumask_test(&m, cpu))
				continue;
			if (cpu >= nr_cpus) {
				snprintf(err, errlen, "%s: CPU %d, but the trace has %d CPUs",
					 key, cpu, nr_cpus);
				goto bad;
			}
			if (group[cpu] != cpu && group[cpu] >= 0) {
				snprintf(err, errlen, "%s: CPU %d is in two groups", key, cpu);
				goto bad;
			}
			if (first < 0)
				first = cpu;
			group[cpu] = first;
		}
	}
	rq_cpumask_free(&m);
	return 0;
bad:
	rq_cpumask_free(&m);
	return -1;
}

static int parse_capacity(char *rest, int nr_cpus, int *cap, char *err, size_t errlen)
{
	char *save = NULL, *end;
	int n = 0;

	for (char *tok = strtok_r(rest, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		long v = strtol(tok, &end, 10);

		if (n >= nr_cpus) {
			snprintf(err, errlen, "capacity: more values than the trace's %d CPUs",
				 nr_cpus);
			return -1;
		}
		if (*end || v <= 0 || v > 1 << 20) {
			snprintf(err, errlen, "capacity: bad value '%.20s'", tok);
			return -1;
		}
		cap[n++] = (int)v;
	}
	if (n != nr_cpus) {
		snprintf(err, errlen, "capacity: %d values for the trace's %d CPUs", n, nr_cpus);
		return -1;
	}
	return 0;
}

int rqe_topology_apply(struct rq_analysis *an, const char *spec, char *err, size_t errlen)
{
	int n = an->nr_cpus, ret = -1;
	int *llc = calloc((size_t)n, sizeof(int)), *smt = calloc((size_t)n, sizeof(int));
	int *node = calloc((size_t)n, sizeof(int)), *cap = calloc((size_t)n, sizeof(int));
	bool has_llc = false, has_smt = false, has_node = false, has_cap = false;
	char *text = NULL, *save = NULL;

	if (!llc || !smt || !node || !cap) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	text = load_spec(spec, err, errlen);
	if (!text)
		goto out;
	{
		char plat[RQ_MAX_CPUS * 8 + 16];
		int r = plat_info_spec(text, plat, sizeof(plat), err, errlen);

		if (r < 0)
			goto out;
		if (r > 0) {
			free(text);
			text = strdup(plat);
			if (!text) {
				snprintf(err, errlen, "out of memory");
				goto out;
			}
		}
	}
	for (int cpu = 0; cpu < n; cpu++)
		llc[cpu] = smt[cpu] = node[cpu] = cpu;
	/* '#' comments run to the end of their line, whatever they hold (';' too) */
	for (char *c = strchr(text, '#'); c; c = strchr(c, '#')) {
		while (*c && *c != '\n')
			*c++ = ' ';
	}
	for (char *line = strtok_r(text, ";\n", &save); line; line = strtok_r(NULL, ";\n", &save)) {
		char *key, *rest;

		while (isspace((unsigned char)*line))
			line++;
		if (!*line)
			continue;
		key = line;
		rest = key + strcspn(key, " \t");
		if (*rest)
			*rest++ = '\0';
		if (!strcmp(key, "llc")) {
			has_llc = true;
			if (parse_groups(key, rest, n, llc, err, errlen))
				goto out;
		} else if (!strcmp(key, "smt")) {
			has_smt = true;
			if (parse_groups(key, rest, n, smt, err, errlen))
				goto out;
		} else if (!strcmp(key, "node")) {
			has_node = true;
			if (parse_groups(key, rest, n, node, err, errlen))
				goto out;
		} else if (!strcmp(key, "capacity")) {
			has_cap = true;
			if (parse_capacity(rest, n, cap, err, errlen))
				goto out;
		} else {
			snprintf(err, errlen, "unknown topology line '%.20s' (use llc, smt, node, "
				 "capacity)", key);
			goto out;
		}
	}
	if (!has_llc && !has_smt && !has_node && !has_cap) {
		snprintf(err, errlen, "empty topology: give at least one of llc, smt, node, "
			 "capacity");
		goto out;
	}
	for (int cpu = 0; cpu < n; cpu++) {
		struct rq_cpu *c = &an->cpus[cpu];

		if (has_llc)
			c->llc = llc[cpu];
		if (has_smt)
			c->core = smt[cpu];
		if (has_node)
			c->node = node[cpu];	/* the first CPU of the node names it */
		if (has_cap) {
			if (!cpu) {
				an->facts.capacity_source = "option";
				an->facts.asym_capacity = false;	/* these capacities decide */
			}
			c->capacity = cap[cpu];
			if (cap[cpu] != cap[0])
				an->facts.asym_capacity = true;
		}
	}
	an->bits.llc_stale = true;
	if (has_llc) {
		an->facts.has_topology = true;
		an->facts.llc_source = RQ_LLC_OPTION;
	}
	ret = 0;
out:
	free(text);
	free(llc);
	free(smt);
	free(node);
	free(cap);
	return ret;
}

/* A positive number from the first line of a small sysfs file, or 0. */
static int read_positive(const char *path)
{
	char buf[32];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	n = read_upto(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return atoi(buf) > 0 ? atoi(buf) : 0;
}

void rq_topology_host_free(struct rq_host_topology *h)
{
	free(h->llc);
	free(h->smt);
	free(h->node);
	free(h->capacity);
	memset(h, 0, sizeof(*h));
}

int rq_topology_host(struct rq_host_topology *h, char *err, size_t errlen)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	int *node_first;

	memset(h, 0, sizeof(*h));
	if (n <= 0 || n > RQ_MAX_CPUS) {
		snprintf(err, errlen, "cannot tell how many CPUs this machine has");
		return -1;
	}
	h->nr_cpus = (int)n;
	h->llc = calloc((size_t)n, sizeof(int));
	h->smt = calloc((size_t)n, sizeof(int));
	h->node = calloc((size_t)n, sizeof(int));
	h->capacity = calloc((size_t)n, sizeof(int));
	node_first = calloc((size_t)RQ_MAX_CPUS, sizeof(int));
	if (!h->llc || !h->smt || !h->node || !h->capacity || !node_first) {
		snprintf(err, errlen, "out of memory");
		free(node_first);
		rq_topology_host_free(h);
		return -1;
	}
	h->has_capacity = h->llc_from_cache = true;
	for (int i = 0; i < RQ_MAX_CPUS; i++)
		node_first[i] = -1;
	for (int cpu = 0; cpu < n; cpu++) {
		struct rq_marker m;
		char path[128];

		rq_snapshot_cpu(cpu, &m);
		h->llc[cpu] = m.llc >= 0 && m.llc < n ? m.llc : cpu;
		h->smt[cpu] = m.core >= 0 && m.core < n ? m.core : cpu;
		if (strcmp(m.llc_src, "cache"))
			h->llc_from_cache = false;
		/* nodes are numbered; the spec names each by its CPUs */
		if (m.node >= 0 && m.node < RQ_MAX_CPUS) {
			if (node_first[m.node] < 0)
				node_first[m.node] = cpu;
			h->node[cpu] = node_first[m.node];
		} else {
			h->node[cpu] = cpu;
		}
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpu_capacity", cpu);
		h->capacity[cpu] = read_positive(path);
		if (!h->capacity[cpu])
			h->has_capacity = false;
	}
	free(node_first);
	return 0;
}
