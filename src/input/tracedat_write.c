// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat_write.c - a trace.dat (v6, v7 uncompressed) writer for raw ring-buffer
 * pages.  Written from trace-cmd.dat.v6(5) and trace-cmd.dat.v7(5); every number is
 * in host byte order and the header says which one that is.
 *
 * v6:  magic "tracing" "6" endian long_size page_size
 *      header_page, header_event, ftrace formats, event formats, kallsyms, printk,
 *      cmdlines, cpus, "options  " {id, size, data}... 0, "flyrecord" {offset, size} x cpus,
 *      padding, CPU data (page aligned).
 * v7:  magic "tracing" "7" endian long_size page_size "none" "" options_offset,
 *      then sections (16-byte header: id, flags, string id, size): 16 header info,
 *      17 ftrace formats, 18 event formats, 19 kallsyms, 20 printk, 21 cmdlines,
 *      0 options (pointing at all of them and at the flyrecord section through a
 *      BUFFER option), 15 strings, 3 flyrecord (padding, CPU data page aligned).
 * The CPU data is written last in both, so that when the disk fills only the CPU
 * table (placed before the data) has to be rewritten in place.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "escape.h"
#include "outfile.h"
#include "tracedat_write.h"

enum {
	OPT_DONE = 0,
	OPT_CPUSTAT = 2,
	OPT_BUFFER = 3,
	OPT_TRACECLOCK = 4,
	OPT_UNAME = 5,
	OPT_CPUCOUNT = 8,
	OPT_VERSION = 9,
	OPT_STRINGS = 15,
	OPT_HEADER_INFO = 16,
	OPT_FTRACE_EVENTS = 17,
	OPT_EVENT_FORMATS = 18,
	OPT_KALLSYMS = 19,
	OPT_PRINTK = 20,
	OPT_CMDLINES = 21,
};

/* Space held in the output for the header while the data sits in temporary files. */
#define RESERVE_BYTES (2 << 20)

struct rq_tdw {
	char *path;
	char *ename;		/* path escaped for messages (names are attacker-controlled) */
	int fd;
	int version;
	int nr_cpus;
	int page_size;
	int *tmp_fd;
	uint64_t *tmp_pages;
	uint64_t **page_ts;	/* per CPU: each stored page's header timestamp */
	uint64_t *ts_cap;
	char *page;
	bool finished;		/* complete (or cut) and readable */
	struct rq_outfile out;	/* with a path: the output beside it (outfile.h) */
};

/* A growing output buffer for everything before the CPU data. */
struct obuf {
	char *p;
	size_t len, cap;
	int failed;
};

static void ob_put(struct obuf *b, const void *data, size_t len)
{
	if (b->failed)
		return;
	if (b->len + len > b->cap) {
		size_t cap = b->cap ? b->cap : 65536;
		char *np;

		while (cap < b->len + len)
			cap *= 2;
		np = realloc(b->p, cap);
		if (!np) {
			b->failed = 1;
			return;
		}
		b->p = np;
		b->cap = cap;
	}
	if (len)
		memcpy(b->p + b->len, data, len);
	b->len += len;
}

static void ob_u16(struct obuf *b, uint16_t v) { ob_put(b, &v, 2); }
static void ob_u32(struct obuf *b, uint32_t v) { ob_put(b, &v, 4); }
static void ob_u64(struct obuf *b, uint64_t v) { ob_put(b, &v, 8); }
static void ob_str(struct obuf *b, const char *s) { ob_put(b, s, strlen(s) + 1); }

static void ob_set_u64(struct obuf *b, size_t at, uint64_t v)
{
	if (!b->failed && at + 8 <= b->len)
		memcpy(b->p + at, &v, 8);
}

static void ob_pad_to(struct obuf *b, size_t align)
{
	static const char zero[64];

	while (!b->failed && b->len % align) {
		size_t n = align - b->len % align;

		ob_put(b, zero, n > sizeof(zero) ? sizeof(zero) : n);
	}
}

static int write_all_at(int fd, const void *buf, size_t len, off_t off)
{
	const char *p = buf;

	while (len) {
		ssize_t n = pwrite(fd, p, len, off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0) {
			errno = ENOSPC;
			return -1;
		}
		p += n;
		len -= n;
		off += n;
	}
	return 0;
}

