// SPDX-License-Identifier: GPL-2.0
/*
 * tracefs.c - the live source: a private tracefs instance per run ("rqpath-<pid>"),
 * per-CPU raw ring-buffer pages read through libtracefs and written unchanged into a
 * trace.dat (tracedat_write.c).  The same pages are the live source of a pump (pump.h):
 * kbuffer walks each CPU's records, the pump merges the CPUs, decodes each record once
 * and hands it to the recorder's own sink (statistics, attribute capture) and to any
 * sink the caller adds (the live TUI's analysis).  Task attributes that tracepoints
 * cannot show are written into the trace as marker lines (snapshot.c).
 *
 * The recorder runs no process and installs no signal handler: the program hands it
 * the command's hooks and a stop flag (recorder.h; rqpath's are src/cli/child.c).
 *
 * Residue rule: whatever happens (normal end, error, the stop flag) the instance is
 * destroyed before rq_recorder_finish() returns; an instance left by a run that was
 * killed outright is removed by the next run once its pid is gone.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <dirent.h>
#include <time.h>
#include <unistd.h>

#include <event-parse.h>
#include <kbuffer.h>
#include <tracefs.h>

#include "decode.h"
#include "escape.h"
#include "markers.h"
#include "msg.h"
#include "outfile.h"
#include "pump.h"
#include "recorder.h"
#include "snapshot.h"
#include "tracedat_write.h"
#include "truth_bpf.h"
#include "truth_fmt.h"

/*
 * Default ring buffer: 64 MB in all, split over the CPUs, 4 to 32 MB each.  The recorder
 * shares the CPUs with the workload; on a busy machine it can be kept off them for a
 * second or more, and the buffer must hold what is written meanwhile (hackbench writes
 * ~5 MB/s per CPU; 4 MB lost events on a loaded 2-CPU machine).
 */
#define DEFAULT_BUFFER_TOTAL_KB	65536
#define DEFAULT_BUFFER_MIN_KB	4096
#define DEFAULT_BUFFER_MAX_KB	32768
#define POLL_MS			100	/* rq_record_run(): longest wait for data */
#define MAX_BATCH_PAGES		256	/* per CPU per read round */
/*
 * With the mono trace clock, a record stamped later than this before a read round began
 * waits for the next round: another CPU, read earlier in the round, may still have older
 * ones to come (and a record reserved before the read may commit just after it).
 */
#define HOLD_NS			2000000ULL
/* What a snapshot line takes in the ring buffer, at most (print event and text). */
#define SNAPSHOT_LINE_BYTES	160

/* The events rqpath records, and what is lost without each: events.def. */
static const struct rec_event {
	const char *system;
	const char *name;
	const char *loses;
} rec_events[] = {
#define RQ_EVENT(id, system, name, recorded, loses, ...) \
	RQ_IF_RECORDED_##recorded({ system, name, loses },)
#include "events.def"
#undef RQ_EVENT
};

#define NR_REC_EVENTS (sizeof(rec_events) / sizeof(rec_events[0]))

/* A syscall enter seen, waiting for its exit: who changed which task. */
#define SETTERS 256
struct setter {
	int caller;
	int target;
};

/* Where the live source is in CPU cpu's pages of the current round. */
struct live_cursor {
	int page;		/* next page of the batch to load */
	void *data;		/* the record handed out last, NULL: none on this page */
	unsigned long long ts;
	long long missed;	/* lost before the next record: 0, -1 unknown, N */
	bool seen;
	bool held;		/* data is the next record, not handed out: past the horizon */
	uint64_t last_ts;
	struct rq_raw rec;	/* the record handed out */
};

struct session {
	const struct rq_record_opts *o;
	struct rq_record_stats *st;
	char *err;
	size_t errlen;

	struct tracefs_instance *inst;
	char inst_name[64];
	int ncpus;
	int page_size;
	struct tracefs_cpu **tcpu;
	int *cpu_fd;		/* trace_pipe_raw of each CPU, polled for data */
	struct pollfd *pfds;
	struct kbuffer **kb;
	struct live_cursor *cur;
	bool mono;		/* trace_clock is mono: CLOCK_MONOTONIC's nanoseconds */
	bool draining;		/* no horizon: every record read goes out */
	uint64_t horizon;	/* records stamped later wait for the next round */
	int *kept, *kept_off;	/* per CPU: pages kept for the next round, the record's offset */
	struct tep_handle *tep;
	struct rq_pump *pump;
	struct rq_tdw *w;
	struct rq_snapshot *snap;
	int marker_fd;

	char *header_page, *header_event;
	size_t header_page_len, header_event_len;
	struct rq_tdw_format *ftrace, *events;
	int nr_ftrace, nr_events;

	bool *enabled;		/* per rec_events[] entry */

	/* pages of the current read round, per CPU */
	char **batch;
	int *batch_n;

	struct setter setters[SETTERS];

	/*
	 * Kernel truth (truth_bpf.h): its records, encoded as rqpath:truth events, wait in
	 * tq (time order, by index into the arena) for the pump, which takes them as the
	 * stream after the CPUs; each goes into the file's truth buffer as it is handed out.
	 */
	struct rq_truth_bpf *bpf;
	int stats_fd;		/* open: the kernel's BPF run-time statistics are on (or -1) */
	int truth_id, truth_hdr;	/* the event's id, where its fields start */
	struct truth_q { uint64_t ts; uint32_t off, len; } *tq;
	size_t tq_n, tq_cap, tq_pos;	/* queued, room, the next to hand out */
	unsigned char *ta;		/* their bytes */
	size_t ta_used, ta_cap;
	bool truth_failed;		/* out of memory: the records from then on are dropped */
	uint64_t truth_lost;		/* ... this many */
	struct rq_raw truth_rec;	/* the record handed out */
	uint64_t last_ts;		/* of the latest event the pump handed out */

	/* attribute re-reads without the syscall events (want_reread()) */
	struct attr_slot *attrs;	/* ATTR_SLOTS, direct-mapped by pid */
	bool *cur_stopper;		/* per CPU: a migration/N stopper is running */
	double tokens;			/* global re-read budget */
	double tokens_at;

	/*
	 * The kernel and cpu lines of the snapshot came back through the ring buffer: a
	 * small buffer can overwrite them with the task lines that follow (the replay then
	 * has no topology), so until one is read back they are written again.
	 */
	bool system_seen;
	double system_written;	/* when they were last written (elapsed()) */
	bool system_last;	/* written once more while draining */
	unsigned long buffer_kb;	/* per CPU */
	bool disk_full;		/* the output's file system filled: stop storing pages */
	int full_errno;		/* ENOSPC, EDQUOT or EFBIG */
	bool *cpu_full;		/* per CPU: its pages no longer fit */

	bool cmd_started;	/* opts->cmd's start() succeeded: its stop() is owed */
	bool cmd_ended;		/* opts->cmd's ended() said so */
	struct timespec t0;
	double last_progress;
	bool progress;
	bool drained;
	/* rq_recorder_stalled(): checked at most once a second */
	double stall_checked;
	const char *stall;
	/* what rq_recorder_start() changed in the process, put back by finish */
	char *mounted;
};

/* The output's name for messages, escaped. */
static void out_name(const struct rq_record_opts *o, char *buf, size_t size)
{
	if (o->output && *o->output)
		rq_escape_c(o->output, strlen(o->output), buf, size);
	else
		snprintf(buf, size, "the temporary trace file");
}

static double elapsed(const struct session *s)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - s->t0.tv_sec) + (now.tv_nsec - s->t0.tv_nsec) / 1e9;
}

/* Read a whole file (tracefs files report size 0); NULL on error. */
static char *slurp(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 8192, n = 0;
	char *buf;

	if (fd < 0)
		return NULL;
	buf = malloc(cap + 1);
	while (buf) {
		ssize_t r;

		if (n == cap) {
			char *nb = realloc(buf, cap * 2 + 1);

			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			buf = NULL;
			break;
		}
		if (r == 0)
			break;
		n += r;
	}
	close(fd);
	if (buf) {
		buf[n] = '\0';
		*len = n;
	}
	return buf;
}

