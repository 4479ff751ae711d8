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

/*
 * The file is readable while it grows: the header comes first, with room to grow
 * (HEADER_SLACK: the final one has the command lines and CPU statistics of the end;
 * if they do not fit, it goes without the command lines),
 * then one region per CPU that holds its pages one after the other.  A region that
 * fills is copied into one GROWTH times larger at the end of the file, its entry in
 * the CPU table is pointed there (the old one stays until the end).  Each CPU's
 * entry says how many pages are written (rq_tdw_sync()), so the file on disk is a
 * trace.dat of what was recorded whenever rqpath is killed.  rq_tdw_finish() packs
 * the regions after the header and writes the final header.
 */
#define HEADER_SLACK	65536	/* and as much again as the command lines, 1 KiB a CPU */
#define REGION_PAGES	64	/* a CPU's first region */
#define GROWTH		4

/* A growing output buffer for everything before the CPU data. */
struct obuf {
	char *p;
	size_t len, cap;
	int failed;
};

struct layout {
	size_t table_at;	/* where the per-CPU {offset, size} entries start */
	size_t table_stride;	/* bytes between entries */
	size_t entry_off;	/* offset of the "offset" field inside an entry */
	size_t sec_size_at;	/* v7: the flyrecord section's size field, 0 for v6 */
	uint64_t sec_data_start;	/* v7: first byte after the section header */
	size_t inst_entry_at;	/* the instance's CPU 0 {offset, size}, 0: no instance */
	size_t isec_size_at;	/* v7: the instance's section size field */
	uint64_t isec_data_start;
};