static int tmpfile_near(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	const char *tmp;
	int fd;

	if (slash) {
		size_t n = slash - path;

		if (n == 0)
			n = 1;
		if (n >= sizeof(dir))
			n = sizeof(dir) - 1;
		memcpy(dir, path, n);
		dir[n] = '\0';
	} else {
		strcpy(dir, ".");
	}
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
	tmp = getenv("TMPDIR");
	if (!tmp || !*tmp)
		tmp = "/tmp";
	fd = open(tmp, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
	snprintf(dir, sizeof(dir), "%s/rqpath-XXXXXX", tmp);
	fd = mkostemp(dir, O_CLOEXEC);
	if (fd >= 0)
		unlink(dir);
	return fd;
}

/* A recording without a path: a file that never gets a name ($TMPDIR or /tmp). */
static int open_anon_output(struct rq_tdw *w, const char *dir)
{
	w->fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, RQ_TRACE_FILE_MODE);
	return w->fd;
}

static struct rq_tdw *tdw_open(const char *path, unsigned int flags, mode_t mode, int version,
			       int nr_cpus, int page_size, char *err, size_t errlen)
{
	struct rq_tdw *w;
	char ename[512], dir[PATH_MAX];
	const char *tmp;
	int i;

	if (path)
		rq_escape_c(path, strlen(path), ename, sizeof(ename));
	else
		snprintf(ename, sizeof(ename), "a temporary file");

	if (version != 6 && version != 7) {
		snprintf(err, errlen, "file version %d is not supported; use 6 or 7", version);
		return NULL;
	}
	if (nr_cpus <= 0 || page_size < 64 || (page_size & (page_size - 1))) {
		snprintf(err, errlen, "bad ring buffer geometry (%d CPUs, page size %d)",
			 nr_cpus, page_size);
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w)
		goto nomem;
	w->fd = -1;
	w->out.fd = -1;
	w->version = version;
	w->nr_cpus = nr_cpus;
	w->page_size = page_size;
	/*
	 * The output first (outfile.c): only nothing or, with flags, a regular file may be
	 * at path; the recording goes to a temporary file beside it until it is complete.
	 */
	if (path && rq_outfile_open(&w->out, path, flags, mode, err, errlen) < 0)
		goto fail;
	w->fd = w->out.fd;
	w->path = path ? strdup(path) : NULL;
	w->ename = strdup(ename);
	w->tmp_fd = calloc(nr_cpus, sizeof(*w->tmp_fd));
	w->tmp_pages = calloc(nr_cpus, sizeof(*w->tmp_pages));
	w->page_ts = calloc(nr_cpus, sizeof(*w->page_ts));
	w->ts_cap = calloc(nr_cpus, sizeof(*w->ts_cap));
	w->page = calloc(1, page_size);
	if ((path && !w->path) || !w->ename || !w->page_ts || !w->ts_cap || !w->tmp_fd ||
	    !w->tmp_pages || !w->page) {
		rq_tdw_close(w);
		goto nomem;
	}
	for (i = 0; i < nr_cpus; i++)
		w->tmp_fd[i] = -1;
	tmp = getenv("TMPDIR");
	snprintf(dir, sizeof(dir), "%s", tmp && *tmp ? tmp : "/tmp");
	/* read-write: a file cut by a full disk is repaired by moving pages inside it */
	if (!path && open_anon_output(w, dir) < 0) {
		char edir[512];

		rq_escape_c(dir, strlen(dir), edir, sizeof(edir));
		snprintf(err, errlen, "cannot create a temporary trace file in %s: %s",
			 edir, strerror(errno));
		rq_tdw_close(w);
		return NULL;
	}
	/*
	 * Hold some space for the header: if the disk fills while recording, the pages
	 * in the temporary files still get a readable file (see rq_tdw_finish()).
	 */
	if (fallocate(w->fd, 0, 0, RESERVE_BYTES) < 0 && errno == ENOSPC) {
		snprintf(err, errlen, "no space left for %s; free some disk space", ename);
		rq_tdw_close(w);
		return NULL;
	}
	if (!path) {
		size_t n = strlen(dir);

		/* tmpfile_near() wants a file in the directory */
		snprintf(dir + n, sizeof(dir) - n, "/x");
	}
	for (i = 0; i < nr_cpus; i++) {
		w->tmp_fd[i] = tmpfile_near(path ? path : dir);
		if (w->tmp_fd[i] < 0) {
			snprintf(err, errlen, "cannot create a temporary file next to %s: %s",
				 ename, strerror(errno));
			rq_tdw_close(w);
			return NULL;
		}
	}
	return w;
fail:
	free(w);
	return NULL;
nomem:
	snprintf(err, errlen, "out of memory");
	return NULL;
}