static char *tracing_path(const char *rel)
{
	const char *dir = tracefs_tracing_dir();
	char *p;

	if (!dir || asprintf(&p, "%s/%s", dir, rel) < 0)
		return NULL;
	return p;
}

/*
 * The pid namespace rqpath runs in: a pid is only meaningful inside it.  Instances of
 * the initial namespace are "rqpath-<pid>"; any other namespace puts its inode in the
 * name ("rqpath-ns<inode>-<pid>"), so two recordings never share a name and a pid is
 * only ever checked in the namespace it belongs to.
 */
#define INIT_PIDNS_INO	0xEFFFFFFCULL	/* PROC_PID_INIT_INO */

static unsigned long long pidns_ino(void)
{
	struct stat st;

	if (stat("/proc/self/ns/pid", &st) < 0)
		return INIT_PIDNS_INO;
	return (unsigned long long)st.st_ino;
}

static void instance_name(char *buf, size_t size)
{
	unsigned long long ns = pidns_ino();

	if (ns == INIT_PIDNS_INO)
		snprintf(buf, size, "rqpath-%d", (int)getpid());
	else
		snprintf(buf, size, "rqpath-ns%llu-%d", ns, (int)getpid());
}

/* "rqpath-<pid>" or "rqpath-ns<ino>-<pid>"; 0, or -1 for any other name. */
static int parse_instance_name(const char *name, unsigned long long *ns, long *pid)
{
	const char *p = name + 7;
	char *end;

	if (strncmp(name, "rqpath-", 7))
		return -1;
	*ns = INIT_PIDNS_INO;
	if (!strncmp(p, "ns", 2) && isdigit((unsigned char)p[2])) {
		*ns = strtoull(p + 2, &end, 10);
		if (*end != '-')
			return -1;
		p = end + 1;
	}
	if (!isdigit((unsigned char)*p))
		return -1;
	*pid = strtol(p, &end, 10);
	return *end || *pid <= 0 ? -1 : 0;
}

/*
 * Remove instances left by rqpath runs that were killed outright; never touch a live
 * one.  An instance is only judged by its pid in our own pid namespace (the pid is
 * gone); whatever the judgement, the only action is rmdir, which the kernel refuses
 * (EBUSY) while any process holds a file of the instance open, and every recording
 * holds its trace_marker open from the moment it creates its instance.  Nothing is
 * turned off or disabled first: a busy instance stays exactly as it was.
 * (Listed with readdir: tracefs_instances() leaks its regex in libtracefs 1.6.)
 */
static void remove_stale_instances(bool quiet)
{
	unsigned long long myns = pidns_ino(), ns;
	char *dir = tracing_path("instances");
	struct dirent *de;
	DIR *d = dir ? opendir(dir) : NULL;
	char mine[64];
	long pid;

	instance_name(mine, sizeof(mine));
	if (!d) {
		free(dir);
		return;
	}
	while ((de = readdir(d))) {
		char path[PATH_MAX];

		if (parse_instance_name(de->d_name, &ns, &pid) < 0 || !strcmp(de->d_name, mine))
			continue;
		if (ns == myns && (kill((pid_t)pid, 0) == 0 || errno != ESRCH))
			continue;	/* its owner still runs here */
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (rmdir(path) == 0 || errno == ENOENT || quiet)
			continue;
		if (errno == EBUSY && ns != myns)
			rq_warn("tracefs instance %s belongs to a recording in another pid "
				"namespace and is in use; left alone", de->d_name);
		else
			rq_warn("could not remove the stale tracefs instance %s: %s; remove it "
				"with: rmdir %s", de->d_name, strerror(errno), path);
	}
	closedir(d);
	free(dir);
}

static void free_formats(struct rq_tdw_format *f, int n)
{
	for (int i = 0; i < n; i++) {
		free(f[i].system);
		free(f[i].name);
		free(f[i].buf);
	}
	free(f);
}

static int add_format(struct rq_tdw_format **arr, int *n, const char *sys, const char *name,
		      char *buf, size_t len)
{
	struct rq_tdw_format *na = realloc(*arr, (*n + 1) * sizeof(**arr));

	if (!na)
		return -1;
	*arr = na;
	na[*n].system = strdup(sys);
	na[*n].name = strdup(name);
	na[*n].buf = buf;
	na[*n].len = len;
	if (!na[*n].system || !na[*n].name) {
		free(na[*n].system);
		free(na[*n].name);
		return -1;
	}
	(*n)++;
	return 0;
}

static int load_ftrace_formats(struct session *s)
{
	char *dir = tracing_path("events/ftrace");
	struct dirent *de;
	DIR *d;

	if (!dir)
		return -1;
	d = opendir(dir);
	if (!d) {
		free(dir);
		return -1;
	}
	while ((de = readdir(d))) {
		char path[PATH_MAX];
		size_t len;
		char *buf;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/format", dir, de->d_name);
		buf = slurp(path, &len);
		if (!buf)
			continue;
		if (add_format(&s->ftrace, &s->nr_ftrace, "ftrace", de->d_name, buf, len) < 0) {
			free(buf);
			break;
		}
	}
	closedir(d);
	free(dir);
	return 0;
}

/* Build a tep_handle from exactly the formats that go into the file. */
static int build_tep(struct session *s)
{
	struct tep_handle *tep = tep_alloc();
	int big = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	int i;

	if (!tep)
		return -1;
	tep_set_file_bigendian(tep, big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, sizeof(long));
	tep_set_page_size(tep, getpagesize());
	if (tep_parse_header_page(tep, s->header_page, s->header_page_len, sizeof(long)) < 0) {
		tep_free(tep);
		return -1;
	}
	for (i = 0; i < s->nr_ftrace; i++)
		tep_parse_event(tep, s->ftrace[i].buf, s->ftrace[i].len, "ftrace");
	for (i = 0; i < s->nr_events; i++)
		tep_parse_event(tep, s->events[i].buf, s->events[i].len, s->events[i].system);
	s->tep = tep;
	return 0;
}

/*
 * What the recorder last read of a task: when, and its affinity (CPUs below 64; a
 * wider mask is not judged).  Direct-mapped: a slot holding another pid is unknown.
 */
#define ATTR_SLOTS	8192
#define REREAD_GAP	0.010	/* seconds between two re-reads of one task */
#define REFRESH_AGE	0.250	/* a task woken this long after its last read: read again */
#define REREAD_RATE	1000.0	/* re-reads a second, all tasks together */
#define REREAD_BURST	200.0

struct attr_slot {
	int pid;
	bool mask_known;
	uint64_t mask;
	double at;		/* elapsed() of the last read */
};

static void note_attrs(const struct rq_marker *m, void *data)
{
	struct session *s = data;
	struct attr_slot *a;
	const char *p;

	if (!s->attrs || m->pid <= 0)
		return;
	a = &s->attrs[(unsigned int)m->pid % ATTR_SLOTS];
	a->pid = m->pid;
	a->at = elapsed(s);
	a->mask = 0;
	a->mask_known = m->kind == RQ_MARK_TASK && strcmp(m->cpulist, "?");
	for (p = m->cpulist; a->mask_known && *p;) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;

		if (end == p)
			break;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		if (hi >= 64) {
			a->mask_known = false;
			break;
		}
		for (long c = lo; c <= hi; c++)
			a->mask |= 1ull << c;
		p = *end == ',' ? end + 1 : end;
		if (end == p && *p)
			break;
	}
}

/* Read a task's attributes now and write them into the trace (note_attrs() sees them). */
static void snapshot(struct session *s, int pid)
{
	rq_snapshot_task(s->snap, pid);
}

