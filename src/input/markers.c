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

/*
 * The grammar is positional: after the keyword, the fields of a kind come in one fixed
 * order, each "key=value" with a value free of blanks, separated by single blanks; a
 * field marked optional may be absent, no other key may appear, and nothing may follow
 * the last field.  Only comm, always last, takes the rest of the line, so nothing in a
 * task's name can pass for a field or for "gone".  (The recorder escapes a comm's
 * blanks too, \x20; files written before that carry them raw, and read the same.)
 */

/*
 * At *p: "key=value" (value up to a blank or the end) into out, *p moved past it and its
 * separating blank.  1 found, 0 another key (or none) is here, -1 malformed.
 */
static int take(const char **p, const char *key, char *out, size_t size)
{
	size_t klen = strlen(key), n;
	const char *v;

	if (strncmp(*p, key, klen) || (*p)[klen] != '=')
		return 0;
	v = *p + klen + 1;
	n = strcspn(v, " ");
	if (!n || n >= size)
		return -1;	/* never an empty or a cut value */
	memcpy(out, v, n);
	out[n] = '\0';
	*p = v + n;
	if (**p == ' ' && !*++*p)
		return -1;	/* a blank with nothing after it */
	return 1;
}

/*
 * "key=N" with min <= N <= max.  A value out of range is an error, never wrapped:
 * cpu=4294967297 must not become CPU 1.  Absent: def when optional, else an error.
 */
static int take_int(const char **p, const char *key, long min, long max, bool required,
		    int def, int *out)
{
	char buf[32];
	char *end;
	long v;
	int r = take(p, key, buf, sizeof(buf));

	if (r < 0 || (r == 0 && required))
		return -1;
	if (r == 0) {
		*out = def;
		return 0;
	}
	errno = 0;
	v = strtol(buf, &end, 10);
	if (end == buf || *end || errno || v < min || v > max)
		return -1;
	*out = (int)v;
	return 0;
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
	char line[1024], word[512];
	const char *p;
	int r;

	memset(m, 0, sizeof(*m));
	if (len >= sizeof(line))
		return -1;	/* longer than any line the recorder writes */
	memcpy(line, text, len);
	line[len] = '\0';
	line[strcspn(line, "\n")] = '\0';

	if (!strncmp(line, "kernel ", 7)) {
		p = line + 7;
		m->kind = RQ_MARK_KERNEL;
		if (take(&p, "release", word, sizeof(word)) != 1 ||
		    take_int(&p, "cpus", 1, RQ_MAX_CPUS, true, 0, &m->cpus))
			goto bad;
		rq_unescape_c(word, m->release, sizeof(m->release));
	} else if (!strncmp(line, "cpu ", 4)) {
		p = line + 4;
		m->kind = RQ_MARK_CPU;
		if (take_int(&p, "cpu", 0, RQ_MAX_CPUS - 1, true, 0, &m->cpu) ||
		    take_int(&p, "core", 0, RQ_MAX_CPUS - 1, false, m->cpu, &m->core) ||
		    take_int(&p, "llc", 0, RQ_MAX_CPUS - 1, true, 0, &m->llc) ||
		    take_int(&p, "node", 0, RQ_MAX_CPUS - 1, false, 0, &m->node))
			goto bad;
		r = take(&p, "llc_src", m->llc_src, sizeof(m->llc_src));
		if (r < 0)
			goto bad;
		if (!r)
			strlcpy(m->llc_src, "cache", sizeof(m->llc_src));
		if (take_int(&p, "capacity", 0, 1 << 20, false, 0, &m->capacity))
			goto bad;
	} else if (!strncmp(line, "task ", 5)) {
		p = line + 5;
		if (take_int(&p, "pid", 1, RQ_MAX_PID, true, 0, &m->pid))
			goto bad;
		if (!strcmp(p, "gone")) {
			m->kind = RQ_MARK_TASK_GONE;
			return 0;
		}
		m->kind = RQ_MARK_TASK;
		/* policy: SCHED_OTHER 0 .. SCHED_EXT 7, -1 unknown */
		if (take_int(&p, "tgid", 0, RQ_MAX_PID, false, 0, &m->tgid) ||
		    take_int(&p, "policy", -1, 7, false, -1, &m->policy))
			goto bad;
		r = take(&p, "cpus", m->cpulist, sizeof(m->cpulist));
		if (r < 0 || (r && !valid_cpulist(m->cpulist)))
			goto bad;
		if (!r)
			strlcpy(m->cpulist, "?", sizeof(m->cpulist));
		if (take_int(&p, "idle_cg", 0, 1, false, 0, &m->idle_cg))
			goto bad;
		/* comm is last and takes the rest of the line, whatever it says */
		if (!strncmp(p, "comm=", 5)) {
			rq_unescape_c(p + 5, m->comm, sizeof(m->comm));
			p += strlen(p);
		}
	} else if (!strncmp(line, "snapshot done", 13)) {
		p = line + 13;
		m->kind = RQ_MARK_SNAPSHOT_DONE;
		if (*p == ' ' && p[1])
			p++;
		else if (*p)
			goto bad;
		if (take_int(&p, "tasks", 0, INT_MAX, false, -1, &m->ntasks))
			goto bad;
	} else if (!strncmp(line, "truth ", 6)) {
		p = line + 6;
		m->kind = RQ_MARK_TRUTH;
		if (take(&p, "source", m->truth_source, sizeof(m->truth_source)) != 1 ||
		    (strcmp(m->truth_source, "bpf") && strcmp(m->truth_source, "none")) ||
		    take_int(&p, "drops", 0, INT_MAX, true, 0, &m->truth_drops) ||
		    take_int(&p, "misses", 0, INT_MAX, false, 0, &m->truth_misses))
			goto bad;
	} else {
		goto bad;
	}
	if (*p)
		goto bad;	/* an unknown, repeated or misplaced field, or trailing text */
	return 0;
bad:
	m->kind = RQ_MARK_INVALID;
	return -1;
}