struct rq_tdw *rq_tdw_open(const char *path, unsigned int flags, mode_t mode, int version,
			   int nr_cpus, int page_size, char *err, size_t errlen)
{
	if (!path || !*path) {
		snprintf(err, errlen, "no output file name");
		return NULL;
	}
	return tdw_open(path, flags, mode, version, nr_cpus, page_size, err, errlen);
}

struct rq_tdw *rq_tdw_open_anon(int version, int nr_cpus, int page_size, char *err,
				size_t errlen)
{
	return tdw_open(NULL, 0, 0, version, nr_cpus, page_size, err, errlen);
}

int rq_tdw_take_fd(struct rq_tdw *w)
{
	int fd;

	if (!w->finished || w->path || w->fd < 0) {
		errno = EINVAL;
		return -1;
	}
	fd = w->fd;
	w->fd = -1;
	return fd;
}

int rq_tdw_add_page(struct rq_tdw *w, int cpu, const void *page, size_t len)
{
	const void *src = page;

	if (cpu < 0 || cpu >= w->nr_cpus || len > (size_t)w->page_size) {
		errno = EINVAL;
		return -1;
	}
	if (len < (size_t)w->page_size) {
		memcpy(w->page, page, len);
		memset(w->page + len, 0, w->page_size - len);
		src = w->page;
	}
	if (w->tmp_pages[cpu] == w->ts_cap[cpu]) {
		uint64_t cap = w->ts_cap[cpu] ? w->ts_cap[cpu] * 2 : 256;
		uint64_t *nt = realloc(w->page_ts[cpu], cap * sizeof(*nt));

		if (!nt)
			return -1;
		w->page_ts[cpu] = nt;
		w->ts_cap[cpu] = cap;
	}
	if (write_all_at(w->tmp_fd[cpu], src, w->page_size,
			 (off_t)(w->tmp_pages[cpu] * w->page_size)) < 0)
		return -1;
	/* the page header starts with its u64 timestamp */
	memcpy(&w->page_ts[cpu][w->tmp_pages[cpu]], src, sizeof(uint64_t));
	w->tmp_pages[cpu]++;
	return 0;
}

uint64_t rq_tdw_pages(const struct rq_tdw *w)
{
	uint64_t n = 0;

	for (int i = 0; i < w->nr_cpus; i++)
		n += w->tmp_pages[i];
	return n;
}

static void put_formats(struct obuf *b, const struct rq_tdw_meta *m)
{
	int i, j, nsys = 0;

	/* systems are runs of equal names in m->events */
	for (i = 0; i < m->nr_events; i++)
		if (i == 0 || strcmp(m->events[i].system, m->events[i - 1].system))
			nsys++;
	ob_u32(b, nsys);
	for (i = 0; i < m->nr_events; i = j) {
		for (j = i; j < m->nr_events && !strcmp(m->events[j].system, m->events[i].system);
		     j++)
			;
		ob_str(b, m->events[i].system);
		ob_u32(b, j - i);
		for (int k = i; k < j; k++) {
			ob_u64(b, m->events[k].len);
			ob_put(b, m->events[k].buf, m->events[k].len);
		}
	}
}

static void put_header_info(struct obuf *b, const struct rq_tdw_meta *m)
{
	ob_put(b, "header_page", 12);
	ob_u64(b, m->header_page_len);
	ob_put(b, m->header_page, m->header_page_len);
	ob_put(b, "header_event", 13);
	ob_u64(b, m->header_event_len);
	ob_put(b, m->header_event, m->header_event_len);
}

static void put_ftrace(struct obuf *b, const struct rq_tdw_meta *m)
{
	ob_u32(b, m->nr_ftrace);
	for (int i = 0; i < m->nr_ftrace; i++) {
		ob_u64(b, m->ftrace[i].len);
		ob_put(b, m->ftrace[i].buf, m->ftrace[i].len);
	}
}