/*
 * Without the syscall events an affinity or policy change shows only indirectly; the
 * task is read again (rate-limited, per task and overall) when the trace shows one may
 * have happened: a migration done by a migration/N stopper (set_cpus_allowed_ptr()
 * moves a running task that way), or a placement on a CPU outside the mask read last;
 * and a task that is woken more than REFRESH_AGE after its last read is read again, so
 * that a change that moves nothing (a policy change, a mask that still holds the task's
 * CPU) is seen within that time.  Blind spot, stated in rqpath(1): between a change and
 * the re-read the trace has the old attributes.
 */
static bool want_reread(struct session *s, const struct rq_event *ev, int *pid)
{
	struct attr_slot *a;
	int cpu = -1;
	double now;

	switch (ev->type) {
	case RQ_EV_SWITCH:
		if (ev->cpu >= 0 && ev->cpu < s->ncpus)
			s->cur_stopper[ev->cpu] = !strncmp(ev->comm2, "migration/", 10);
		return false;
	case RQ_EV_MIGRATE:
		cpu = ev->cpu_b;
		break;
	case RQ_EV_WAKEUP:
	case RQ_EV_WAKEUP_NEW:
		cpu = ev->cpu_a;
		break;
	default:
		return false;
	}
	*pid = ev->pid;
	if (ev->pid <= 0 || !s->attrs)
		return false;
	a = &s->attrs[(unsigned int)ev->pid % ATTR_SLOTS];
	now = elapsed(s);
	if (!(ev->type == RQ_EV_MIGRATE && ev->cpu >= 0 && ev->cpu < s->ncpus &&
	      s->cur_stopper[ev->cpu]) &&
	    !(a->pid == ev->pid && a->mask_known && cpu >= 0 &&
	      (cpu >= 64 || !(a->mask & (1ull << cpu)))) &&
	    !(ev->type != RQ_EV_MIGRATE && (a->pid != ev->pid || now - a->at > REFRESH_AGE)))
		return false;
	if (a->pid == ev->pid && now - a->at < REREAD_GAP)
		return false;
	s->tokens += (now - s->tokens_at) * REREAD_RATE;
	s->tokens_at = now;
	if (s->tokens > REREAD_BURST)
		s->tokens = REREAD_BURST;
	if (s->tokens < 1.0)
		return false;
	s->tokens -= 1.0;
	return true;
}

/* Fork, exec and scheduler syscalls: read the task's attributes now, while it exists. */
static void capture_attributes(struct session *s, const struct rq_event *ev)
{
	struct setter *st;
	int pid;

	if (!s->snap)
		return;
	switch (ev->type) {
	case RQ_EV_FORK:
		snapshot(s, ev->pid2);
		break;
	case RQ_EV_EXEC:
	case RQ_EV_CGROUP_ATTACH:
		snapshot(s, ev->pid);
		break;
	case RQ_EV_SETAFFINITY_ENTER:
	case RQ_EV_SETSCHED_ENTER:
	case RQ_EV_SETATTR_ENTER:
		st = &s->setters[(unsigned int)ev->common_pid % SETTERS];
		st->caller = ev->common_pid;
		st->target = ev->pid ? ev->pid : ev->common_pid;
		break;
	case RQ_EV_SETAFFINITY_EXIT:
	case RQ_EV_SETSCHED_EXIT:
	case RQ_EV_SETATTR_EXIT:
		st = &s->setters[(unsigned int)ev->common_pid % SETTERS];
		if (st->caller == ev->common_pid && st->target > 0) {
			snapshot(s, st->target);
		} else {
			/* the enter was before the trace: the caller itself is the best guess */
			snapshot(s, ev->common_pid);
		}
		st->caller = 0;
		st->target = 0;
		break;
	default:
		if (want_reread(s, ev, &pid))
			snapshot(s, pid);
		break;
	}
}

/* ---- the live source ------------------------------------------------------------ */

/*
 * The next record of CPU cpu in this round's pages.  kbuffers are per CPU, so each one
 * still points at the record it handed out last until this CPU is asked again.
 */
static int truth_next(struct session *s, const struct rq_raw **out);

static int live_next(void *ctx, int cpu, const struct rq_raw **out)
{
	struct session *s = ctx;
	struct live_cursor *c;
	struct kbuffer *kb;
	struct rq_raw *rec;

	if (__builtin_expect(cpu >= s->ncpus, 0))
		return truth_next(s, out);
	c = &s->cur[cpu];
	kb = s->kb[cpu];
	rec = &c->rec;

	if (c->data && !c->held)
		c->data = kbuffer_next_event(kb, &c->ts);
	c->held = false;
	while (!c->data) {
		int missed;

		if (c->page >= s->batch_n[cpu])
			return 0;
		kbuffer_load_subbuffer(kb, s->batch[cpu] + (size_t)c->page++ * s->page_size);
		missed = kbuffer_missed_events(kb);
		if (missed < 0)
			c->missed = -1;
		else if (missed > 0 && c->missed >= 0)
			c->missed += missed;
		c->data = kbuffer_read_event(kb, &c->ts);
	}
	/* in time order across CPUs: what a CPU read later in the round wrote may be older */
	if (c->ts > s->horizon) {
		c->held = true;
		return 0;
	}
	rec->ts = c->ts;
	rec->cpu = (int16_t)cpu;
	rec->data = c->data;
	rec->size = kbuffer_event_size(kb);
	rec->missed = c->missed;
	rec->backwards = c->seen && c->ts < c->last_ts;
	c->missed = 0;
	c->seen = true;
	c->last_ts = c->ts;
	*out = rec;
	return 1;
}

static int read_round(struct session *s, const int *kept, bool *any);

/*
 * The truth stream's next record, up to the horizon like the CPUs' (a record stamped
 * later waits for the next round: a CPU may still have older ones to come), stored in
 * the file's truth buffer as it goes out, so that the file has them in time order.
 */
static int truth_next(struct session *s, const struct rq_raw **out)
{
	struct truth_q *q;

	if (s->tq_pos >= s->tq_n)
		return 0;
	q = &s->tq[s->tq_pos];
	if (q->ts > s->horizon)
		return 0;
	s->tq_pos++;
	if (!s->disk_full && rq_tdw_add_record(s->w, q->ts, s->ta + q->off, q->len) < 0) {
		if (errno == ENOSPC || errno == EDQUOT || errno == EFBIG) {
			s->full_errno = errno;
			s->disk_full = true;
		} else {
			snprintf(s->err, s->errlen, "cannot store a truth record: %s",
				 strerror(errno));
			return -1;
		}
	}
	s->truth_rec.ts = q->ts;
	s->truth_rec.cpu = (int16_t)s->ncpus;
	s->truth_rec.data = s->ta + q->off;
	s->truth_rec.size = q->len;
	s->truth_rec.missed = 0;
	s->truth_rec.backwards = false;
	*out = &s->truth_rec;
	return 1;
}

/* A record from the BPF ring buffer: encoded, queued in time order. */
static void on_truth(void *data, const struct rq_truth_rec *r)
{
	struct session *s = data;
	struct truth_q *q;
	size_t i;

	if (s->truth_failed) {
		s->truth_lost++;
		return;
	}
	if (s->tq_n == s->tq_cap) {
		size_t cap = s->tq_cap ? s->tq_cap * 2 : 4096;
		struct truth_q *nq = realloc(s->tq, cap * sizeof(*nq));

		if (!nq)
			goto nomem;
		s->tq = nq;
		s->tq_cap = cap;
	}
	if (s->ta_cap - s->ta_used < RQ_TRUTH_EVENT_MAX) {
		size_t cap = s->ta_cap ? s->ta_cap * 2 : 1 << 20;
		unsigned char *na = realloc(s->ta, cap);

		if (!na)
			goto nomem;
		s->ta = na;
		s->ta_cap = cap;
	}
	/* the ring buffer is in reservation order: the times are nearly sorted */
	for (i = s->tq_n; i > s->tq_pos && s->tq[i - 1].ts > r->ts; i--)
		;
	memmove(&s->tq[i + 1], &s->tq[i], (s->tq_n - i) * sizeof(*s->tq));
	q = &s->tq[i];
	q->ts = r->ts;
	q->off = (uint32_t)s->ta_used;
	q->len = rq_truth_encode(r, s->truth_id, s->truth_hdr, s->ncpus, s->ta + s->ta_used);
	s->ta_used += q->len;
	s->tq_n++;
	return;
nomem:
	s->truth_failed = true;
	s->truth_lost++;
}

