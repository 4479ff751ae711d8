// SPDX-License-Identifier: GPL-2.0
/*
 * replay.c - trace.dat (v6/v7, compressed or not) through libtracecmd into the engine.
 *
 * libtracecmd does the file format; this file only checks that the input is a trace
 * at all (so that a wrong file gets one clear line, not a library warning), merges the
 * per-CPU record streams by timestamp and turns missed-event marks into RQ_EV_LOST.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <bsd/string.h>
#include <trace-cmd.h>

#include "decode.h"
#include "msg.h"
#include "replay.h"

#if defined(__SANITIZE_ADDRESS__)
#define RQ_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RQ_ASAN 1
#endif
#endif
#ifdef RQ_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

/*
 * Exported by libtracecmd but only declared in its private header: the kernel
 * uname and the file version stored in the trace.dat options.
 */
const char *tracecmd_get_uname(struct tracecmd_input *handle);
unsigned long tracecmd_get_in_file_version(struct tracecmd_input *handle);
const char *tracecmd_get_cpustats(struct tracecmd_input *handle);
int tracecmd_cpus(struct tracecmd_input *handle);

/*
 * libtracecmd 3.1.6 leaks the trace clock name when a file names its clock twice
 * (the trace_clock section and a per-buffer clock option: every v7 file and every
 * `trace-cmd extract -B` file): extract_trace_clock() overwrites handle->trace_clock
 * without freeing it; libtraceevent 1.7.1 leaks a strdup()ed token while parsing some
 * print formats (the LISA traces).  Not ours to fix, so keep LeakSanitizer (ASan
 * builds, the fuzzer) quiet about leaks allocated inside those two libraries; the
 * __vfscanf_internal frame is all the default fast unwinder sees of the first one.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:tracecmd_parse_trace_clock\n"
	       "leak:libtracecmd.so\n"
	       "leak:libtraceevent.so\n"
	       "leak:__vfscanf_internal\n";
}

/* ...and do not print the list of suppressions used: stderr is one line on errors. */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
	return "print_suppressions=0";
}

static const unsigned char trace_magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

struct rq_replay {
	char path[4096];
	struct tracecmd_input *handle;	/* the file */
	struct tracecmd_input *data;	/* the buffer read: handle, or an instance of it */
	char buffer[64];		/* name of that instance, "" for the top buffer */
	struct tep_handle *tep;
	struct rq_decoder *dec;
	int nr_cpus;
	struct tep_record **next;	/* next unread record per CPU, NULL when done */
	off_t file_size;
	unsigned long long max_offset;
	int version;
	bool finished;
	bool faulted;		/* the library faulted on a data page: handles unusable */
	char fault_msg[128];
	unsigned long long stats_overrun;
	uintptr_t *done_from;		/* per CPU: start of the pages read but not released */
	uintptr_t *cur_page;		/* per CPU: the page the last record came from */
};

/* Check what we can before libtracecmd sees the file; returns 0 or -1 with err. */
static int precheck(const char *path, off_t *size, int *version, char *err, size_t errlen)
{
	unsigned char head[16];
	struct stat st;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open trace file: %s", strerror(errno));
		return -1;
	}
	if (fstat(fd, &st)) {
		snprintf(err, errlen, "cannot stat trace file: %s", strerror(errno));
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "is a directory, not a trace.dat file");
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "not a regular file (a pipe or device cannot be replayed); "
			 "copy the trace to a file first");
		goto fail;
	}
	if (st.st_size == 0) {
		snprintf(err, errlen, "empty file, not a trace.dat");
		goto fail;
	}
	n = read(fd, head, sizeof(head));
	if (n < (ssize_t)sizeof(trace_magic) + 2 || memcmp(head, trace_magic, sizeof(trace_magic))) {
		snprintf(err, errlen, "not a trace.dat file (no trace-cmd magic at its start)");
		goto fail;
	}
	if (head[10] < '0' || head[10] > '9' || head[11] != '\0') {
		snprintf(err, errlen, "not a trace.dat file (no version after the magic)");
		goto fail;
	}
	*version = head[10] - '0';
	if (*version != 6 && *version != 7) {
		snprintf(err, errlen, "trace.dat version %d is not supported (6 and 7 are)",
			 *version);
		goto fail;
	}
	*size = st.st_size;
	close(fd);
	return 0;
