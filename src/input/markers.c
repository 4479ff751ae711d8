// SPDX-License-Identifier: GPL-2.0
/* markers.c - the "rqpath/1 …" lines the recorder writes into trace_marker. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bsd/string.h>

#include "cpumask.h"
#include "escape.h"
#include "markers.h"

#define RQ_MAX_PID	(4 * 1024 * 1024)	/* PID_MAX_LIMIT */

/* Find "key=" as a whole word in s and copy its value (up to a blank) into out. */
static int get_value(const char *s, const char *key, char *out, size_t size)
{
	size_t klen = strlen(key);
	const char *p = s;

	while ((p = strstr(p, key))) {
		if ((p == s || p[-1] == ' ') && p[klen] == '=') {
			const char *v = p + klen + 1;
			size_t n = strcspn(v, " \n");

			if (n >= size)
				return -1;	/* never a cut value */
			memcpy(out, v, n);
			out[n] = '\0';
			return 0;
		}
		p += klen;
	}
	return -1;
}

/*
 * "key=N" with min <= N <= max.  A value out of range is an error, never wrapped:
 * cpu=4294967297 must not become CPU 1.  1 when the key is absent, -1 when invalid.
 */
static int get_ranged(const char *s, const char *key, long min, long max, int *out)
{
	char buf[32];
	char *end;
	long v;

	if (get_value(s, key, buf, sizeof(buf)))
		return 1;
	errno = 0;
	v = strtol(buf, &end, 10);
	if (end == buf || *end || errno || v < min || v > max)
		return -1;
	*out = (int)v;
	return 0;
}

/* Required: absent or invalid is an error. */
static int get_int(const char *s, const char *key, long min, long max, int *out)
{
	return get_ranged(s, key, min, max, out) ? -1 : 0;
}

/* Optional: absent gives def, invalid is an error. */
static int get_opt(const char *s, const char *key, long min, long max, int def, int *out)
{
	int r = get_ranged(s, key, min, max, out);

	if (r > 0)
		*out = def;
	return r < 0 ? -1 : 0;
}

/* A CPU list as /proc writes it ("0-3,8"), every CPU below RQ_MAX_CPUS; or "?". */
static bool valid_cpulist(const char *p)
{
	if (!strcmp(p, "?"))
		return true;
	if (!*p)
		return false;
	while (*p) {
		char *end;
		long a, b;

		if (!isdigit((unsigned char)*p))
			return false;
		errno = 0;
		a = strtol(p, &end, 10);
		b = a;
		if (*end == '-') {
			p = end + 1;
			if (!isdigit((unsigned char)*p))
				return false;
			b = strtol(p, &end, 10);
		}
		if (errno || a >= RQ_MAX_CPUS || b >= RQ_MAX_CPUS || b < a)
			return false;
		p = end;
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			return false;
	}
	return true;
}

int rq_marker_parse(const char *text, size_t len, struct rq_marker *m)
{
	char line[1024];
	const char *comm;

	memset(m, 0, sizeof(*m));
	if (len >= sizeof(line))
		len = sizeof(line) - 1;
	memcpy(line, text, len);
	line[len] = '\0';
	line[strcspn(line, "\n")] = '\0';

	if (!strncmp(line, "kernel ", 7)) {
		m->kind = RQ_MARK_KERNEL;
		if (get_value(line, "release", m->release, sizeof(m->release)) ||
		    get_int(line, "cpus", 1, RQ_MAX_CPUS, &m->cpus))
			return -1;
		return 0;
	}
	if (!strncmp(line, "cpu ", 4)) {
		m->kind = RQ_MARK_CPU;
		if (get_int(line, "cpu", 0, RQ_MAX_CPUS - 1, &m->cpu) ||
		    get_int(line, "llc", 0, RQ_MAX_CPUS - 1, &m->llc) ||
		    get_opt(line, "core", 0, RQ_MAX_CPUS - 1, m->cpu, &m->core) ||
		    get_opt(line, "node", 0, RQ_MAX_CPUS - 1, 0, &m->node) ||
		    get_opt(line, "capacity", 0, 1 << 20, 0, &m->capacity))
			return -1;
		if (get_value(line, "llc_src", m->llc_src, sizeof(m->llc_src)))
			strlcpy(m->llc_src, "cache", sizeof(m->llc_src));
		return 0;
	}
	if (!strncmp(line, "task ", 5)) {
		if (get_int(line, "pid", 1, RQ_MAX_PID, &m->pid))
			return -1;
		if (strstr(line, " gone")) {
			m->kind = RQ_MARK_TASK_GONE;
			return 0;
		}
		m->kind = RQ_MARK_TASK;
		/* policy: SCHED_OTHER 0 .. SCHED_EXT 7, -1 unknown */
		if (get_opt(line, "tgid", 0, RQ_MAX_PID, 0, &m->tgid) ||
		    get_opt(line, "policy", -1, 7, -1, &m->policy) ||
		    get_opt(line, "idle_cg", 0, 1, 0, &m->idle_cg))
			return -1;
		if (get_value(line, "cpus", m->cpulist, sizeof(m->cpulist)))
			strlcpy(m->cpulist, "?", sizeof(m->cpulist));
		else if (!valid_cpulist(m->cpulist))
			return -1;
		/* comm is last and may contain anything escaped, including " key=" */
		comm = strstr(line, " comm=");
		if (comm)
			rq_unescape_c(comm + 6, m->comm, sizeof(m->comm));
		return 0;
	}
	if (!strncmp(line, "snapshot done", 13)) {
		m->kind = RQ_MARK_SNAPSHOT_DONE;
		if (get_opt(line, "tasks", 0, INT_MAX, -1, &m->ntasks))
			return -1;
		return 0;
	}
	m->kind = RQ_MARK_INVALID;
	return -1;
}

int rq_marker_format(const struct rq_marker *m, char *buf, size_t size)
{
	char comm[64];

	switch (m->kind) {
	case RQ_MARK_KERNEL:
		return snprintf(buf, size, RQ_MARKER_PREFIX "kernel release=%s cpus=%d\n",
				m->release, m->cpus);
	case RQ_MARK_CPU:
		if (m->capacity > 0)
			return snprintf(buf, size, RQ_MARKER_PREFIX "cpu cpu=%d core=%d llc=%d "
					"node=%d llc_src=%s capacity=%d\n", m->cpu, m->core,
					m->llc, m->node, m->llc_src[0] ? m->llc_src : "cache",
					m->capacity);
		return snprintf(buf, size,
				RQ_MARKER_PREFIX "cpu cpu=%d core=%d llc=%d node=%d llc_src=%s\n",
				m->cpu, m->core, m->llc, m->node,
				m->llc_src[0] ? m->llc_src : "cache");
	case RQ_MARK_TASK:
		rq_escape_c(m->comm, strlen(m->comm), comm, sizeof(comm));
		return snprintf(buf, size,
				RQ_MARKER_PREFIX
				"task pid=%d tgid=%d policy=%d cpus=%s idle_cg=%d comm=%s\n",
				m->pid, m->tgid, m->policy, m->cpulist[0] ? m->cpulist : "?",
				m->idle_cg, comm);
	case RQ_MARK_TASK_GONE:
		return snprintf(buf, size, RQ_MARKER_PREFIX "task pid=%d gone\n", m->pid);
	case RQ_MARK_SNAPSHOT_DONE:
		return snprintf(buf, size, RQ_MARKER_PREFIX "snapshot done tasks=%d\n", m->ntasks);
	default:
		return -1;
	}
}