/*
 * Before a round: what is handed out of the truth queue goes (nothing points into it:
 * the pump refills only once every stream's records are used), and the BPF ring buffer
 * is drained into it.  1 when something new came.
 */
static int truth_round(struct session *s)
{
	size_t keep = s->tq_n - s->tq_pos, n0;

	if (!s->bpf)
		return 0;
	if (s->tq_pos) {
		size_t base = keep ? s->tq[s->tq_pos].off : s->ta_used, lo = base;

		/* the records left are at the end of the arena, in arrival order */
		for (size_t i = s->tq_pos; i < s->tq_n; i++)
			if (s->tq[i].off < lo)
				lo = s->tq[i].off;
		memmove(s->ta, s->ta + lo, s->ta_used - lo);
		s->ta_used -= lo;
		for (size_t i = s->tq_pos; i < s->tq_n; i++)
			s->tq[i].off -= (uint32_t)lo;
		memmove(s->tq, s->tq + s->tq_pos, keep * sizeof(*s->tq));
		s->tq_n = keep;
		s->tq_pos = 0;
	}
	n0 = s->tq_n;
	if (rq_truth_bpf_drain(s->bpf) < 0 && !s->o->quiet)
		rq_warn("reading the BPF ring buffer: %s", strerror(errno));
	return s->tq_n > n0;
}

/*
 * A CPU's pages from the one of its held record on move to the front of its batch (the
 * round appends after them); returns how many, and *off the record's offset in its page.
 */
static int keep_held(struct session *s, int cpu, int *off)
{
	struct live_cursor *c = &s->cur[cpu];
	int first = c->page - 1, n;

	if (!c->held || first < 0)
		return 0;
	*off = kbuffer_curr_offset(s->kb[cpu]);
	n = s->batch_n[cpu] - first;
	memmove(s->batch[cpu], s->batch[cpu] + (size_t)first * s->page_size,
		(size_t)n * s->page_size);
	return n;
}

/*
 * The pump has used up every CPU's pages (or stopped at the horizon): read the next
 * round.  1 when a record can go out now.
 */
static int live_refill(void *ctx)
{
	struct session *s = ctx;
	int *nkept = s->kept, *off = s->kept_off;
	bool any, ready = false;

	for (int cpu = 0; cpu < s->ncpus; cpu++)
		nkept[cpu] = keep_held(s, cpu, &off[cpu]);
	if (read_round(s, nkept, &any) < 0)
		return -1;
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		struct live_cursor *c = &s->cur[cpu];

		c->page = 0;
		c->data = NULL;
		if (!nkept[cpu]) {
			c->held = false;
			continue;
		}
		/* the held record again, its page's lost count already taken */
		kbuffer_load_subbuffer(s->kb[cpu], s->batch[cpu]);
		c->data = kbuffer_read_at_offset(s->kb[cpu], off[cpu], &c->ts);
		c->page = 1;
		c->held = c->data != NULL;
		ready |= c->held && c->ts <= s->horizon;
	}
	ready |= s->tq_pos < s->tq_n && s->tq[s->tq_pos].ts <= s->horizon;
	return any || ready;
}

static const char *live_error(void *ctx)
{
	struct session *s = ctx;

	return s->err;
}

static const struct rq_source_ops live_ops = {
	.next = live_next,
	.refill = live_refill,
	.error = live_error,
};

/* The recorder's own sink, first of all: statistics and attribute capture. */
static void record_sink(void *data, const struct rq_event *ev)
{
	struct session *s = data;

	if (ev->type == RQ_EV_LOST)
		return;
	if (ev->type == RQ_EV_MARKER && !s->system_seen && ev->common_pid == getpid() &&
	    ev->str && ev->str_len >= 7 && !strncmp(ev->str, "kernel ", 7))
		s->system_seen = true;
	/* the events are the tracepoints' (the truth records are counted apart) */
	s->st->events += ev->type != RQ_EV_TRUTH;
	/* the live source's promise (the horizon): never an event older than one before */
	if (ev->ts < s->last_ts)
		s->st->out_of_order++;
	else
		s->last_ts = ev->ts;
	s->st->by_type[ev->type]++;
	capture_attributes(s, ev);
}

/*
 * One round: read what each CPU has (up to a batch, after the kept[cpu] pages still to
 * hand out), store it, hand it out up to the horizon.
 */
static int read_round(struct session *s, const int *kept, bool *any)
{
	int cpu, r;

	*any = false;
	if (s->mono && !s->draining) {
		struct timespec now;

		clock_gettime(CLOCK_MONOTONIC, &now);
		s->horizon = (uint64_t)now.tv_sec * 1000000000ULL + (uint64_t)now.tv_nsec -
			     HOLD_NS;
	} else {
		s->horizon = UINT64_MAX;
	}
	/* after the horizon is taken: a truth record read later is held like a CPU's */
	if (truth_round(s) > 0)
		*any = true;
	for (cpu = 0; cpu < s->ncpus; cpu++) {
		s->batch_n[cpu] = kept[cpu];
		while (s->batch_n[cpu] < MAX_BATCH_PAGES) {
			char *page = s->batch[cpu] + (size_t)s->batch_n[cpu] * s->page_size;

			r = tracefs_cpu_read(s->tcpu[cpu], page, true);
			if (r <= 0)
				break;
			*any = true;
			if (r < s->page_size)
				memset(page + r, 0, s->page_size - r);
			/*
			 * A CPU whose pages no longer fit is drained and dropped; the others
			 * still store this round (a file-size limit hits one temporary file
			 * first), so that the file keeps a common time prefix of every CPU.
			 */
			if (s->cpu_full[cpu])
				continue;
			if (rq_tdw_add_page(s->w, cpu, page, s->page_size) < 0) {
				char name[512];

				out_name(s->o, name, sizeof(name));
				if (errno == ENOSPC || errno == EDQUOT || errno == EFBIG) {
					/* reported once the file is closed and readable */
					s->full_errno = errno;
					s->disk_full = true;
					s->cpu_full[cpu] = true;
					continue;
				}
				snprintf(s->err, s->errlen, "cannot store trace data for %s: %s",
					 name, strerror(errno));
				return -1;
			}
			s->batch_n[cpu]++;
		}
	}
	/*
	 * The file on disk says what was stored this round (killed now, it is readable up
	 * to here).  A failure only leaves the table behind the pages: the header is
	 * rewritten whole at the end.
	 */
	rq_tdw_sync(s->w);
	return 0;
}

