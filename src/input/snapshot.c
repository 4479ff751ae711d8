// SPDX-License-Identifier: GPL-2.0
/*
 * snapshot.c - read the task and CPU attributes tracepoints do not carry and write
 * them into the trace as "rqpath/1 ..." marker lines (markers.h; docs/kernel.md §5).
 *
 *   affinity  /proc/PID/task/TID/status  Cpus_allowed_list
 *   policy    /proc/PID/task/TID/stat    field 41
 *   idle_cg   /proc/PID/task/TID/cgroup  "0::/path" -> cpu.idle of it or an ancestor
 *   topology  /sys/devices/system/cpu/cpuN/{topology,cache/indexK}
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "escape.h"
#include "snapshot.h"

struct cg_idle {
	char *path;
	int idle;
};

struct rq_snapshot {
	int fd;
	void (*on_task)(const struct rq_marker *m, void *data);
	void *on_task_data;
	unsigned long lines;
	char cg_root[PATH_MAX];	/* cgroup v2 mount point, "" if none */
	struct cg_idle *cache;
	int ncache, capcache;
};

/* Read a small file into buf (NUL-terminated); returns length or -1. */
static ssize_t read_small(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n, tot = 0;

	if (fd < 0)
		return -1;
	while ((size_t)tot < size - 1) {
		n = read(fd, buf + tot, size - 1 - tot);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		tot += n;
	}
	close(fd);
	buf[tot] = '\0';
	return tot;
}

static void find_cgroup2(struct rq_snapshot *s)
{
	FILE *f = fopen("/proc/self/mounts", "re");
	char dev[256], dir[PATH_MAX], type[64];

	s->cg_root[0] = '\0';
	if (!f)
		return;
	while (fscanf(f, "%255s %4095s %63s %*[^\n]", dev, dir, type) == 3) {
		if (!strcmp(type, "cgroup2")) {
			snprintf(s->cg_root, sizeof(s->cg_root), "%s", dir);
			break;
		}
	}
	fclose(f);
}

struct rq_snapshot *rq_snapshot_new(int marker_fd)
{
	struct rq_snapshot *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->fd = marker_fd;
	find_cgroup2(s);
	return s;
}

void rq_snapshot_free(struct rq_snapshot *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->ncache; i++)
		free(s->cache[i].path);
	free(s->cache);
	free(s);
}

unsigned long rq_snapshot_lines(const struct rq_snapshot *s)
{
	return s->lines;
}

static int emit_marker(struct rq_snapshot *s, const struct rq_marker *m)
{
	char line[1024];
	int n = rq_marker_format(m, line, sizeof(line));
	ssize_t w;

	if (n < 0)
		return -1;
	if ((size_t)n >= sizeof(line))
		n = sizeof(line) - 1;
	do {
		w = write(s->fd, line, n);
	} while (w < 0 && errno == EINTR);
	if (w < 0)
		return -1;
	s->lines++;
	if (s->on_task && (m->kind == RQ_MARK_TASK || m->kind == RQ_MARK_TASK_GONE))
		s->on_task(m, s->on_task_data);
	return 0;
}

void rq_snapshot_on_task(struct rq_snapshot *s, void (*fn)(const struct rq_marker *m, void *data),
			 void *data)
{
	s->on_task = fn;
	s->on_task_data = data;
}

/* cpu.idle of one cgroup directory (relative to the v2 root): 1, 0, or -1 unknown. */
static int cg_idle_one(struct rq_snapshot *s, const char *rel)
{
	char path[2 * PATH_MAX + 32], buf[32];
	int n = snprintf(path, sizeof(path), "%s%s/cpu.idle", s->cg_root, rel);

	if (n < 0 || (size_t)n >= sizeof(path) || read_small(path, buf, sizeof(buf)) < 0)
		return -1;
	return atoi(buf) == 1;
}