fail:
	close(fd);
	return -1;
}

static unsigned long long sum_overruns(const char *stats)
{
	unsigned long long sum = 0;
	const char *p = stats;

	while (p && (p = strstr(p, "overrun:"))) {
		p += 8;
		sum += strtoull(p, NULL, 10);
	}
	return sum;
}

/* Read the first record of every CPU of r->data; true if there was any. */
static bool load_first(struct rq_replay *r, char *err, size_t errlen)
{
	bool any = false;
	int n = tracecmd_cpus(r->data);

	if (n <= 0 || n > RQ_MAX_CPUS)
		n = tep_get_cpus(r->tep);
	if (n <= 0 || n > RQ_MAX_CPUS) {
		snprintf(err, errlen, "corrupt trace.dat: it declares %d CPUs", n);
		return false;
	}
	r->nr_cpus = n;
	r->next = calloc((size_t)n, sizeof(*r->next));
	r->done_from = calloc((size_t)n, sizeof(*r->done_from));
	r->cur_page = calloc((size_t)n, sizeof(*r->cur_page));
	if (!r->next || !r->done_from || !r->cur_page) {
		snprintf(err, errlen, "out of memory");
		return false;
	}
	for (int cpu = 0; cpu < n; cpu++) {
		r->next[cpu] = tracecmd_read_data(r->data, cpu);
		any |= r->next[cpu] != NULL;
	}
	return any;
}

static void drop_first(struct rq_replay *r)
{
	for (int cpu = 0; r->next && cpu < r->nr_cpus; cpu++)
		if (r->next[cpu])
			tracecmd_free_record(r->next[cpu]);
	free(r->next);
	free(r->done_from);
	free(r->cur_page);
	r->next = NULL;
	r->done_from = r->cur_page = NULL;
	r->nr_cpus = 0;
}

/*
 * Which ring buffer to replay: the top one, or, when it holds no record, the first
 * buffer instance that does (`trace-cmd extract -B NAME`, `trace-cmd record -B`).
 */
static int pick_buffer(struct rq_replay *r, char *err, size_t errlen)
{
	int nbuf = tracecmd_buffer_instances(r->handle);

	err[0] = '\0';
	if (load_first(r, err, errlen) || err[0] || nbuf <= 0)
		return err[0] ? -1 : 0;
	for (int i = 0; i < nbuf; i++) {
		struct tracecmd_input *in = tracecmd_buffer_instance_handle(r->handle, i);
		const char *name = tracecmd_buffer_instance_name(r->handle, i);

		if (!in)
			continue;
		drop_first(r);
		if (r->data != r->handle)
			tracecmd_close(r->data);
		r->data = in;
		strlcpy(r->buffer, name ? name : "", sizeof(r->buffer));
		if (load_first(r, err, errlen))
			return 0;
		if (err[0])
			return -1;
	}
	return 0;	/* no records anywhere: an empty trace, not an error */
}

/* Open r->path with libtracecmd and pick the buffer; 0 or -1 with err. */
static int open_handles(struct rq_replay *r, char *err, size_t errlen)
{
	tracecmd_set_loglevel(TEP_LOG_NONE);
	r->handle = tracecmd_open(r->path, TRACECMD_FL_LOAD_NO_PLUGINS |
					   TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!r->handle) {
		snprintf(err, errlen, "corrupt or truncated trace.dat: libtracecmd cannot read "
			 "its headers");
		return -1;
	}
	r->data = r->handle;
	r->tep = tracecmd_get_tep(r->handle);
	if (!r->tep) {
		snprintf(err, errlen, "corrupt trace.dat: no event formats");
		return -1;
	}
	return pick_buffer(r, err, errlen);
}