static void put_kallsyms(struct obuf *b, const struct rq_tdw_meta *m)
{
	ob_u32(b, m->kallsyms ? m->kallsyms_len : 0);
	if (m->kallsyms)
		ob_put(b, m->kallsyms, m->kallsyms_len);
}

static void put_printk(struct obuf *b, const struct rq_tdw_meta *m)
{
	ob_u32(b, m->printk ? m->printk_len : 0);
	if (m->printk)
		ob_put(b, m->printk, m->printk_len);
}

static void put_cmdlines(struct obuf *b, const struct rq_tdw_meta *m)
{
	ob_u64(b, m->cmdlines ? m->cmdlines_len : 0);
	if (m->cmdlines)
		ob_put(b, m->cmdlines, m->cmdlines_len);
}

static void put_opt(struct obuf *b, uint16_t id, const void *data, uint32_t len)
{
	ob_u16(b, id);
	ob_u32(b, len);
	ob_put(b, data, len);
}

static void put_opt_str(struct obuf *b, uint16_t id, const char *s)
{
	if (s)
		put_opt(b, id, s, strlen(s) + 1);
}

/* The options both versions share. */
static void put_common_options(struct obuf *b, const struct rq_tdw_meta *m, int nr_cpus)
{
	put_opt_str(b, OPT_TRACECLOCK, m->trace_clock);
	put_opt_str(b, OPT_UNAME, m->uname);
	put_opt_str(b, OPT_VERSION, m->version);
	for (int i = 0; i < nr_cpus; i++)
		if (m->cpustats && m->cpustats[i])
			put_opt_str(b, OPT_CPUSTAT, m->cpustats[i]);
}

/* v7 section header; returns the offset of its size field. */
static size_t put_section(struct obuf *b, uint16_t id, uint32_t str_id)
{
	size_t at;

	ob_u16(b, id);
	ob_u16(b, 0);		/* not compressed */
	ob_u32(b, str_id);
	at = b->len;
	ob_u64(b, 0);
	return at;
}

static void end_section(struct obuf *b, size_t size_at)
{
	ob_set_u64(b, size_at, b->len - (size_at + 8));
}

/* Metadata strings (v7): description ids are offsets into this table. */
struct strtab {
	struct obuf b;
};

static uint32_t str_id(struct strtab *t, const char *s)
{
	uint32_t id = t->b.len;

	ob_str(&t->b, s);
	return id;
}

struct layout {
	size_t table_at;	/* where the per-CPU {offset, size} entries start */
	size_t table_stride;	/* bytes between entries */
	size_t entry_off;	/* offset of the "offset" field inside an entry */
	size_t sec_size_at;	/* v7: the flyrecord section's size field, 0 for v6 */
	uint64_t sec_data_start;	/* v7: first byte after the section header */
};

static void build_v6(struct obuf *b, const struct rq_tdw_meta *m, struct rq_tdw *w,
		     struct layout *lo)
{
	uint32_t cpus = w->nr_cpus;

	ob_put(b, "\x17\x08\x44tracing", 10);
	ob_str(b, "6");
	ob_put(b, &(char){ __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ }, 1);
	ob_put(b, &(char){ sizeof(long) }, 1);
	ob_u32(b, w->page_size);
	put_header_info(b, m);
	put_ftrace(b, m);
	put_formats(b, m);
	put_kallsyms(b, m);
	put_printk(b, m);
	put_cmdlines(b, m);
	ob_u32(b, cpus);
	ob_put(b, "options  ", 10);
	put_common_options(b, m, w->nr_cpus);
	ob_u16(b, OPT_DONE);
	ob_put(b, "flyrecord", 10);
	lo->table_at = b->len;
	lo->table_stride = 16;
	lo->entry_off = 0;
	lo->sec_size_at = 0;
	for (int i = 0; i < w->nr_cpus; i++) {
		ob_u64(b, 0);
		ob_u64(b, 0);
	}
}

static void build_v7(struct obuf *b, const struct rq_tdw_meta *m, struct rq_tdw *w,
		     struct layout *lo)
{
	struct strtab st = { 0 };
	uint64_t sec_off[6];
	size_t opt_at, at, buf_opt, opt_start, size_at;
	static const char *const names[6] = {
		"headers", "ftrace events", "events format", "kallsyms", "printk",
		"command lines",
	};
	static const uint16_t ids[6] = {
		OPT_HEADER_INFO, OPT_FTRACE_EVENTS, OPT_EVENT_FORMATS, OPT_KALLSYMS,
		OPT_PRINTK, OPT_CMDLINES,
	};
	const char *clock = m->clock_name ? m->clock_name : "local";
	uint32_t opt_str, strings_str, fly_str;