/* 1 if the cgroup v2 path rel or one of its ancestors has cpu.idle = 1. */
static int cg_idle(struct rq_snapshot *s, const char *rel)
{
	char p[PATH_MAX];
	int idle = 0;

	if (!s->cg_root[0])
		return 0;
	for (int i = 0; i < s->ncache; i++)
		if (!strcmp(s->cache[i].path, rel))
			return s->cache[i].idle;
	snprintf(p, sizeof(p), "%s", rel);
	for (;;) {
		char *slash;

		if (p[0] && strcmp(p, "/") && cg_idle_one(s, p) == 1) {
			idle = 1;
			break;
		}
		slash = strrchr(p, '/');
		if (!slash || slash == p)
			break;
		*slash = '\0';
	}
	if (s->ncache == s->capcache) {
		int cap = s->capcache ? s->capcache * 2 : 32;
		struct cg_idle *nc = realloc(s->cache, cap * sizeof(*nc));

		if (!nc)
			return idle;
		s->cache = nc;
		s->capcache = cap;
	}
	s->cache[s->ncache].path = strdup(rel);
	if (s->cache[s->ncache].path) {
		s->cache[s->ncache].idle = idle;
		s->ncache++;
	}
	return idle;
}

int rq_snapshot_read_task(struct rq_snapshot *s, int tgid, int tid, struct rq_marker *m)
{
	char dir[64], path[96], buf[8192];
	char *p, *line;
	int field;

	memset(m, 0, sizeof(*m));
	m->kind = RQ_MARK_TASK;
	m->pid = tid;
	m->tgid = tgid;
	m->policy = -1;
	strcpy(m->cpulist, "?");
	if (tgid > 0)
		snprintf(dir, sizeof(dir), "/proc/%d/task/%d", tgid, tid);
	else
		snprintf(dir, sizeof(dir), "/proc/%d", tid);

	snprintf(path, sizeof(path), "%s/status", dir);
	if (read_small(path, buf, sizeof(buf)) <= 0)
		return -1;
	for (line = strtok_r(buf, "\n", &p); line; line = strtok_r(NULL, "\n", &p)) {
		if (!strncmp(line, "Tgid:", 5)) {
			m->tgid = atoi(line + 5);
		} else if (!strncmp(line, "Cpus_allowed_list:", 18)) {
			char *v = line + 18;

			while (*v == ' ' || *v == '\t')
				v++;
			snprintf(m->cpulist, sizeof(m->cpulist), "%s", v);
		}
	}

	snprintf(path, sizeof(path), "%s/comm", dir);
	if (read_small(path, buf, sizeof(buf)) < 0)
		return -1;
	if (buf[0] && buf[strlen(buf) - 1] == '\n')
		buf[strlen(buf) - 1] = '\0';
	snprintf(m->comm, sizeof(m->comm), "%s", buf);

	/* stat: "pid (comm) state ..." - comm may hold anything, skip to the last ')'. */
	snprintf(path, sizeof(path), "%s/stat", dir);
	if (read_small(path, buf, sizeof(buf)) > 0) {
		p = strrchr(buf, ')');
		field = 2;
		for (; p && *p; p++) {
			if (*p != ' ')
				continue;
			field++;
			if (field == 41) {
				m->policy = atoi(p + 1);
				break;
			}
		}
	}

	snprintf(path, sizeof(path), "%s/cgroup", dir);
	if (read_small(path, buf, sizeof(buf)) > 0) {
		for (line = strtok_r(buf, "\n", &p); line; line = strtok_r(NULL, "\n", &p)) {
			if (!strncmp(line, "0::", 3)) {
				m->idle_cg = cg_idle(s, line + 3);
				break;
			}
		}
	}
	return 0;
}

int rq_snapshot_task(struct rq_snapshot *s, int pid)
{
	struct rq_marker m;

	if (pid <= 0)
		return 0;
	if (rq_snapshot_read_task(s, 0, pid, &m) < 0) {
		memset(&m, 0, sizeof(m));
		m.kind = RQ_MARK_TASK_GONE;
		m.pid = pid;
	}
	return emit_marker(s, &m);
}

/* First CPU of a sysfs cpu list file, or -1. */
static int first_cpu_of(const char *path)
{
	char buf[256];

	if (read_small(path, buf, sizeof(buf)) <= 0 || !isdigit((unsigned char)buf[0]))
		return -1;
	return atoi(buf);
}