/* rq_escape_c(), and blanks as \x20: a field's value never holds a blank. */
static void escape_field(const char *s, char *buf, size_t size)
{
	char tmp[1024];
	size_t o = 0;

	rq_escape_c(s, strlen(s), tmp, sizeof(tmp));
	for (const char *c = tmp; *c; c++) {
		size_t n = *c == ' ' ? 4 : 1;

		if (o + n >= size)
			break;
		memcpy(buf + o, *c == ' ' ? "\\x20" : c, n);
		o += n;
	}
	buf[o] = '\0';
}

int rq_marker_format(const struct rq_marker *m, char *buf, size_t size)
{
	char comm[sizeof(m->comm) * 4], release[sizeof(m->release) * 4];

	switch (m->kind) {
	case RQ_MARK_KERNEL:
		escape_field(m->release, release, sizeof(release));
		return snprintf(buf, size, RQ_MARKER_PREFIX "kernel release=%s cpus=%d\n",
				release[0] ? release : "?", m->cpus);
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
		escape_field(m->comm, comm, sizeof(comm));
		return snprintf(buf, size,
				RQ_MARKER_PREFIX
				"task pid=%d tgid=%d policy=%d cpus=%s idle_cg=%d comm=%s\n",
				m->pid, m->tgid, m->policy, m->cpulist[0] ? m->cpulist : "?",
				m->idle_cg, comm);
	case RQ_MARK_TASK_GONE:
		return snprintf(buf, size, RQ_MARKER_PREFIX "task pid=%d gone\n", m->pid);
	case RQ_MARK_TRUTH:
		return snprintf(buf, size, RQ_MARKER_PREFIX "truth source=%s drops=%d misses=%d\n",
				strcmp(m->truth_source, "bpf") ? "none" : "bpf", m->truth_drops,
				m->truth_misses);
	case RQ_MARK_SNAPSHOT_DONE:
		if (m->ntasks < 0)	/* unknown */
			return snprintf(buf, size, RQ_MARKER_PREFIX "snapshot done\n");
		return snprintf(buf, size, RQ_MARKER_PREFIX "snapshot done tasks=%d\n", m->ntasks);
	default:
		return -1;
	}
}