	ob_put(b, "\x17\x08\x44tracing", 10);
	ob_str(b, "7");
	ob_put(b, &(char){ __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ }, 1);
	ob_put(b, &(char){ sizeof(long) }, 1);
	ob_u32(b, w->page_size);
	ob_str(b, "none");
	ob_str(b, "");
	opt_at = b->len;
	ob_u64(b, 0);

	for (int i = 0; i < 6; i++) {
		sec_off[i] = b->len;
		at = put_section(b, ids[i], str_id(&st, names[i]));
		switch (ids[i]) {
		case OPT_HEADER_INFO: put_header_info(b, m); break;
		case OPT_FTRACE_EVENTS: put_ftrace(b, m); break;
		case OPT_EVENT_FORMATS: put_formats(b, m); break;
		case OPT_KALLSYMS: put_kallsyms(b, m); break;
		case OPT_PRINTK: put_printk(b, m); break;
		default: put_cmdlines(b, m); break;
		}
		end_section(b, at);
	}
	opt_str = str_id(&st, "options");
	strings_str = str_id(&st, "strings");
	fly_str = str_id(&st, "buffer flyrecord");

	/* One options section: metadata, section pointers, the top buffer. */
	opt_start = b->len;
	ob_set_u64(b, opt_at, opt_start);
	at = put_section(b, 0, opt_str);
	put_common_options(b, m, w->nr_cpus);
	ob_u16(b, OPT_CPUCOUNT);
	ob_u32(b, 4);
	ob_u32(b, w->nr_cpus);
	for (int i = 0; i < 6; i++) {
		ob_u16(b, ids[i]);
		ob_u32(b, 8);
		ob_u64(b, sec_off[i]);
	}
	ob_u16(b, OPT_BUFFER);
	ob_u32(b, 8 + 1 + strlen(clock) + 1 + 4 + 4 + w->nr_cpus * 20);
	buf_opt = b->len;
	ob_u64(b, 0);			/* flyrecord section offset, set below */
	ob_str(b, "");			/* the top instance */
	ob_str(b, clock);
	ob_u32(b, w->page_size);
	ob_u32(b, w->nr_cpus);
	lo->table_at = b->len;
	lo->table_stride = 20;
	lo->entry_off = 4;
	for (int i = 0; i < w->nr_cpus; i++) {
		ob_u32(b, i);
		ob_u64(b, 0);
		ob_u64(b, 0);
	}
	ob_u16(b, OPT_DONE);
	ob_u32(b, 8);
	ob_u64(b, 0);
	end_section(b, at);

	at = put_section(b, OPT_STRINGS, strings_str);
	ob_put(b, st.b.p, st.b.len);
	end_section(b, at);
	if (st.b.failed)
		b->failed = 1;
	free(st.b.p);

	ob_set_u64(b, buf_opt, b->len);
	size_at = put_section(b, OPT_BUFFER, fly_str);
	lo->sec_size_at = size_at;
	lo->sec_data_start = b->len;
}

/* Copy one CPU's temporary file into the output; returns complete pages copied. */
static uint64_t copy_cpu(struct rq_tdw *w, int cpu, off_t at, int *err)
{
	size_t chunk_pages = 64;
	size_t chunk = chunk_pages * w->page_size;
	char *buf = malloc(chunk);
	uint64_t done = 0;

	*err = 0;
	if (!buf) {
		*err = ENOMEM;
		return 0;
	}
	while (done < w->tmp_pages[cpu]) {
		uint64_t n = w->tmp_pages[cpu] - done;
		size_t bytes;
		ssize_t r;
		off_t src = (off_t)(done * w->page_size);
		const char *p = buf;
		size_t left;

		if (n > chunk_pages)
			n = chunk_pages;
		bytes = n * w->page_size;
		r = pread(w->tmp_fd[cpu], buf, bytes, src);
		if (r < (ssize_t)bytes) {
			*err = r < 0 ? errno : EIO;
			break;
		}
		left = bytes;
		while (left) {
			ssize_t wr = pwrite(w->fd, p, left, at + (off_t)(p - buf));

			if (wr < 0 && errno == EINTR)
				continue;
			if (wr <= 0) {
				*err = wr < 0 ? errno : ENOSPC;
				break;
			}
			p += wr;
			left -= wr;
		}
		done += (p - buf) / w->page_size;
		at += (off_t)((p - buf) / w->page_size * w->page_size);
		if (*err)
			break;
		/* Give the space back as we go: the disk may be nearly full. */
		fallocate(w->tmp_fd[cpu], FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, src, bytes);
	}
	free(buf);
	return done;
}