static int enable_events(struct session *s)
{
	int missing = 0;
	char line[1024];
	size_t off = 0;

	line[0] = '\0';
	for (size_t i = 0; i < NR_REC_EVENTS; i++) {
		const struct rec_event *e = &rec_events[i];
		char rel[256], *path;
		size_t len;
		char *buf;

		/*
		 * Syscall events only with --syscalls: any enabled syscall event puts every
		 * task's syscalls on the slow path; without them attributes are re-read from
		 * /proc when the trace shows they may have changed (want_reread()).
		 */
		if (!strcmp(e->system, "syscalls") && !s->o->syscalls)
			continue;
		snprintf(rel, sizeof(rel), "events/%s/%s/format", e->system, e->name);
		path = tracefs_instance_get_file(s->inst, rel);
		buf = path ? slurp(path, &len) : NULL;
		tracefs_put_tracing_file(path);
		if (!buf || tracefs_event_enable(s->inst, e->system, e->name) < 0) {
			free(buf);
			missing++;
			if (off < sizeof(line))
				off += snprintf(line + off, sizeof(line) - off, "%s%s:%s (%s)",
						missing > 1 ? "; " : "", e->system, e->name,
						e->loses);
			continue;
		}
		if (add_format(&s->events, &s->nr_events, e->system, e->name, buf, len) < 0) {
			free(buf);
			snprintf(s->err, s->errlen, "out of memory");
			return -1;
		}
		s->enabled[i] = true;
	}
	if (s->nr_events == 0) {
		snprintf(s->err, s->errlen, "this kernel has none of the sched events; "
			 "rqpath needs CONFIG_TRACING with the sched tracepoints");
		return -1;
	}
	if (missing && !s->o->quiet)
		rq_warn("this kernel lacks %d event%s, unavailable: %s",
			missing, missing > 1 ? "s" : "", line);
	return 0;
}

/* The largest event id of a format list ("ID: n" lines). */
static int max_id(const struct rq_tdw_format *f, int n)
{
	int id = 0;

	for (int i = 0; i < n; i++) {
		const char *p = strstr(f[i].buf, "\nID: ");

		if (p && atoi(p + 5) > id)
			id = atoi(p + 5);
	}
	return id;
}

/*
 * Kernel truth, unless turned off: the BPF programs loaded and attached (before tracing
 * is on, so the command's first placements have theirs), the rqpath:truth format with
 * an id no event of the file has, the file's buffer for it.  Where the programs cannot
 * load, one line says why and the recording goes on without.  -1 only for a failure of
 * the file (err set).
 */
static int start_truth(struct session *s)
{
	char why[200];
	char *fmt;
	size_t len;
	int id;

	if (s->o->no_bpf) {
		snprintf(s->st->truth_why, sizeof(s->st->truth_why), "turned off (--no-bpf)");
		return 0;
	}
	if (!s->mono) {
		/* bpf_ktime_get_ns() is CLOCK_MONOTONIC: only the mono trace clock shares it */
		snprintf(why, sizeof(why), "the trace clock is not mono, the BPF clock's");
		goto off;
	}
	/* before the programs attach, so that every run is counted */
	if (s->o->bpf_stats) {
		s->stats_fd = rq_truth_bpf_enable_stats(why, sizeof(why));
		if (s->stats_fd < 0 && !s->o->quiet)
			rq_warn("--bpf-stats: %s", why);
	}
	s->bpf = rq_truth_bpf_open(s->ncpus, s->o->bpf_ring_kb, on_truth, s, why, sizeof(why));
	if (!s->bpf)
		goto off;
	id = max_id(s->events, s->nr_events);
	if (max_id(s->ftrace, s->nr_ftrace) > id)
		id = max_id(s->ftrace, s->nr_ftrace);
	s->truth_id = id + 1;
	fmt = rq_truth_format(s->truth_id, s->nr_events ? s->events[0].buf : NULL, &len,
			      &s->truth_hdr);
	if (!fmt || add_format(&s->events, &s->nr_events, RQ_TRUTH_SYSTEM, RQ_TRUTH_EVENT, fmt,
			       len) < 0 || rq_tdw_add_instance(s->w, RQ_TRUTH_BUFFER) < 0) {
		free(fmt);
		snprintf(s->err, s->errlen, "out of memory");
		return -1;
	}
	s->st->truth_on = true;
	return 0;
off:
	snprintf(s->st->truth_why, sizeof(s->st->truth_why), "%s", why);
	if (!s->o->quiet)
		rq_warn("no kernel truth: %s; recording with the tracepoints alone", why);
	return 0;
}

static int read_header_formats(struct session *s)
{
	char *p;

	p = tracing_path("events/header_page");
	s->header_page = p ? slurp(p, &s->header_page_len) : NULL;
	free(p);
	p = tracing_path("events/header_event");
	s->header_event = p ? slurp(p, &s->header_event_len) : NULL;
	free(p);
	if (!s->header_page || !s->header_event) {
		snprintf(s->err, s->errlen, "cannot read events/header_page from tracefs: %s",
			 strerror(errno));
		return -1;
	}
	return 0;
}

static int subbuf_size(void)
{
	char *p = tracing_path("buffer_subbuf_size_kb");
	size_t len;
	char *buf = p ? slurp(p, &len) : NULL;
	int kb = buf ? atoi(buf) : 0;

	free(p);
	free(buf);
	if (kb > 0 && kb <= 1024)
		return kb * 1024;
	return getpagesize();
}

static void show_progress(struct session *s, bool final)
{
	double t = elapsed(s);

	if (!s->progress)
		return;
	if (final) {
		rq_progress(NULL);
		return;
	}
	if (t - s->last_progress < 0.5)
		return;
	s->last_progress = t;
	rq_progress("recording %.1fs  %llu events  %llu lost", t,
		(unsigned long long)s->st->events, (unsigned long long)rq_pump_lost(s->pump));
}

/* Per-CPU "overrun" from the instance stats: events the ring buffer overwrote. */
static char **read_cpustats(struct session *s)
{
	char **stats = calloc(s->ncpus, sizeof(*stats));

	if (!stats)
		return NULL;
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		char rel[64];
		char *p;
		unsigned long long overrun;

		snprintf(rel, sizeof(rel), "per_cpu/cpu%d/stats", cpu);
		p = tracefs_instance_file_read(s->inst, rel, NULL);
		if (!p)
			continue;
		/* as trace-cmd writes it: "CPU: N" first */
		if (asprintf(&stats[cpu], "CPU: %d\n%s", cpu, p) < 0)
			stats[cpu] = NULL;
		free(p);
		if (!stats[cpu])
			continue;
		p = strstr(stats[cpu], "\noverrun:");
		if (!p && !strncmp(stats[cpu], "overrun:", 8))
			p = stats[cpu] - 1;
		if (!p)
			continue;
		overrun = strtoull(p + 9, NULL, 10);
		/* beyond the marks in the pages: lost too, told to the sinks once */
		if (s->pump)
			rq_pump_note_overrun(s->pump, cpu, overrun, true, rq_pump_last_ts(s->pump));
	}
	return stats;
}

/* What the file's header says, and the strings it points to (free_meta()). */
struct meta_bufs {
	char unamestr[512];
	char version[128];
	char clock_name[32];
	char *clock, *cmdlines, **stats;
};

/* The header's contents now; at the end (final) with the CPU statistics. */
static void make_meta(struct session *s, bool final, struct rq_tdw_meta *m,
		      struct meta_bufs *mb)
{
	struct utsname u;

	memset(m, 0, sizeof(*m));
	memset(mb, 0, sizeof(*mb));
	strcpy(mb->clock_name, "local");
	mb->stats = final ? read_cpustats(s) : NULL;
	mb->clock = tracefs_instance_file_read(s->inst, "trace_clock", NULL);
	if (mb->clock) {
		char *b = strchr(mb->clock, '['), *e = b ? strchr(b, ']') : NULL;

		if (b && e && (size_t)(e - b - 1) < sizeof(mb->clock_name)) {
			memcpy(mb->clock_name, b + 1, e - b - 1);
			mb->clock_name[e - b - 1] = '\0';
		}
	}
	mb->cmdlines = tracefs_instance_file_read(NULL, "saved_cmdlines", NULL);
	if (uname(&u) == 0)
		snprintf(mb->unamestr, sizeof(mb->unamestr), "%s %s %s %s", u.sysname,
			 u.nodename, u.release, u.machine);
	else
		strcpy(mb->unamestr, "Linux unknown unknown unknown");
	/* a recording the full disk cut says so in the file, for every later read */
	snprintf(mb->version, sizeof(mb->version), "rqpath %s%s%s", RQPATH_VERSION,
		 final && s->disk_full ? " " : "", final && s->disk_full ? RQ_TDW_CUT_FULL : "");