#define PROBE_TIMEOUT_S 30

/*
 * Wait for the probe child, at most PROBE_TIMEOUT_S: a file that makes the library
 * loop must not hang us.  Returns 0 with *status, or -1 (the child is killed).
 */
static int wait_probe(pid_t pid, int *status)
{
	struct timespec nap = { 0, 100000 };	/* 0.1 ms, doubling up to 20 ms */
	double waited = 0;
	pid_t got;

	for (;;) {
		got = waitpid(pid, status, WNOHANG);
		if (got == pid)
			return 0;
		if (got < 0 && errno != EINTR) {
			*status = 0;	/* not ours to wait for (SIGCHLD ignored?): go on */
			return 0;
		}
		if (waited >= PROBE_TIMEOUT_S) {
			kill(pid, SIGKILL);
			while (waitpid(pid, status, 0) < 0 && errno == EINTR)
				;
			return -1;
		}
		nanosleep(&nap, NULL);
		waited += nap.tv_nsec / 1e9;
		if (nap.tv_nsec < 20000000)
			nap.tv_nsec *= 2;
	}
}

#define PROBE_OK 0
#define PROBE_BAD 3	/* not 1: that is what ASan exits with */

/*
 * libtracecmd 3.1.6 does not survive every hostile file while opening it: on most
 * errors after the CPU count was read, tracecmd_open_fd() and
 * tracecmd_buffer_instance_handle() call tracecmd_close() on a handle whose cpu_data
 * is still NULL and dereference it; it calloc()s sizes read from the file unchecked
 * (tracecmd_load_chunks_info(), section sizes), and kbuffer_load_subbuffer() trusts a
 * page's commit size when the first page of each CPU is loaded.  So the opening is
 * tried first in a child process, whose death is reported as a corrupt file instead
 * of killing us.  The rest of the replay is the same code on a file that opened.
 */
static int probe_open(const char *path, char *err, size_t errlen)
{
	struct rq_replay probe = { 0 };
	int status, fd;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 0;	/* cannot probe: open it directly */
	if (pid == 0) {
		char cerr[256];

#ifdef RQ_ASAN
		/* die quietly: no death callback (libFuzzer would save a "crash") */
		__sanitizer_set_death_callback(NULL);
#endif
		fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (fd >= 0)
			dup2(fd, STDERR_FILENO);
		strlcpy(probe.path, path, sizeof(probe.path));
		_exit(open_handles(&probe, cerr, sizeof(cerr)) ? PROBE_BAD : PROBE_OK);
	}
	if (wait_probe(pid, &status)) {
		snprintf(err, errlen, "corrupt trace.dat: libtracecmd did not get through its "
			 "headers in %d s", PROBE_TIMEOUT_S);
		return -1;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == PROBE_OK)
		return 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == PROBE_BAD)
		snprintf(err, errlen, "corrupt or truncated trace.dat: libtracecmd cannot read "
			 "its headers");
	else
		snprintf(err, errlen, "corrupt trace.dat: libtracecmd fails on its headers "
			 "(%s %d)", WIFSIGNALED(status) ? "signal" : "exit",
			 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	return -1;
}

struct rq_replay *rq_replay_open(const char *path, char *err, size_t errlen)
{
	struct rq_replay *r;

	r = calloc(1, sizeof(*r));
	if (!r) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	strlcpy(r->path, path, sizeof(r->path));
	if (precheck(path, &r->file_size, &r->version, err, errlen))
		goto fail;
	if (probe_open(path, err, errlen) || open_handles(r, err, errlen))
		goto fail;
	r->dec = rq_decoder_new(r->tep);
	if (!r->dec) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	r->stats_overrun = sum_overruns(tracecmd_get_cpustats(r->data));
	return r;
fail:
	rq_replay_close(r);
	return NULL;
}