/*
 * The disk filled after `cap` complete data pages.  Keep the same time prefix of every
 * CPU rather than all of the first CPUs and nothing of the last: take pages in page
 * timestamp order until cap is reached (keep[]), then move them into place.  CPUs
 * before `failed` are in the file at old_off[], CPU `failed` partly (its first
 * copied[failed] pages), the rest in their temporary files.  Every write lands at or
 * below where its source was, inside space the file already holds.
 */
static int relayout(struct rq_tdw *w, uint64_t data_start, uint64_t cap, int failed,
		    const uint64_t *copied, uint64_t *keep)
{
	uint64_t *old_off = calloc(w->nr_cpus, sizeof(*old_off));
	uint64_t o = data_start, left = cap;
	int cpu;

	if (!old_off)
		return -1;
	for (cpu = 0; cpu < w->nr_cpus; cpu++) {
		old_off[cpu] = o;
		o += copied[cpu] * w->page_size;
		keep[cpu] = 0;
	}
	while (left) {
		int best = -1;

		for (cpu = 0; cpu < w->nr_cpus; cpu++)
			if (keep[cpu] < w->tmp_pages[cpu] &&
			    (best < 0 || w->page_ts[cpu][keep[cpu]] < w->page_ts[best][keep[best]]))
				best = cpu;
		if (best < 0)
			break;
		keep[best]++;
		left--;
	}
	o = data_start;
	for (cpu = 0; cpu < w->nr_cpus; cpu++) {
		for (uint64_t pg = 0; pg < keep[cpu]; pg++) {
			off_t dst = (off_t)(o + pg * w->page_size);
			bool in_file = cpu < failed || (cpu == failed && pg < copied[cpu]);
			ssize_t r;

			if (in_file) {
				off_t from = (off_t)(old_off[cpu] + pg * w->page_size);

				if (from == dst)
					continue;
				r = pread(w->fd, w->page, w->page_size, from);
			} else {
				r = pread(w->tmp_fd[cpu], w->page, w->page_size,
					  (off_t)(pg * w->page_size));
			}
			if (r != w->page_size || write_all_at(w->fd, w->page, w->page_size, dst) < 0) {
				/* what is in place so far stays described: this CPU up to pg */
				keep[cpu] = pg;
				while (++cpu < w->nr_cpus)
					keep[cpu] = 0;
				free(old_off);
				return -1;
			}
		}
		o += keep[cpu] * w->page_size;
	}
	free(old_off);
	return 0;
}

/*
 * Write the per-CPU offset/size table (and, in v7, the section size) for pages[cpu]
 * pages of each CPU laid out one after the other from start; returns the end offset.
 */
static uint64_t fill_cpu_table(struct rq_tdw *w, struct obuf *b, const struct layout *lo,
			       uint64_t start, const uint64_t *pages)
{
	uint64_t off = start;

	for (int cpu = 0; cpu < w->nr_cpus; cpu++) {
		uint64_t size = pages[cpu] * w->page_size;
		size_t at = lo->table_at + cpu * lo->table_stride + lo->entry_off;

		ob_set_u64(b, at, size ? off : 0);
		ob_set_u64(b, at + 8, size);
		off += size;
	}
	if (lo->sec_size_at)
		ob_set_u64(b, lo->sec_size_at, off - lo->sec_data_start);
	return off;
}

/*
 * Put the finished recording at its path in one step (rename), and only over what
 * was there when the recording began (rq_outfile_commit()).  0, or -1 with err set.
 */
static int publish(struct rq_tdw *w, char *err, size_t errlen)
{
	if (!w->path)
		return 0;
	w->fd = -1;	/* the commit closes it */
	return rq_outfile_commit(&w->out, err, errlen);
}