	m->header_page = s->header_page;
	m->header_page_len = s->header_page_len;
	m->header_event = s->header_event;
	m->header_event_len = s->header_event_len;
	m->ftrace = s->ftrace;
	m->nr_ftrace = s->nr_ftrace;
	m->events = s->events;
	m->nr_events = s->nr_events;
	m->cmdlines = mb->cmdlines;
	m->cmdlines_len = mb->cmdlines ? strlen(mb->cmdlines) : 0;
	m->uname = mb->unamestr;
	m->trace_clock = mb->clock;
	m->clock_name = mb->clock_name;
	m->cpustats = mb->stats;
	m->version = mb->version;
}

static void free_meta(struct session *s, struct meta_bufs *mb)
{
	for (int i = 0; mb->stats && i < s->ncpus; i++)
		free(mb->stats[i]);
	free(mb->stats);
	free(mb->clock);
	free(mb->cmdlines);
}

/* The header as known now: from here on the file on disk is a readable trace. */
static int begin_file(struct session *s)
{
	struct rq_tdw_meta m;
	struct meta_bufs mb;
	int ret;

	make_meta(s, false, &m, &mb);
	ret = rq_tdw_begin(s->w, &m, s->err, s->errlen);
	free_meta(s, &mb);
	return ret;
}

static int write_file(struct session *s)
{
	struct rq_tdw_meta m;
	struct meta_bufs mb;
	int ret;

	make_meta(s, true, &m, &mb);
	ret = rq_tdw_finish(s->w, &m, &s->st->bytes, s->err, s->errlen);
	free_meta(s, &mb);
	return ret;
}

static int setup_instance(struct session *s)
{
	unsigned long kb = s->o->buffer_kb > 0 ? (unsigned long)s->o->buffer_kb :
			   DEFAULT_BUFFER_TOTAL_KB / (unsigned long)(s->ncpus > 0 ? s->ncpus : 1);
	char *clocks;

	if (s->o->buffer_kb <= 0)
		kb = kb < DEFAULT_BUFFER_MIN_KB ? DEFAULT_BUFFER_MIN_KB :
		     kb > DEFAULT_BUFFER_MAX_KB ? DEFAULT_BUFFER_MAX_KB : kb;

	s->buffer_kb = kb;
	instance_name(s->inst_name, sizeof(s->inst_name));
	s->inst = tracefs_instance_create(s->inst_name);
	if (s->inst && !tracefs_instance_is_new(s->inst)) {
		/*
		 * Our own name (same namespace, same pid) exists: left over by an earlier run
		 * in this same process.  Removed only if nobody holds it open.
		 */
		if (tracefs_instance_destroy(s->inst) < 0) {
			snprintf(s->err, s->errlen, "tracefs instance %s exists and is in use: %s",
				 s->inst_name, strerror(errno));
			tracefs_instance_free(s->inst);
			s->inst = NULL;
			return -1;
		}
		tracefs_instance_free(s->inst);
		s->inst = tracefs_instance_create(s->inst_name);
	}
	if (!s->inst) {
		snprintf(s->err, s->errlen, "cannot create tracefs instance %s: %s", s->inst_name,
			 strerror(errno));
		return -1;
	}
	/*
	 * Hold a file of the instance open from now on: the kernel then refuses to remove
	 * it (EBUSY), so another rqpath's stale-instance cleanup cannot take it from us.
	 */
	s->marker_fd = tracefs_instance_file_open(s->inst, "trace_marker", O_WRONLY | O_CLOEXEC);
	if (s->marker_fd < 0) {
		snprintf(s->err, s->errlen, "cannot open trace_marker of %s: %s", s->inst_name,
			 strerror(errno));
		return -1;
	}
	tracefs_trace_off(s->inst);
	if (tracefs_instance_set_buffer_size(s->inst, kb, -1) < 0) {
		snprintf(s->err, s->errlen, "cannot set the buffer to %lu KB per CPU: %s; "
			 "try a smaller --buffer-kb", kb, strerror(errno));
		return -1;
	}
	/* poll() on a CPU's trace_pipe_raw returns as soon as it holds any data */
	tracefs_instance_file_write(s->inst, "buffer_percent", "0");
	clocks = tracefs_instance_file_read(s->inst, "trace_clock", NULL);
	/* timestamps comparable across CPUs (docs/kernel.md §2.3) */
	if (clocks && strstr(clocks, " mono "))
		s->mono = tracefs_instance_file_write(s->inst, "trace_clock", "mono") > 0;
	else if (clocks && strstr(clocks, "global"))
		tracefs_instance_file_write(s->inst, "trace_clock", "global");
	free(clocks);
	return 0;
}

static int open_readers(struct session *s)
{
	s->tcpu = calloc(s->ncpus, sizeof(*s->tcpu));
	s->cpu_fd = malloc(s->ncpus * sizeof(*s->cpu_fd));
	s->cur = calloc(s->ncpus, sizeof(*s->cur));
	s->pfds = calloc(s->ncpus + 1, sizeof(*s->pfds));
	s->kb = calloc(s->ncpus, sizeof(*s->kb));
	s->batch = calloc(s->ncpus, sizeof(*s->batch));
	s->batch_n = calloc(s->ncpus, sizeof(*s->batch_n));
	s->kept = calloc(s->ncpus, sizeof(*s->kept));
	s->kept_off = calloc(s->ncpus, sizeof(*s->kept_off));
	s->cpu_full = calloc(s->ncpus, sizeof(*s->cpu_full));
	s->cur_stopper = calloc(s->ncpus, sizeof(*s->cur_stopper));
	s->attrs = calloc(ATTR_SLOTS, sizeof(*s->attrs));
	s->tokens = REREAD_BURST;
	if (!s->tcpu || !s->cpu_fd || !s->cur || !s->pfds || !s->kb || !s->batch || !s->batch_n ||
	    !s->kept || !s->kept_off ||
	    !s->cpu_full || !s->cur_stopper || !s->attrs)
		goto nomem;
	for (int cpu = 0; cpu < s->ncpus; cpu++)
		s->cpu_fd[cpu] = -1;
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		char rel[64];

		/* our own descriptor (libtracefs keeps its own hidden): poll() waits on it */
		snprintf(rel, sizeof(rel), "per_cpu/cpu%d/trace_pipe_raw", cpu);
		s->cpu_fd[cpu] = tracefs_instance_file_open(s->inst, rel,
							    O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		s->tcpu[cpu] = s->cpu_fd[cpu] >= 0 ?
			tracefs_cpu_alloc_fd(s->cpu_fd[cpu], s->page_size, true) : NULL;
		if (!s->tcpu[cpu]) {
			snprintf(s->err, s->errlen, "cannot open the ring buffer of CPU %d: %s",
				 cpu, strerror(errno));
			return -1;
		}
		if (tracefs_cpu_read_size(s->tcpu[cpu]) != s->page_size) {
			snprintf(s->err, s->errlen, "ring buffer page size %d, expected %d",
				 tracefs_cpu_read_size(s->tcpu[cpu]), s->page_size);
			return -1;
		}
		s->kb[cpu] = tep_kbuffer(s->tep);
		s->batch[cpu] = malloc((size_t)MAX_BATCH_PAGES * s->page_size);
		if (!s->kb[cpu] || !s->batch[cpu])
			goto nomem;
	}
	return 0;
nomem:
	snprintf(s->err, s->errlen, "out of memory");
	return -1;
}