int rq_replay_begin(struct rq_replay *r, struct rq_analysis *an)
{
	const char *uname = tracecmd_get_uname(r->handle);
	char release[128] = "";

	/* the UNAME option is "sysname nodename release version machine" */
	if (uname && sscanf(uname, "%*s %*s %127s", release) != 1)
		release[0] = '\0';
	if (rq_analysis_begin(an, r->path, r->nr_cpus, release, rq_decoder_available(r->dec)))
		return -1;
	an->lost_events = r->stats_overrun;
	return 0;
}

/*
 * libtracecmd maps the file in large windows and keeps what it read resident, so a
 * replay's RSS would grow with the file.  Pages behind every CPU's read position are
 * never read again: hand them back in batches.  MADV_PAGEOUT keeps their contents
 * (it is only advice), so this is safe whatever the memory is.
 */
#define RELEASE_BATCH (256 * 1024)

static void release_read_pages(struct rq_replay *r, int cpu, const void *data)
{
#ifdef MADV_PAGEOUT
	uintptr_t page = (uintptr_t)data & ~(uintptr_t)(getpagesize() - 1);

	if (!r->done_from || page == r->cur_page[cpu])
		return;
	if (r->cur_page[cpu] && r->done_from[cpu] < page &&
	    page - r->done_from[cpu] <= 64 * RELEASE_BATCH) {
		if (page - r->done_from[cpu] >= RELEASE_BATCH) {
			madvise((void *)r->done_from[cpu], page - r->done_from[cpu], MADV_PAGEOUT);
			r->done_from[cpu] = page;
		}
	} else {
		/* a new mapping window (or the first page): start a new batch here */
		r->done_from[cpu] = page;
	}
	r->cur_page[cpu] = page;
#endif
}

/*
 * A page whose header lies about its size makes libtraceevent's
 * kbuffer_load_subbuffer() read past the page (libtraceevent 1.7.1 does not check
 * the commit size against the page size) and fault; so does any mmap reader when the
 * file is truncated under it (SIGBUS).  While a record is read, a SIGSEGV/SIGBUS
 * handler turns such a fault into "corrupt data page"; outside tracecmd_read_data()
 * it puts the previous handler back, so a fault in our own code still crashes loudly
 * (and under ASan is reported as usual).
 */
static __thread sigjmp_buf *read_guard;
static struct sigaction old_segv, old_bus;

static void read_fault(int sig)
{
	if (read_guard)
		siglongjmp(*read_guard, sig);
	/* not inside a guarded read: restore, return, fault again the usual way */
	sigaction(SIGSEGV, &old_segv, NULL);
	sigaction(SIGBUS, &old_bus, NULL);
}

static void guard_install(bool on)
{
	struct sigaction sa = { .sa_handler = read_fault, .sa_flags = SA_NODEFER };

	sigemptyset(&sa.sa_mask);
	if (on) {
		sigaction(SIGSEGV, &sa, &old_segv);
		sigaction(SIGBUS, &sa, &old_bus);
	} else {
		sigaction(SIGSEGV, &old_segv, NULL);
		sigaction(SIGBUS, &old_bus, NULL);
	}
}

/* tracecmd_read_data() with a fault turned into r->faulted (the handles are then lost). */
static struct tep_record *guarded_read(struct rq_replay *r, int cpu)
{
	sigjmp_buf env;
	struct tep_record *rec;
	int sig;

	sig = sigsetjmp(env, 0);
	if (sig) {
		read_guard = NULL;
		r->faulted = true;
		snprintf(r->fault_msg, sizeof(r->fault_msg), "corrupt trace.dat: bad data page "
			 "on CPU %d (%s in libtraceevent while reading it)", cpu,
			 sig == SIGBUS ? "SIGBUS" : "SIGSEGV");
		return NULL;
	}
	read_guard = &env;
	rec = tracecmd_read_data(r->data, cpu);
	read_guard = NULL;
	return rec;
}

static int pick_cpu(const struct rq_replay *r)
{
	int best = -1;

	for (int cpu = 0; cpu < r->nr_cpus; cpu++)
		if (r->next[cpu] && (best < 0 || r->next[cpu]->ts < r->next[best]->ts))
			best = cpu;
	return best;
}