void rq_snapshot_cpu(int cpu, struct rq_marker *m)
{
	char path[256], buf[64];
	int best_level = -1;
	DIR *d;
	struct dirent *de;

	memset(m, 0, sizeof(*m));
	m->kind = RQ_MARK_CPU;
	m->cpu = cpu;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/core_cpus_list", cpu);
	m->core = first_cpu_of(path);
	if (m->core < 0) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
		m->core = first_cpu_of(path);
	}
	if (m->core < 0)
		m->core = cpu;

	m->llc = -1;
	for (int k = 0; k < 16; k++) {
		int level, first;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index%d/level",
			 cpu, k);
		if (read_small(path, buf, sizeof(buf)) <= 0)
			continue;
		level = atoi(buf);
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list", cpu, k);
		first = first_cpu_of(path);
		if (first >= 0 && level > best_level) {
			best_level = level;
			m->llc = first;
		}
	}
	if (m->llc >= 0) {
		strcpy(m->llc_src, "cache");
	} else {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/topology/package_cpus_list", cpu);
		m->llc = first_cpu_of(path);
		if (m->llc < 0) {
			snprintf(path, sizeof(path),
				 "/sys/devices/system/cpu/cpu%d/topology/core_siblings_list", cpu);
			m->llc = first_cpu_of(path);
		}
		if (m->llc >= 0) {
			strcpy(m->llc_src, "package");
		} else {
			m->llc = 0;
			strcpy(m->llc_src, "assumed");
		}
	}

	/* arm64/riscv, and x86 with hybrid cores: absent elsewhere (0: unknown) */
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpu_capacity", cpu);
	if (read_small(path, buf, sizeof(buf)) > 0 && isdigit((unsigned char)buf[0]))
		m->capacity = atoi(buf);

	m->node = 0;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
	d = opendir(path);
	if (d) {
		while ((de = readdir(d))) {
			if (!strncmp(de->d_name, "node", 4) && isdigit((unsigned char)de->d_name[4])) {
				m->node = atoi(de->d_name + 4);
				break;
			}
		}
		closedir(d);
	}
}

int rq_snapshot_system(struct rq_snapshot *s)
{
	struct rq_marker m;
	struct utsname u;
	int ncpus = get_nprocs_conf();

	memset(&m, 0, sizeof(m));
	m.kind = RQ_MARK_KERNEL;
	if (uname(&u) == 0)
		snprintf(m.release, sizeof(m.release), "%s", u.release);
	else
		strcpy(m.release, "unknown");
	m.cpus = ncpus;
	if (emit_marker(s, &m) < 0)
		return -1;
	for (int cpu = 0; cpu < ncpus; cpu++) {
		rq_snapshot_cpu(cpu, &m);
		if (emit_marker(s, &m) < 0)
			return -1;
	}
	return 0;
}

int rq_snapshot_all(struct rq_snapshot *s)
{
	struct rq_marker m;
	DIR *proc, *tasks;
	struct dirent *pe, *te;
	char path[64];
	int ntasks = 0;

	if (rq_snapshot_system(s) < 0)
		return -1;

	proc = opendir("/proc");
	if (proc) {
		while ((pe = readdir(proc))) {
			int tgid;

			if (!rq_is_decimal(pe->d_name))
				continue;
			tgid = atoi(pe->d_name);
			snprintf(path, sizeof(path), "/proc/%d/task", tgid);
			tasks = opendir(path);
			if (!tasks)
				continue;
			while ((te = readdir(tasks))) {
				if (!rq_is_decimal(te->d_name))
					continue;
				if (rq_snapshot_read_task(s, tgid, atoi(te->d_name), &m) < 0)
					continue;	/* exited meanwhile */
				if (emit_marker(s, &m) < 0) {
					closedir(tasks);
					closedir(proc);
					return -1;
				}
				ntasks++;
			}
			closedir(tasks);
		}
		closedir(proc);
	}
	memset(&m, 0, sizeof(m));
	m.kind = RQ_MARK_SNAPSHOT_DONE;
	m.ntasks = ntasks;
	if (emit_marker(s, &m) < 0)
		return -1;
	return ntasks;
}