static void teardown(struct session *s)
{
	/* the programs first: nothing may stay attached whatever failed */
	rq_truth_bpf_close(s->bpf);
	s->bpf = NULL;
	if (s->stats_fd >= 0)
		close(s->stats_fd);
	s->stats_fd = -1;
	free(s->tq);
	free(s->ta);
	if (s->tcpu)
		for (int cpu = 0; cpu < s->ncpus; cpu++)
			if (s->tcpu[cpu])
				tracefs_cpu_free_fd(s->tcpu[cpu]);
	if (s->cpu_fd)
		for (int cpu = 0; cpu < s->ncpus; cpu++)
			if (s->cpu_fd[cpu] >= 0)
				close(s->cpu_fd[cpu]);
	if (s->marker_fd >= 0)
		close(s->marker_fd);
	if (s->inst) {
		tracefs_trace_off(s->inst);
		tracefs_event_disable(s->inst, NULL, NULL);
		if (tracefs_instance_destroy(s->inst) < 0 && !s->o->quiet)
			rq_warn("could not remove tracefs instance %s: "
				"%s; remove it with: rmdir %s/instances/%s", s->inst_name,
				strerror(errno), tracefs_tracing_dir(), s->inst_name);
		tracefs_instance_free(s->inst);
	}
	if (s->kb)
		for (int cpu = 0; cpu < s->ncpus; cpu++)
			if (s->kb[cpu])
				kbuffer_free(s->kb[cpu]);
	if (s->batch)
		for (int cpu = 0; cpu < s->ncpus; cpu++)
			free(s->batch[cpu]);
	free(s->tcpu);
	free(s->cpu_fd);
	free(s->cur);
	free(s->pfds);
	free(s->kb);
	free(s->batch);
	free(s->batch_n);
	free(s->kept);
	free(s->kept_off);
	free(s->cpu_full);
	free(s->cur_stopper);
	free(s->attrs);
	free(s->enabled);
	rq_snapshot_free(s->snap);
	rq_pump_free(s->pump);
	if (s->tep)
		tep_free(s->tep);
	rq_tdw_close(s->w);
	free_formats(s->ftrace, s->nr_ftrace);
	free_formats(s->events, s->nr_events);
	free(s->header_page);
	free(s->header_event);
}

/* The program's stop flag (its signal handlers set it) is up. */
static bool stop_requested(const struct rq_record_opts *o)
{
	return o->stop && *o->stop;
}

/* The command ends with the recording (duration, a stop, an error): at most once. */
static void stop_cmd(struct session *s)
{
	if (!s->cmd_started)
		return;
	s->cmd_started = false;
	s->o->cmd->stop(s->o->cmd->ctx);
}

static bool should_stop(struct session *s)
{
	if (stop_requested(s->o) || s->disk_full)
		return true;
	if (s->cmd_ended)
		return true;
	if (s->o->duration > 0 && elapsed(s) >= s->o->duration)
		return true;
	return false;
}

/* The truth line (markers.h): the source, and the records the BPF ring buffer dropped. */
static void truth_marker(struct session *s)
{
	struct rq_marker m = { .kind = RQ_MARK_TRUTH };
	uint64_t drops = rq_truth_bpf_drops(s->bpf) + s->truth_lost;
	char line[128];
	int n;

	snprintf(m.truth_source, sizeof(m.truth_source), "bpf");
	m.truth_drops = drops > INT_MAX ? INT_MAX : (int)drops;
	m.truth_misses = s->st->truth_misses > INT_MAX ? INT_MAX : (int)s->st->truth_misses;
	n = rq_marker_format(&m, line, sizeof(line));
	if (n > 0 && write(s->marker_fd, line, (size_t)n) < 0 && !s->o->quiet)
		rq_warn("could not write the truth line into the trace: %s", strerror(errno));
}

/*
 * Stop the events but keep the buffer on while draining: the last records still make
 * attribute markers (fork, exec, setaffinity), and those must be in the file.  Then stop
 * writing and drain what is left, partial pages included.
 */
static int drain_rings(struct session *s)
{
	const struct rq_budget b = { .max_seconds = 0.5 };
	enum rq_pump_status st = RQ_PUMP_BUDGET;

	tracefs_event_disable(s->inst, NULL, NULL);
	/*
	 * The truth ends after the events (every placement in the trace has its record);
	 * what its ring buffer holds is drained below.
	 */
	s->st->truth_misses = rq_truth_bpf_misses(s->bpf);
	s->st->nr_truth_costs = rq_truth_bpf_costs(s->bpf, s->st->truth_costs,
						   RQ_TRUTH_MAX_PROGS);
	rq_truth_bpf_detach(s->bpf);
	if (s->bpf)
		truth_marker(s);
	s->draining = true;
	s->horizon = UINT64_MAX;
	for (int i = 0; i < 50 && st != RQ_PUMP_IDLE; i++) {
		st = rq_pump_run(s->pump, &b);
		if (st == RQ_PUMP_ERROR)
			return -1;
		/* the last chance for the kernel and cpu lines to reach the file */
		if (st == RQ_PUMP_IDLE && !s->system_seen && s->snap && !s->system_last) {
			s->system_last = true;
			if (rq_snapshot_system(s->snap) == 0)
				st = RQ_PUMP_BUDGET;
		}
	}
	tracefs_trace_off(s->inst);
	do {
		st = rq_pump_run(s->pump, &b);
		if (st == RQ_PUMP_ERROR)
			return -1;
	} while (st != RQ_PUMP_IDLE);
	show_progress(s, true);
	return 0;
}

/* Undo what start did to the process: a tracefs mounted by us. */
static void release(struct session *s)
{
	/*
	 * A tracefs rqpath mounted itself is unmounted again (not lazily: while another
	 * tracer uses it, umount fails with EBUSY and it stays).
	 */
	if (s->mounted) {
		umount2(s->mounted, UMOUNT_NOFOLLOW);
		free(s->mounted);
		s->mounted = NULL;
	}
}

struct rq_recorder *rq_recorder_start(const struct rq_record_opts *opts,
				      struct rq_record_stats *st, char *err, size_t errlen)
{
	struct rq_source src;
	struct session *s;
	const char *mnt = NULL;
	int version = opts->file_version ? opts->file_version : 6;
	int mret;