long rq_replay_step(struct rq_replay *r, struct rq_analysis *an, long max_events)
{
	long fed = 0;
	struct rq_event ev;

	if (r->finished)
		return 0;
	if (r->faulted)
		return -1;
	guard_install(true);
	while (max_events <= 0 || fed < max_events) {
		int cpu = pick_cpu(r);
		struct tep_record *rec;

		if (cpu < 0) {
			r->finished = true;
			rq_analysis_finish(an);
			/* the stats and the per-record marks can both count the same loss */
			if (r->stats_overrun > an->lost_events)
				an->lost_events = r->stats_overrun;
			break;
		}
		rec = r->next[cpu];
		if (rec->missed_events) {
			struct rq_event lost = { .ts = rec->ts, .type = RQ_EV_LOST, .cpu = cpu,
						 .arg = rec->missed_events > 0 ? rec->missed_events : 0 };

			rq_analysis_feed(an, &lost);
		}
		rq_decode(r->dec, rec, cpu, &ev);
		rq_analysis_feed(an, &ev);
		if (rec->offset > r->max_offset)
			r->max_offset = rec->offset;
		release_read_pages(r, cpu, rec->data);
		tracecmd_free_record(rec);
		r->next[cpu] = guarded_read(r, cpu);
		if (r->faulted) {
			fed = -1;
			break;
		}
		fed++;
	}
	guard_install(false);
	return fed;
}

uint64_t rq_replay_next_ts(const struct rq_replay *r)
{
	int cpu = pick_cpu(r);

	return cpu < 0 ? UINT64_MAX : r->next[cpu]->ts;
}

double rq_replay_progress(const struct rq_replay *r)
{
	double p;

	if (r->finished)
		return 1.0;
	if (r->file_size <= 0)
		return 0.0;
	p = (double)r->max_offset / (double)r->file_size;
	return p > 1.0 ? 1.0 : p;
}

const char *rq_replay_error(const struct rq_replay *r)
{
	return r->faulted ? r->fault_msg : "error while reading the trace";
}

const char *rq_replay_path(const struct rq_replay *r)
{
	return r->path;
}

int rq_replay_file_version(const struct rq_replay *r)
{
	return r->version;
}

void rq_replay_close(struct rq_replay *r)
{
	if (!r)
		return;
	if (r->faulted) {
		/* the library's state is unknown after the fault: leave it alone (leak) */
		for (int cpu = 0; r->next && cpu < r->nr_cpus; cpu++)
			r->next[cpu] = NULL;
		drop_first(r);
		rq_decoder_free(r->dec);
		free(r);
		return;
	}
	drop_first(r);
	rq_decoder_free(r->dec);
	/* an instance handle holds a reference on its parent: close both */
	if (r->data && r->data != r->handle)
		tracecmd_close(r->data);
	if (r->handle)
		tracecmd_close(r->handle);
	free(r);
}

int rq_replay_file(const char *path, struct rq_analysis *an, int show_progress, char *err,
		   size_t errlen)
{
	struct rq_replay *r = rq_replay_open(path, err, errlen);
	long n;
	int last_pct = -1;

	if (!r)
		return -1;
	if (rq_replay_begin(r, an)) {
		snprintf(err, errlen, "cannot set up the analysis: %s", strerror(errno));
		rq_replay_close(r);
		return -1;
	}
	while ((n = rq_replay_step(r, an, 65536)) > 0) {
		int pct = (int)(rq_replay_progress(r) * 100);

		if (show_progress && pct != last_pct) {
			rq_progress("reading %3d%%", pct);
			last_pct = pct;
		}
	}
	if (show_progress && last_pct >= 0)
		rq_progress(NULL);
	if (n < 0)
		snprintf(err, errlen, "%s", rq_replay_error(r));
	rq_replay_close(r);
	return n < 0 ? -1 : 0;
}