struct rq_tdw {
	char *path;
	char *ename;		/* path escaped for messages (names are attacker-controlled) */
	int fd;
	int version;
	int nr_cpus;
	int nslots;		/* regions: the CPUs, then the instance's one CPU if any */
	int page_size;
	/* the instance (rq_tdw_add_instance()): its pages are made here, record by record */
	char *inst_name;
	unsigned char *ipage;	/* the page being filled */
	uint32_t ipage_used;	/* bytes of events in it */
	uint64_t ipage_ts, ilast_ts;	/* its header's time, the last record's */
	uint64_t irecords;
	uint64_t *tmp_pages;	/* per CPU: pages written */
	uint64_t *reg_off;	/* per CPU: where its region starts in fd */
	uint64_t *reg_cap;	/* ... and how many pages it holds */
	uint64_t *synced;	/* per CPU: pages its table entry on disk says */
	uint64_t file_end;	/* where the next region goes */
	uint64_t data_start;	/* the first region: the header is before it */
	bool begun;		/* the header is on disk */
	struct obuf hdr;	/* ... this one */
	struct layout lo;	/* where its CPU table is */
	uint64_t **page_ts;	/* per CPU: each stored page's header timestamp */
	uint64_t *ts_cap;
	char *page;
	bool finished;		/* complete (or cut) and readable */
	struct rq_outfile out;	/* with a path: the output beside it (outfile.h) */
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
	w->nslots = nr_cpus;
	w->page_size = page_size;
	/*
	 * The output first (outfile.c): only nothing or, with flags, a regular file may be
	 * at path; the recording goes to a temporary file beside it until it is complete.
	 */
	if (path && rq_outfile_open(&w->out, path, flags | RQ_OUT_NAMED, mode, err, errlen) < 0)
		goto fail;
	w->fd = w->out.fd;
	w->path = path ? strdup(path) : NULL;
	w->ename = strdup(ename);
	w->tmp_pages = calloc(nr_cpus + 1, sizeof(*w->tmp_pages));
	w->reg_off = calloc(nr_cpus + 1, sizeof(*w->reg_off));
	w->reg_cap = calloc(nr_cpus + 1, sizeof(*w->reg_cap));
	w->synced = calloc(nr_cpus + 1, sizeof(*w->synced));
	w->page_ts = calloc(nr_cpus + 1, sizeof(*w->page_ts));
	w->ts_cap = calloc(nr_cpus + 1, sizeof(*w->ts_cap));
	w->page = calloc(1, page_size);
	if ((path && !w->path) || !w->ename || !w->page_ts || !w->ts_cap || !w->reg_off ||
	    !w->reg_cap || !w->synced || !w->tmp_pages || !w->page) {
		rq_tdw_close(w);
		goto nomem;
	}
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

static int cpu_buf_grow(struct rq_tdw *w, int cpu);
static int store_page(struct rq_tdw *w, int cpu, const void *page, size_t len);

int rq_tdw_add_page(struct rq_tdw *w, int cpu, const void *page, size_t len)
{
	if (cpu < 0 || cpu >= w->nr_cpus) {
		errno = EINVAL;
		return -1;
	}
	return store_page(w, cpu, page, len);
}

/* The page header: the u64 time, then the commit (a long) with the bytes of events. */
#define IPAGE_HDR (8 + sizeof(long))

int rq_tdw_add_instance(struct rq_tdw *w, const char *name)
{
	if (w->begun || w->inst_name || !name || !*name) {
		errno = EINVAL;
		return -1;
	}
	w->inst_name = strdup(name);
	w->ipage = calloc(1, w->page_size);
	if (!w->inst_name || !w->ipage) {
		free(w->inst_name);
		free(w->ipage);
		w->inst_name = NULL;
		w->ipage = NULL;
		errno = ENOMEM;
		return -1;
	}
	w->nslots = w->nr_cpus + 1;
	return 0;
}

/* The instance's page as it is (if it has events) into its region; a new one begins. */
static int flush_ipage(struct rq_tdw *w)
{
	long commit = (long)w->ipage_used;
	int ret;

	if (!w->ipage_used)
		return 0;
	memcpy(w->ipage, &w->ipage_ts, 8);
	memcpy(w->ipage + 8, &commit, sizeof(long));
	ret = store_page(w, w->nr_cpus, w->ipage, w->page_size);
	memset(w->ipage, 0, w->page_size);
	w->ipage_used = 0;
	return ret;
}

/*
 * One event into the instance's pages, as the kernel's ring buffer writes it: a 32-bit
 * header (type_len in the low 5 bits: the length in words up to 112 bytes, else 0 and
 * the length in the next word; the time since the previous event in the high 27), a
 * time extension first when that delta does not fit.  A record earlier than the one
 * before (never from a sorted source) is stamped with the time of that one.
 */
int rq_tdw_add_record(struct rq_tdw *w, uint64_t ts, const void *data, uint32_t len)
{
	uint32_t padded = (len + 3) & ~3u, need, hdr, delta32;
	uint64_t delta;
	unsigned char *p;

	if (!w->inst_name || !len || padded + 16 > w->page_size - IPAGE_HDR) {
		errno = EINVAL;
		return -1;
	}
	hdr = padded <= 112 ? 4 : 8;
	for (;;) {
		if (!w->ipage_used) {
			w->ipage_ts = ts < w->ilast_ts ? w->ilast_ts : ts;
			w->ilast_ts = w->ipage_ts;
		}
		delta = ts > w->ilast_ts ? ts - w->ilast_ts : 0;
		need = hdr + padded + (delta >> 27 ? 8 : 0);
		if (IPAGE_HDR + w->ipage_used + need <= (uint32_t)w->page_size)
			break;
		if (flush_ipage(w) < 0)
			return -1;
	}
	p = w->ipage + IPAGE_HDR + w->ipage_used;
	if (delta >> 27) {
		/* type 30: the delta's low 27 bits in the header, the rest in the next word */
		uint32_t h = 30 | (uint32_t)(delta & ((1u << 27) - 1)) << 5;
		uint32_t hi = (uint32_t)(delta >> 27);

		memcpy(p, &h, 4);
		memcpy(p + 4, &hi, 4);
		p += 8;
		w->ipage_used += 8;
		delta = 0;
	}
	delta32 = (uint32_t)delta << 5;
	if (hdr == 4) {
		uint32_t h = (padded / 4) | delta32;

		memcpy(p, &h, 4);
	} else {
		uint32_t h = delta32, l = padded + 4;

		memcpy(p, &h, 4);
		memcpy(p + 4, &l, 4);
	}
	memcpy(p + hdr, data, len);
	memset(p + hdr + len, 0, padded - len);
	w->ipage_used += hdr + padded;
	if (ts > w->ilast_ts)
		w->ilast_ts = ts;
	w->irecords++;
	return 0;
}

uint64_t rq_tdw_records(const struct rq_tdw *w)
{
	return w->irecords;
}

uint64_t rq_tdw_instance_bytes(const struct rq_tdw *w)
{
	return w->inst_name ? w->tmp_pages[w->nr_cpus] * (uint64_t)w->page_size : 0;
}

static int store_page(struct rq_tdw *w, int cpu, const void *page, size_t len)
{
	const void *src = page;

	if (len > (size_t)w->page_size) {
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
	if (!w->begun && rq_tdw_begin(w, NULL, NULL, 0) < 0)
		return -1;
	if (w->tmp_pages[cpu] == w->reg_cap[cpu] && cpu_buf_grow(w, cpu) < 0)
		return -1;
	if (write_all_at(w->fd, src, w->page_size,
			 (off_t)(w->reg_off[cpu] + w->tmp_pages[cpu] * w->page_size)) < 0)
		return -1;
	/* the page header starts with its u64 timestamp */
	memcpy(&w->page_ts[cpu][w->tmp_pages[cpu]], src, sizeof(uint64_t));
	w->tmp_pages[cpu]++;
	return 0;
}

uint64_t rq_tdw_pages(const struct rq_tdw *w)
{
	uint64_t n = 0;

	for (int i = 0; i < w->nslots; i++)
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
	size_t inst_opt = 0;

	ob_put(b, "options  ", 10);
	put_common_options(b, m, w->nr_cpus);
	if (w->inst_name) {
		/* v6 BUFFER: where the instance's "flyrecord" and CPU table are, its name */
		ob_u16(b, OPT_BUFFER);
		ob_u32(b, 8 + strlen(w->inst_name) + 1);
		inst_opt = b->len;
		ob_u64(b, 0);
		ob_str(b, w->inst_name);
	}
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
	if (w->inst_name) {
		/*
		 * After the table trace-cmd keeps the trace clock (a u64 size, the text),
		 * which `trace-cmd dump` reads there: then the instance, as many entries as
		 * the file has CPUs, its data CPU 0's.
		 */
		const char *clock = m->trace_clock ? m->trace_clock : "";

		ob_u64(b, strlen(clock));
		ob_put(b, clock, strlen(clock));
		ob_set_u64(b, inst_opt, b->len);
		ob_put(b, "flyrecord", 10);
		lo->inst_entry_at = b->len;
		for (int i = 0; i < w->nr_cpus; i++) {
			ob_u64(b, 0);
			ob_u64(b, 0);
		}
		ob_u64(b, strlen(clock));
		ob_put(b, clock, strlen(clock));
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
	size_t inst_opt = 0;

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
	if (w->inst_name) {
		/* the instance: one CPU (0), its own data section */
		ob_u16(b, OPT_BUFFER);
		ob_u32(b, 8 + strlen(w->inst_name) + 1 + strlen(clock) + 1 + 4 + 4 + 20);
		inst_opt = b->len;
		ob_u64(b, 0);
		ob_str(b, w->inst_name);
		ob_str(b, clock);
		ob_u32(b, w->page_size);
		ob_u32(b, 1);
		ob_u32(b, 0);
		lo->inst_entry_at = b->len;
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

	if (w->inst_name) {
		/* the instance's data section: its pages lie among the regions after it */
		ob_set_u64(b, inst_opt, b->len);
		lo->isec_size_at = put_section(b, OPT_BUFFER, fly_str);
		lo->isec_data_start = b->len;
	}
	ob_set_u64(b, buf_opt, b->len);
	size_at = put_section(b, OPT_BUFFER, fly_str);
	lo->sec_size_at = size_at;
	lo->sec_data_start = b->len;
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

/* The header for meta (NULL: an empty one); until final, its version says unfinished. */
static int build_header(struct rq_tdw *w, const struct rq_tdw_meta *meta, bool final,
			struct obuf *b, struct layout *lo)
{
	struct rq_tdw_meta m = meta ? *meta : (struct rq_tdw_meta){ 0 };
	char version[256];

	if (!final) {
		snprintf(version, sizeof(version), "%s %s", m.version ? m.version : "rqpath",
			 RQ_TDW_UNFINISHED);
		m.version = version;
	}
	memset(b, 0, sizeof(*b));
	memset(lo, 0, sizeof(*lo));
	if (w->version == 7)
		build_v7(b, &m, w, lo);
	else
		build_v6(b, &m, w, lo);
	ob_pad_to(b, 8);
	if (b->failed) {
		free(b->p);
		memset(b, 0, sizeof(*b));
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

/* Where slot cpu's {offset, size} is in the header: a CPU's, or the instance's. */
static size_t entry_at(const struct rq_tdw *w, const struct layout *lo, int cpu)
{
	if (cpu >= w->nr_cpus)
		return lo->inst_entry_at;
	return lo->table_at + cpu * lo->table_stride + lo->entry_off;
}

/* cpu's entry in the CPU table of b: its region and pages (none: offset 0). */
static void set_entry(const struct rq_tdw *w, struct obuf *b, const struct layout *lo, int cpu)
{
	size_t at = entry_at(w, lo, cpu);
	uint64_t pages = w->tmp_pages[cpu];

	ob_set_u64(b, at, pages ? w->reg_off[cpu] : 0);
	ob_set_u64(b, at + 8, pages * w->page_size);
}

/* The end of the pages written, over all CPUs (data_start when none). */
static uint64_t data_end(const struct rq_tdw *w)
{
	uint64_t end = w->data_start;

	for (int cpu = 0; cpu < w->nslots; cpu++) {
		uint64_t e = w->reg_off[cpu] + w->tmp_pages[cpu] * w->page_size;

		if (w->tmp_pages[cpu] && e > end)
			end = e;
	}
	return end;
}

/* cpu's entry (and v7's section size) into the header on disk. */
static int write_entry(struct rq_tdw *w, int cpu)
{
	size_t at = entry_at(w, &w->lo, cpu);

	set_entry(w, &w->hdr, &w->lo, cpu);
	if (write_all_at(w->fd, w->hdr.p + at, 16, (off_t)at) < 0)
		return -1;
	if (w->lo.sec_size_at) {
		/* up to the last page written: never past the end of the file */
		ob_set_u64(&w->hdr, w->lo.sec_size_at, data_end(w) - w->lo.sec_data_start);
		if (write_all_at(w->fd, w->hdr.p + w->lo.sec_size_at, 8,
				 (off_t)w->lo.sec_size_at) < 0)
			return -1;
	}
	if (w->lo.isec_size_at) {
		ob_set_u64(&w->hdr, w->lo.isec_size_at, data_end(w) - w->lo.isec_data_start);
		if (write_all_at(w->fd, w->hdr.p + w->lo.isec_size_at, 8,
				 (off_t)w->lo.isec_size_at) < 0)
			return -1;
	}
	w->synced[cpu] = w->tmp_pages[cpu];
	return 0;
}

/* n pages from offset from to offset to (not overlapping).  0, or -1 with errno. */
static int copy_pages(struct rq_tdw *w, uint64_t from, uint64_t to, uint64_t n)
{
	const size_t chunk_pages = 64;
	char *buf = malloc(chunk_pages * w->page_size);

	if (!buf)
		return -1;
	for (uint64_t done = 0; done < n;) {
		size_t k = n - done < chunk_pages ? (size_t)(n - done) : chunk_pages;
		size_t bytes = k * w->page_size;
		ssize_t r = pread(w->fd, buf, bytes, (off_t)(from + done * w->page_size));

		if (r != (ssize_t)bytes) {
			if (r >= 0)
				errno = EIO;
			free(buf);
			return -1;
		}
		if (write_all_at(w->fd, buf, bytes, (off_t)(to + done * w->page_size)) < 0) {
			free(buf);
			return -1;
		}
		done += k;
	}
	free(buf);
	return 0;
}

int rq_tdw_begin(struct rq_tdw *w, const struct rq_tdw_meta *meta, char *err, size_t errlen)
{
	if (w->begun)
		return 0;
	if (build_header(w, meta, false, &w->hdr, &w->lo) < 0) {
		if (err)
			snprintf(err, errlen, "out of memory");
		return -1;
	}
	w->data_start = w->hdr.len + HEADER_SLACK + 1024 * (uint64_t)w->nr_cpus +
			(meta ? meta->cmdlines_len : 0);
	w->data_start = (w->data_start + w->page_size - 1) / w->page_size * w->page_size;
	w->file_end = w->data_start;
	for (int cpu = 0; cpu < w->nslots; cpu++) {
		w->reg_off[cpu] = w->file_end;
		w->reg_cap[cpu] = REGION_PAGES;
		w->file_end += REGION_PAGES * (uint64_t)w->page_size;
		set_entry(w, &w->hdr, &w->lo, cpu);
	}
	if (w->lo.sec_size_at)
		ob_set_u64(&w->hdr, w->lo.sec_size_at, w->data_start - w->lo.sec_data_start);
	if (w->lo.isec_size_at)
		ob_set_u64(&w->hdr, w->lo.isec_size_at, w->data_start - w->lo.isec_data_start);
	/* the header's room, held now: a full disk shows before anything is recorded */
	if (fallocate(w->fd, 0, 0, (off_t)w->data_start) < 0 &&
	    (errno == ENOSPC || errno == EDQUOT || errno == EFBIG)) {
		if (err && errno == ENOSPC)
			snprintf(err, errlen, "no space left for %s; free some disk space",
				 w->ename);
		else if (err)
			snprintf(err, errlen, "no room for %s: %s", w->ename, strerror(errno));
		return -1;
	}
	if (write_all_at(w->fd, w->hdr.p, w->hdr.len, 0) < 0) {
		if (err)
			snprintf(err, errlen, "cannot write %s: %s", w->ename, strerror(errno));
		return -1;
	}
	w->begun = true;
	return 0;
}

/* cpu's region is full: one GROWTH times larger at the end of the file. */
static int cpu_buf_grow(struct rq_tdw *w, int cpu)
{
	uint64_t from = w->reg_off[cpu], old_cap = w->reg_cap[cpu];
	uint64_t to = w->file_end;

	/* the old region stays what the table says until the copy is whole */
	if (copy_pages(w, from, to, w->tmp_pages[cpu]) < 0)
		return -1;
	w->reg_off[cpu] = to;
	w->reg_cap[cpu] = old_cap * GROWTH;
	w->file_end = to + w->reg_cap[cpu] * w->page_size;
	/*
	 * The old region stays as it is (a reader may have the old table): it is a
	 * quarter of the new one at most, and packing at the end writes over it.
	 */
	return write_entry(w, cpu);
}

int rq_tdw_sync(struct rq_tdw *w)
{
	if (!w->begun)
		return 0;
	for (int cpu = 0; cpu < w->nslots; cpu++)
		if (w->synced[cpu] != w->tmp_pages[cpu] && write_entry(w, cpu) < 0)
			return -1;
	return 0;
}

static int by_region(const void *a, const void *b, void *w)
{
	const uint64_t *off = ((const struct rq_tdw *)w)->reg_off;
	uint64_t x = off[*(const int *)a], y = off[*(const int *)b];

	return x < y ? -1 : x > y;
}

/*
 * The regions one after the other from data_start, lowest first (each region only ever
 * moves down, onto space no region still needs; one that would overlap itself goes
 * through a copy past the end).  The table on disk follows each move, so the file stays
 * readable throughout; a copy that fails (a full disk) leaves the rest where they are.
 * Returns the end of the data.
 */
static uint64_t pack_page(struct rq_tdw *w)
{
	int *order = malloc(w->nslots * sizeof(*order));
	uint64_t at = w->data_start;
	bool moving = order != NULL;

	for (int i = 0; order && i < w->nslots; i++)
		order[i] = i;
	if (order)
		qsort_r(order, w->nslots, sizeof(*order), by_region, w);
	for (int i = 0; moving && i < w->nslots; i++) {
		int cpu = order[i];
		uint64_t n = w->tmp_pages[cpu], size = n * w->page_size;
		uint64_t from = w->reg_off[cpu];

		if (!n || from == at) {
			at += size;
			continue;
		}
		if (at + size > from) {
			uint64_t via = w->file_end;

			if (copy_pages(w, from, via, n) < 0)
				break;
			w->reg_off[cpu] = via;
			w->file_end = via + size;
			if (write_entry(w, cpu) < 0) {
				w->reg_off[cpu] = from;
				break;
			}
			from = via;
		}
		if (copy_pages(w, from, at, n) < 0)
			break;
		w->reg_off[cpu] = at;
		if (write_entry(w, cpu) < 0) {
			w->reg_off[cpu] = from;
			break;
		}
		at += size;
	}
	free(order);
	return data_end(w);
}

int rq_tdw_finish(struct rq_tdw *w, const struct rq_tdw_meta *m, uint64_t *bytes, char *err,
		  size_t errlen)
{
	struct rq_tdw_meta lean;
	struct obuf b;
	struct layout lo;
	uint64_t end;

	*bytes = 0;
	if (rq_tdw_begin(w, m, err, errlen) < 0)
		return -1;
	/*
	 * the instance's last page, part full: on a full disk it is lost as a CPU's page
	 * would be (the recorder says the file was cut), and the file is finished without
	 */
	if (flush_ipage(w) < 0 && errno != ENOSPC && errno != EDQUOT && errno != EFBIG)
		goto ioerr;
	if (rq_tdw_sync(w) < 0)
		goto ioerr;
	if (build_header(w, m, true, &b, &lo) < 0)
		goto nomem;
	if (b.len > w->data_start) {
		/* the command lines grew past the room left for them: the header without */
		free(b.p);
		lean = *m;
		lean.cmdlines = NULL;
		lean.cmdlines_len = 0;
		if (build_header(w, &lean, true, &b, &lo) < 0)
			goto nomem;
		if (b.len > w->data_start) {
			free(b.p);
			snprintf(err, errlen, "%s: the final header does not fit the room kept "
				 "for it; the file keeps the first one", w->ename);
			return -1;
		}
	}
	end = pack_page(w);
	for (int cpu = 0; cpu < w->nslots; cpu++)
		set_entry(w, &b, &lo, cpu);
	if (lo.sec_size_at)
		ob_set_u64(&b, lo.sec_size_at, end - lo.sec_data_start);
	if (lo.isec_size_at)
		ob_set_u64(&b, lo.isec_size_at, end - lo.isec_data_start);
	if (write_all_at(w->fd, b.p, b.len, 0) < 0) {
		free(b.p);
		goto ioerr;
	}
	free(b.p);
	if (ftruncate(w->fd, (off_t)end) < 0 || (fsync(w->fd) < 0 && errno != EINVAL))
		goto ioerr;
	w->finished = true;
	*bytes = end;
	return publish(w, err, errlen) < 0 ? -1 : 0;
nomem:
	snprintf(err, errlen, "out of memory while writing %s", w->ename);
	return -1;
ioerr:
	snprintf(err, errlen, "cannot write %s: %s", w->ename, strerror(errno));
	return -1;
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
	for (int i = 0; w->page_ts && i < w->nslots; i++)
		free(w->page_ts[i]);
	free(w->inst_name);
	free(w->ipage);
	free(w->page_ts);
	free(w->ts_cap);
	free(w->tmp_pages);
	free(w->reg_off);
	free(w->reg_cap);
	free(w->synced);
	free(w->hdr.p);
	free(w->page);
	free(w->path);
	free(w->ename);
	free(w);
}