	memset(st, 0, sizeof(*st));
	err[0] = '\0';
	if (opts->duration < 0 || !isfinite(opts->duration)) {
		snprintf(err, errlen, "the duration must be a finite number of seconds > 0");
		return NULL;
	}
	if (geteuid() != 0) {
		snprintf(err, errlen, "record needs root (CAP_SYS_ADMIN) to use tracefs; "
			 "run it with sudo");
		return NULL;
	}
	if ((!opts->output || !*opts->output) && !opts->output_fd) {
		snprintf(err, errlen, "record needs an output file: -o FILE");
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->o = opts;
	s->st = st;
	s->stats_fd = -1;
	s->err = err;
	s->errlen = errlen;
	s->marker_fd = -1;
	/* mounts tracefs when it is not (0: mounted now); mnt is a copy the caller frees */
	mret = tracefs_tracing_dir_is_mounted(true, &mnt);
	if (mret < 0 || !tracefs_tracing_dir()) {
		free((char *)mnt);
		snprintf(err, errlen, "tracefs is not mounted and could not be mounted; run: "
			 "mount -t tracefs nodev /sys/kernel/tracing");
		release(s);
		free(s);
		return NULL;
	}
	if (mret == 0 && mnt)
		s->mounted = (char *)mnt;	/* ours: unmounted again at the end */
	else
		free((char *)mnt);
	s->ncpus = sysconf(_SC_NPROCESSORS_CONF);
	s->page_size = subbuf_size();
	s->enabled = calloc(NR_REC_EVENTS, sizeof(*s->enabled));
	s->progress = !opts->quiet && isatty(STDERR_FILENO);
	clock_gettime(CLOCK_MONOTONIC, &s->t0);
	if (!s->enabled)
		goto out_free;

	/* The output first: a bad path must fail before tracefs is touched. */
	if (opts->output && *opts->output)
		s->w = rq_tdw_open(opts->output, opts->force ? RQ_OUT_REPLACE : 0,
				   opts->mode ? opts->mode : RQ_TRACE_FILE_MODE, version, s->ncpus,
				   s->page_size, err, errlen);
	else
		s->w = rq_tdw_open_anon(version, s->ncpus, s->page_size, err, errlen);
	if (!s->w)
		goto out_free;

	remove_stale_instances(opts->quiet);
	if (read_header_formats(s) < 0 || load_ftrace_formats(s) < 0)
		goto out;
	if (setup_instance(s) < 0)
		goto out;
	if (enable_events(s) < 0)
		goto out;
	if (start_truth(s) < 0)
		goto out;
	if (build_tep(s) < 0) {
		snprintf(err, errlen, "cannot parse the tracefs event formats");
		goto out;
	}
	if (open_readers(s) < 0 || begin_file(s) < 0)
		goto out;
	src.ops = &live_ops;
	src.ctx = s;
	src.ncpus = s->ncpus;
	src.nextra = s->bpf ? 1 : 0;
	src.tep = s->tep;
	s->pump = rq_pump_new(&src);
	if (!s->pump || rq_pump_add_sink(s->pump, record_sink, s) < 0) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	s->snap = rq_snapshot_new(s->marker_fd);
	if (s->snap)
		rq_snapshot_on_task(s->snap, note_attrs, s);
	if (tracefs_trace_on(s->inst) < 0) {
		snprintf(err, errlen, "cannot turn tracing on in %s: %s", s->inst_name,
			 strerror(errno));
		goto out;
	}
	s->system_written = elapsed(s);
	if (!s->snap || rq_snapshot_all(s->snap) < 0) {
		if (!opts->quiet)
			rq_warn("could not write the task snapshot into "
				"the trace; affinity and policy will be unknown on replay");
	} else if (rq_snapshot_lines(s->snap) * SNAPSHOT_LINE_BYTES >= s->buffer_kb * 1024 / 2) {
		/*
		 * The task lines may have filled the buffer over the kernel and cpu lines
		 * before the first read: those again now, ahead of the command's events.
		 */
		rq_snapshot_system(s->snap);
	}
	/* the command starts with the events on: its first fork and exec are in the trace */
	if (opts->cmd && !stop_requested(opts)) {
		if (opts->cmd->start(opts->cmd->ctx, err, errlen) < 0) {
			if (!err[0])
				snprintf(err, errlen, "cannot start the command");
			goto out;
		}
		s->cmd_started = true;
	}
	return (struct rq_recorder *)s;
out:
	stop_cmd(s);
	teardown(s);
	release(s);
	free(s);
	return NULL;
out_free:
	if (!err[0])
		snprintf(err, errlen, "out of memory");
	rq_tdw_close(s->w);
	free(s->enabled);
	release(s);
	free(s);
	return NULL;
}

struct rq_pump *rq_recorder_pump(struct rq_recorder *r)
{
	return ((struct session *)r)->pump;
}

int rq_recorder_pollfds(const struct rq_recorder *r, struct pollfd *fds, int max)
{
	const struct session *s = (const struct session *)r;
	int n = 0;

	for (int cpu = 0; cpu < s->ncpus && n < max; cpu++) {
		if (s->cpu_fd[cpu] < 0)
			continue;
		fds[n].fd = s->cpu_fd[cpu];
		fds[n].events = POLLIN;
		fds[n].revents = 0;
		n++;
	}
	if (s->bpf && n < max && rq_truth_bpf_fd(s->bpf) >= 0) {
		fds[n].fd = rq_truth_bpf_fd(s->bpf);
		fds[n].events = POLLIN;
		fds[n].revents = 0;
		n++;
	}
	return n;
}

int rq_recorder_step(struct rq_recorder *r, const struct rq_budget *b)
{
	struct session *s = (struct session *)r;

	enum rq_pump_status st;

	if (s->cmd_started && !s->cmd_ended)
		s->cmd_ended = s->o->cmd->ended(s->o->cmd->ctx);
	if (should_stop(s))
		return 0;
	st = rq_pump_run(s->pump, b);
	if (st == RQ_PUMP_ERROR)
		return -1;
	/*
	 * Not read back within a second of being written (a round takes 100 ms at most):
	 * the ring buffer lost them; again, until one copy is in the file.
	 */
	if (!s->system_seen && s->snap && elapsed(s) - s->system_written >= 1.0) {
		s->system_written = elapsed(s);
		rq_snapshot_system(s->snap);
	}
	show_progress(s, false);
	return st == RQ_PUMP_IDLE ? 1 : 2;
}

int rq_recorder_snapshot(struct rq_recorder *r)
{
	struct session *s = (struct session *)r;

	return s->snap ? rq_snapshot_all(s->snap) : -1;
}

const char *rq_recorder_stalled(struct rq_recorder *r)
{
	struct session *s = (struct session *)r;
	double now = elapsed(s);

	if (now - s->stall_checked < 1.0 && s->stall_checked)
		return s->stall;
	s->stall_checked = now;
	if (!tracefs_instance_exists(s->inst_name))
		s->stall = "its tracefs instance is gone";
	else if (tracefs_trace_is_on(s->inst) == 0)
		s->stall = "tracing_on is 0";
	else
		s->stall = NULL;
	return s->stall;
}

int rq_recorder_finish(struct rq_recorder *r, int ret)
{
	struct session *s = (struct session *)r;
	const struct rq_record_opts *opts = s->o;
	char *err = s->err;
	size_t errlen = s->errlen;
	int wret;

	stop_cmd(s);
	if (ret < 0 || drain_rings(s) < 0)
		goto out;
	ret = -1;
	s->st->truth_drops = rq_truth_bpf_drops(s->bpf) + s->truth_lost;
	s->st->truth_records = rq_tdw_records(s->w);
	wret = write_file(s);
	s->st->truth_bytes = rq_tdw_instance_bytes(s->w);
	s->st->lost_events = rq_pump_lost(s->pump);
	if (wret < 0)
		goto out;
	if (s->disk_full) {
		char name[512];

		/* a file cut short is still an error: exit 2, but it stays readable */
		out_name(opts, name, sizeof(name));
		snprintf(err, errlen, "%s: %s: the recording stopped early; the file keeps "
			 "what was recorded before", name, strerror(s->full_errno));
		goto out;
	}
	if (opts->output_fd && (!opts->output || !*opts->output))
		*opts->output_fd = rq_tdw_take_fd(s->w);
	ret = 0;
out:
	if (ret < 0 && !err[0])
		snprintf(err, errlen, "recording failed");
	teardown(s);
	release(s);
	free(s);
	return ret;
}

void rq_recorder_wait(struct rq_recorder *r)
{
	struct session *s = (struct session *)r;
	int n = rq_recorder_pollfds(r, s->pfds, s->ncpus + 1);
	bool busy = rq_pump_last_fed(s->pump) > 0;

	/* while events flow, read at most every RQ_RECORD_GAP_MS: whole pages, few wakeups */
	if (busy) {
		struct timespec gap = { 0, RQ_RECORD_GAP_MS * 1000000L };

		nanosleep(&gap, NULL);
	}
	poll(s->pfds, (nfds_t)n, busy ? 0 : POLL_MS);
}

int rq_record_run(const struct rq_record_opts *opts, struct rq_record_stats *st, char *err,
		  size_t errlen)
{
	const struct rq_budget b = { .max_seconds = 0.25 };
	struct rq_recorder *r = rq_recorder_start(opts, st, err, errlen);
	int ret;

	if (!r)
		return -1;
	while ((ret = rq_recorder_step(r, &b)) > 0)
		if (ret == 1)
			rq_recorder_wait(r);
	return rq_recorder_finish(r, ret < 0 ? -1 : 0);
}
