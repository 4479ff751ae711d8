// SPDX-License-Identifier: GPL-2.0
/* markers.c - the "rqpath/1 …" lines the recorder writes into trace_marker. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bsd/string.h>

#include "escape.h"
#include "markers.h"

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
				n = size - 1;
			memcpy(out, v, n);
			out[n] = '\0';
			return 0;
		}
		p += klen;
	}
	return -1;
}

static int get_int(const char *s, const char *key, int *out)
{
	char buf[32];
	char *end;
	long v;

	if (get_value(s, key, buf, sizeof(buf)))
		return -1;
	v = strtol(buf, &end, 10);
	if (end == buf || *end)
		return -1;
	*out = (int)v;
	return 0;
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
		    get_int(line, "cpus", &m->cpus))
			return -1;
		return 0;
	}
	if (!strncmp(line, "cpu ", 4)) {
		m->kind = RQ_MARK_CPU;
		if (get_int(line, "cpu", &m->cpu) || get_int(line, "llc", &m->llc))
			return -1;
		if (get_int(line, "core", &m->core))
			m->core = m->cpu;
		if (get_int(line, "node", &m->node))
			m->node = 0;
		if (get_value(line, "llc_src", m->llc_src, sizeof(m->llc_src)))
			strlcpy(m->llc_src, "cache", sizeof(m->llc_src));
		return 0;
	}
	if (!strncmp(line, "task ", 5)) {
		if (get_int(line, "pid", &m->pid))
			return -1;
		if (strstr(line, " gone")) {
			m->kind = RQ_MARK_TASK_GONE;
			return 0;
		}
		m->kind = RQ_MARK_TASK;
		if (get_int(line, "tgid", &m->tgid))
			m->tgid = 0;
		if (get_int(line, "policy", &m->policy))
			m->policy = -1;
		if (get_int(line, "idle_cg", &m->idle_cg))
			m->idle_cg = 0;
		if (get_value(line, "cpus", m->cpulist, sizeof(m->cpulist)))
			strlcpy(m->cpulist, "?", sizeof(m->cpulist));
		/* comm is last and may contain anything escaped, including " key=" */
		comm = strstr(line, " comm=");
		if (comm)
			rq_unescape_c(comm + 6, m->comm, sizeof(m->comm));
		return 0;
	}
	if (!strncmp(line, "snapshot done", 13)) {
		m->kind = RQ_MARK_SNAPSHOT_DONE;
		if (get_int(line, "tasks", &m->ntasks))
			m->ntasks = -1;
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