int rq_tdw_finish(struct rq_tdw *w, const struct rq_tdw_meta *m, uint64_t *bytes, char *err,
		  size_t errlen)
{
	struct obuf b = { 0 };
	struct layout lo = { 0 };
	uint64_t data_start, off, end;
	uint64_t *copied;
	int cpu, e = 0, ret = 0;

	*bytes = 0;
	if (w->version == 7)
		build_v7(&b, m, w, &lo);
	else
		build_v6(&b, m, w, &lo);
	ob_pad_to(&b, w->page_size);
	copied = calloc(w->nr_cpus, sizeof(*copied));
	if (b.failed || !copied) {
		snprintf(err, errlen, "out of memory while writing %s", w->ename);
		free(b.p);
		free(copied);
		return -1;
	}
	data_start = b.len;
	/* give the reserve back: from here on the header and the data need the space */
	if (ftruncate(w->fd, 0) < 0) {
		snprintf(err, errlen, "cannot write %s: %s", w->ename, strerror(errno));
		free(b.p);
		free(copied);
		return -1;
	}
	/* Fill in the CPU table as if everything will fit. */
	fill_cpu_table(w, &b, &lo, data_start, w->tmp_pages);
	if (write_all_at(w->fd, b.p, b.len, 0) < 0) {
		snprintf(err, errlen, "cannot write %s: %s", w->ename, strerror(errno));
		free(b.p);
		free(copied);
		return -1;
	}
	off = data_start;
	for (cpu = 0; cpu < w->nr_cpus; cpu++) {
		copied[cpu] = copy_cpu(w, cpu, (off_t)off, &e);
		off += copied[cpu] * w->page_size;
		if (e)
			break;
	}
	end = off;
	if (e) {
		/* Cut at the last complete page and describe only what is there. */
		uint64_t *keep = calloc(w->nr_cpus, sizeof(*keep));

		if (keep) {
			relayout(w, data_start, (end - data_start) / w->page_size, cpu, copied,
				 keep);
			memcpy(copied, keep, w->nr_cpus * sizeof(*keep));
			free(keep);
		}
		end = fill_cpu_table(w, &b, &lo, data_start, copied);
		if (ftruncate(w->fd, (off_t)end) < 0 ||
		    write_all_at(w->fd, b.p + lo.table_at,
				 w->nr_cpus * lo.table_stride, (off_t)lo.table_at) < 0 ||
		    (lo.sec_size_at &&
		     write_all_at(w->fd, b.p + lo.sec_size_at, 8, (off_t)lo.sec_size_at) < 0)) {
			snprintf(err, errlen, "%s: %s; the file could not be repaired", w->ename,
				 strerror(e));
			ret = -1;
		} else {
			snprintf(err, errlen, "%s: %s; the file was cut after %llu complete pages "
				 "and stays readable", w->ename, strerror(e),
				 (unsigned long long)((end - data_start) / w->page_size));
			ret = 1;
		}
	}
	free(b.p);
	free(copied);
	if (ret >= 0 && fsync(w->fd) < 0 && errno != EINVAL && ret == 0) {
		snprintf(err, errlen, "cannot write %s: %s", w->ename, strerror(errno));
		ret = -1;
	}
	if (ret >= 0) {
		w->finished = true;
		*bytes = end;
		if (publish(w, err, errlen) < 0)
			ret = -1;	/* kept under its temporary name, or removed by close */
	}
	return ret;
}

void rq_tdw_close(struct rq_tdw *w)
{
	if (!w)
		return;
	/*
	 * Never the output path: until publish() it is whatever was there before (or
	 * nothing).  An unfinished O_TMPFILE output vanishes with its descriptor.
	 */
	if (w->path)
		rq_outfile_abort(&w->out);
	else if (w->fd >= 0)
		close(w->fd);
	for (int i = 0; w->tmp_fd && i < w->nr_cpus; i++)
		if (w->tmp_fd[i] >= 0)
			close(w->tmp_fd[i]);
	for (int i = 0; w->page_ts && i < w->nr_cpus; i++)
		free(w->page_ts[i]);
	free(w->page_ts);
	free(w->ts_cap);
	free(w->tmp_fd);
	free(w->tmp_pages);
	free(w->page);
	free(w->path);
	free(w->ename);
	free(w);
}
