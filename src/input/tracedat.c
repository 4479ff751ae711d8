// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat.c - rqpath's own trace.dat reader (see tracedat.h).
 *
 * The layout is trace-cmd.dat.v6(5) and trace-cmd.dat.v7(5); the ring-buffer page and
 * event headers are the kernel's (kernel/trace/ring_buffer.c): a page starts with a
 * 64-bit timestamp and a commit word (the kernel's long: the size of the data, with the
 * missed-events flags in bits 31 and 30), then 4-byte aligned events, each with a 32-bit
 * header of a 5-bit type_len and a 27-bit time delta.  Everything read from the file is
 * checked before it is used: sizes against what is left of the file, section or page,
 * records against the commit of their page.  A file that does not hold together is an
 * error with one line saying where; so is a file that shrinks while it is read.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event-parse.h>
#include <zlib.h>
#include <zstd.h>

#include "escape.h"
#include "msg.h"
#include "tracedat.h"
#include "tracedat_write.h"
#include "truth_fmt.h"

#define TD_MAX_CPUS 4096
#define TD_MIN_PAGE 64u
#define TD_MAX_PAGE (16u << 20)		/* largest ring-buffer sub-buffer accepted */
#define TD_MAX_CHUNK (256u << 20)	/* largest decompressed v7 chunk */
#define TD_MAX_SECTION (512u << 20)	/* largest metadata section held in memory */
#define TD_WINDOW (256u << 10)		/* page data a CPU reads at once: at most */
#define TD_WINDOW_MIN (16u << 10)	/* at least (a pread() every 4 pages) */
#define TD_WINDOWS (2u << 20)		/* shared by the CPUs in between (td_window()) */
#define TD_MAX_OPTION_SECTIONS 4096
/*
 * What a compressed block may claim to decompress to.  A chunk or section of up to
 * TD_FREE_BLOCK always may (trace-cmd writes chunks of 10 pages: 640 KiB at 64 KiB
 * pages); beyond it, at most TD_MAX_RATIO times its compressed bytes (zlib cannot do
 * better than about 1032).  The chunks all CPUs hold at once, and the metadata sections
 * decompressed over the whole read, stay within TD_HELD_FREE plus TD_HELD_RATIO times
 * the file's size: memory and work follow the file, not what its headers claim.
 */
#define TD_FREE_BLOCK (1u << 20)
#define TD_MAX_RATIO 1024u
#define TD_HELD_FREE (16ull << 20)
#define TD_HELD_RATIO 64ull
#define TD_MAX_BUFFERS 256

/* trace-cmd option and section ids (trace-cmd.dat.v7(5)) */
enum {
	OPT_DONE = 0, OPT_DATE = 1, OPT_CPUSTAT = 2, OPT_BUFFER = 3, OPT_UNAME = 5,
	OPT_OFFSET = 7, OPT_CPUCOUNT = 8, OPT_VERSION = 9, OPT_TIME_SHIFT = 12, OPT_TSC2NSEC = 14,
	OPT_HEADER_INFO = 16,
	OPT_FTRACE_EVENTS = 17, OPT_EVENT_FORMATS = 18, OPT_BUFFER_TEXT = 22,
};
#define SEC_FL_COMPRESS 1

/* ring-buffer event types (type_len values above the data lengths) */
#define RB_PADDING 29
#define RB_TIME_EXTEND 30
#define RB_TIME_STAMP 31
#define RB_MISSED_EVENTS (1ULL << 31)
#define RB_MISSED_STORED (1ULL << 30)
#define RB_COMMIT_MASK ((1U << 27) - 1)

enum comp { COMP_NONE, COMP_ZSTD, COMP_ZLIB };
static const char *const comp_names[] = { "none", "zstd", "zlib" };

struct td_cpu_data {
	int cpu;
	uint64_t off, size;
};

struct td_buffer {
	char name[256];
	uint64_t offset;	/* v7: the BUFFER section; v6 instance: "flyrecord" list */
	uint32_t page_size;
	bool latency;
	bool listed;		/* cpus[] known (v6 instances read them at offset) */
	int ncpu;
	struct td_cpu_data *cpus;
};

/*
 * One CPU's cursor.  The merge comes to each CPU in turn (with 64 CPUs, to another CPU
 * at most records: 61 % in the generated trace of scale.sh): all that a record within a page reads or writes of it is in
 * its first cache line; the cursors are allocated on a line (lines_alloc()).
 */
struct td_cpu {
	/* ---- the first cache line: the record handed out, where the page walk is */
	struct rq_raw rec;	/* before the first record, all 0 (its ts is "previous") */
	const uint8_t *data;	/* the page being walked: its first event */
	uint32_t commit, pos;
	uint64_t ts;		/* raw time of the last event read */
	bool in_page;
	bool has;		/* rec is the next record */
	/* ---- the second */
	bool present;
	int cpu;
	long long missed;	/* to report with the next record (from a page's header) */
	uint64_t pageno;	/* pages loaded so far */
	uint64_t off, size;	/* the CPU's data in the file */
	uint64_t next;		/* file offset of the next window or chunk header */
	uint64_t done;		/* bytes of the region consumed (progress) */
	uint32_t chunks_left;	/* compressed: chunks not read yet */
	uint8_t *buf;		/* current window / decompressed chunk */
	size_t cap, len, page;	/* page: offset of the next page to load in buf */
} __attribute__((aligned(64)));

struct rq_td {
	int fd;
	bool unfinished;	/* its VERSION says the recorder never finished it */
	bool cut_full;		/* its VERSION says a full disk cut the recording */
	/*
	 * Bytes of decompressed chunks the cursors and read-ahead slots hold, shared with
	 * the workers' copies of the reader (*held, atomic), and of decompressed metadata
	 * sections so far: both within held_max() (TD_HELD_FREE, TD_HELD_RATIO).
	 */
	uint64_t *held, held_own, meta_bytes;
	uint64_t file_size;
	int version;
	int long_size;
	uint32_t page_size;	/* from the file header */
	enum comp comp;
	ZSTD_DCtx *zctx;
	uint8_t *zbuf;
	size_t zcap;
	struct tep_handle *tep;
	bool (*wanted)(const char *system, const char *name);
	int commit_size;	/* 4 or 8: the kernel's long */
	uint32_t page_hdr;	/* bytes before a page's first event */
	uint32_t sub_buffer;	/* page size the header page format gives, 0 unknown */
	char uname[256];
	char eas_event[64];	/* a sched format only an energy-aware kernel has, or "" */
	unsigned long long overrun;
	unsigned long long *cpu_overrun;	/* per CPU, from the CPUSTAT options */
	int ncpu_overrun, nstats;
	long long ts_offset;
	uint32_t tsc_mult, tsc_shift;
	bool time_shift;
	bool have_header;
	uint64_t sec_header, sec_ftrace, sec_events;	/* v7 section offsets, 0 none */
	int v6_cpus;
	struct td_buffer top;
	bool has_top;
	struct td_buffer *inst;
	int ninst;
	/* the buffer read */
	const struct td_buffer *buf;
	uint32_t bpage;
	uint32_t window;	/* uncompressed: page data a CPU reads at once (td_window()) */
	bool compressed;
	int ncpus;
	int nstreams;		/* ncpus, and one more when the file has truth records */
	int cpucount;		/* the CPUCOUNT option: the traced machine's CPUs, 0 none */
	struct td_cpu *cpu;
	uint64_t total;
	bool failed;
	char err[320];
	/* read-ahead workers (rq_td_start_workers()): each fills the next block of its CPUs */
	int nworkers;
	struct td_worker *workers;
	struct td_prefetch *pf;		/* per CPU */
	pthread_mutex_t lock;
	pthread_cond_t ready, work;
	bool stop;
};

enum pf_state { PF_EMPTY, PF_BUSY, PF_READY, PF_END, PF_ERROR };

/* The next block of one CPU, read (and decompressed) ahead by a worker. */
struct td_prefetch {
	enum pf_state state;
	struct td_cpu src;	/* the worker's cursor: file position, chunks left, buffer */
	char err[320];
};

struct td_worker {
	pthread_t thread;
	struct rq_td *td;
	struct rq_td own;	/* its private copy, made before any worker starts */
	int id;
	bool started;
};

static bool td_fail(struct rq_td *td, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static bool td_fail(struct rq_td *td, const char *fmt, ...)
{
	va_list ap;

	if (td->failed)
		return false;
	td->failed = true;
	va_start(ap, fmt);
	vsnprintf(td->err, sizeof(td->err), fmt, ap);
	va_end(ap);
	return false;
}

static inline uint16_t get16(const void *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static inline uint32_t get32(const void *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline uint64_t get64(const void *p) { uint64_t v; memcpy(&v, p, 8); return v; }

/* Exactly n bytes at off, or an error: truncated (before the end) or shrunk (while read). */
static bool td_pread(struct rq_td *td, void *out, size_t n, uint64_t off, const char *what)
{
	uint8_t *p = out;

	if (off > td->file_size || n > td->file_size - off)
		return td_fail(td, "truncated trace.dat: %s (%zu bytes at offset %llu) lies past "
			       "the end of the file (%llu bytes)", what, n,
			       (unsigned long long)off, (unsigned long long)td->file_size);
	while (n) {
		ssize_t r = pread(td->fd, p, n, (off_t)off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return td_fail(td, "cannot read the trace file: %s", strerror(errno));
		if (r == 0)
			return td_fail(td, "the trace file shrank while it was read (it had %llu "
				       "bytes; %s at offset %llu is gone)",
				       (unsigned long long)td->file_size, what,
				       (unsigned long long)off);
		p += r;
		off += (uint64_t)r;
		n -= (size_t)r;
	}
	return true;
}

/* ---- a cursor over the file or over a section held in memory -------------------- */

struct cur {
	struct rq_td *td;
	const uint8_t *mem;	/* NULL: the file */
	uint64_t pos, end;
	const char *what;	/* for error lines */
};

static bool c_read(struct cur *c, void *out, size_t n)
{
	if (c->pos > c->end || n > c->end - c->pos)
		return td_fail(c->td, "truncated trace.dat: %s cut short", c->what);
	if (c->mem)
		memcpy(out, c->mem + c->pos, n);
	else if (!td_pread(c->td, out, n, c->pos, c->what))
		return false;
	c->pos += n;
	return true;
}

static bool c_skip(struct cur *c, uint64_t n)
{
	if (c->pos > c->end || n > c->end - c->pos)
		return td_fail(c->td, "truncated trace.dat: %s cut short", c->what);
	c->pos += n;
	return true;
}

static bool c_u32(struct cur *c, uint32_t *v)
{
	uint8_t b[4] = { 0 };

	if (!c_read(c, b, 4))
		return false;
	*v = get32(b);
	return true;
}

static bool c_u64(struct cur *c, uint64_t *v)
{
	uint8_t b[8] = { 0 };

	if (!c_read(c, b, 8))
		return false;
	*v = get64(b);
	return true;
}

/* n bytes into a new NUL-terminated buffer; n is checked against what is left first. */
static char *c_alloc(struct cur *c, uint64_t n)
{
	char *p;

	if (c->pos > c->end || n > c->end - c->pos) {
		td_fail(c->td, "truncated trace.dat: %s cut short", c->what);
		return NULL;
	}
	p = malloc((size_t)n + 1);
	if (!p) {
		td_fail(c->td, "out of memory reading %s", c->what);
		return NULL;
	}
	if (!c_read(c, p, (size_t)n)) {
		free(p);
		return NULL;
	}
	p[n] = '\0';
	return p;
}

/* A NUL-terminated string of at most max - 1 characters. */
static bool c_str(struct cur *c, char *out, size_t max)
{
	size_t i = 0;

	for (;;) {
		char ch;

		if (!c_read(c, &ch, 1))
			return false;
		if (!ch)
			break;
		if (i + 1 >= max)
			return td_fail(c->td, "corrupt trace.dat: a string in %s is too long",
				       c->what);
		out[i++] = ch;
	}
	out[i] = '\0';
	return true;
}

/* ---- decompression ---------------------------------------------------------------- */

static bool td_uncompress(struct rq_td *td, void *out, size_t outlen, const void *in,
			  size_t inlen, const char *what)
{
	if (td->comp == COMP_ZSTD) {
		size_t r;

		if (!td->zctx && !(td->zctx = ZSTD_createDCtx()))
			return td_fail(td, "out of memory (zstd)");
		r = ZSTD_decompressDCtx(td->zctx, out, outlen, in, inlen);
		if (ZSTD_isError(r) || r != outlen)
			return td_fail(td, "corrupt trace.dat: %s does not decompress (zstd: %s)",
				       what, ZSTD_isError(r) ? ZSTD_getErrorName(r) :
				       "wrong size");
		return true;
	}
	if (td->comp == COMP_ZLIB) {
		uLongf got = (uLongf)outlen;
		int r = uncompress(out, &got, in, (uLong)inlen);

		if (r != Z_OK || got != outlen)
			return td_fail(td, "corrupt trace.dat: %s does not decompress (zlib %d)",
				       what, r);
		return true;
	}
	return td_fail(td, "corrupt trace.dat: %s is marked compressed in a file without "
		       "compression", what);
}

static bool buf_grow(struct rq_td *td, uint8_t **buf, size_t *cap, size_t need)
{
	uint8_t *p;

	if (need <= *cap)
		return true;
	p = realloc(*buf, need);
	if (!p)
		return td_fail(td, "out of memory (%zu bytes)", need);
	*buf = p;
	*cap = need;
	return true;
}

static uint64_t held_max(const struct rq_td *td)
{
	return TD_HELD_FREE + TD_HELD_RATIO * td->file_size;
}

/* Whether a compressed block of zsize bytes may decompress to usize (TD_MAX_RATIO). */
static bool ratio_ok(uint32_t zsize, uint32_t usize)
{
	return usize <= TD_FREE_BLOCK || usize <= (uint64_t)zsize * TD_MAX_RATIO;
}

/*
 * A v7 section at off with the given id: its content (decompressed if need be) in a
 * new buffer.  *len gets its size.
 */
static uint8_t *read_section(struct rq_td *td, uint64_t off, uint16_t id, uint64_t *len,
			     const char *what)
{
	uint8_t hdr[16], *out;
	uint64_t size;
	uint16_t flags;

	if (!td_pread(td, hdr, sizeof(hdr), off, what))
		return NULL;
	if (get16(hdr) != id) {
		td_fail(td, "corrupt trace.dat: %s at offset %llu has section id %u, not %u",
			what, (unsigned long long)off, get16(hdr), id);
		return NULL;
	}
	flags = get16(hdr + 2);
	size = get64(hdr + 8);
	off += sizeof(hdr);
	if (off > td->file_size || size > td->file_size - off) {
		td_fail(td, "truncated trace.dat: %s (%llu bytes) lies past the end of the file",
			what, (unsigned long long)size);
		return NULL;
	}
	if (!(flags & SEC_FL_COMPRESS)) {
		if (size > TD_MAX_SECTION) {
			td_fail(td, "corrupt trace.dat: %s claims %llu bytes", what,
				(unsigned long long)size);
			return NULL;
		}
		out = malloc(size ? size : 1);
		if (!out) {
			td_fail(td, "out of memory reading %s", what);
			return NULL;
		}
		if (!td_pread(td, out, size, off, what)) {
			free(out);
			return NULL;
		}
		*len = size;
		return out;
	} else {
		uint8_t zh[8];
		uint32_t zsize, usize;

		if (size < 8 || !td_pread(td, zh, 8, off, what)) {
			td_fail(td, "corrupt trace.dat: %s is too small for its compression header",
				what);
			return NULL;
		}
		zsize = get32(zh);
		usize = get32(zh + 4);
		if (zsize > size - 8 || usize > TD_MAX_SECTION) {
			td_fail(td, "corrupt trace.dat: %s has impossible compressed sizes "
				"(%u -> %u in %llu bytes)", what, zsize, usize,
				(unsigned long long)size);
			return NULL;
		}
		if (!ratio_ok(zsize, usize)) {
			td_fail(td, "corrupt trace.dat: %s claims %u bytes from %u compressed "
				"(more than %u times as many)", what, usize, zsize, TD_MAX_RATIO);
			return NULL;
		}
		if (td->meta_bytes + usize > held_max(td)) {
			td_fail(td, "corrupt trace.dat: its sections decompress to more than "
				"%llu MiB, more than a file of %llu bytes can hold",
				(unsigned long long)(held_max(td) >> 20),
				(unsigned long long)td->file_size);
			return NULL;
		}
		td->meta_bytes += usize;
		if (!buf_grow(td, &td->zbuf, &td->zcap, zsize ? zsize : 1))
			return NULL;
		if (!td_pread(td, td->zbuf, zsize, off + 8, what))
			return NULL;
		out = malloc(usize ? usize : 1);
		if (!out) {
			td_fail(td, "out of memory reading %s", what);
			return NULL;
		}
		if (!td_uncompress(td, out, usize, td->zbuf, zsize, what)) {
			free(out);
			return NULL;
		}
		*len = usize;
		return out;
	}
}

/* ---- header page and formats ---------------------------------------------------- */

/*
 * libtraceevent's format parser does not survive every hostile text (the fuzzer found
 * NULL dereferences in it, from field declarations and print formats), so it is never
 * handed the file's text: each format is parsed here, line by line, every field
 * checked (a declaration of plain words, '*' and one [N] or [], an offset, size and
 * sign of sane values), and libtraceevent parses a canonical text rebuilt from those
 * fields, with an empty print format (rqpath never prints events).  The header page
 * is not given to libtraceevent at all.
 */
struct fline {
	char decl[128];		/* "unsigned short common_type", "__data_loc char[] comm" */
	char name[64];
	long offset, size, sign;
};

static bool ident(const char *p, size_t n)
{
	if (!n || !(p[0] == '_' || (p[0] >= 'a' && p[0] <= 'z') || (p[0] >= 'A' && p[0] <= 'Z')))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!(p[i] == '_' || (p[i] >= 'a' && p[i] <= 'z') || (p[i] >= 'A' && p[i] <= 'Z') ||
		      (p[i] >= '0' && p[i] <= '9')))
			return false;
	return true;
}

/* A word of a declaration: an identifier with an optional [] or [digits], or stars. */
static bool decl_word(const char *p, size_t n, bool *array)
{
	const char *b = memchr(p, '[', n);

	if (n && p[0] == '*') {
		for (size_t i = 0; i < n; i++)
			if (p[i] != '*')
				return false;
		return n <= 3;
	}
	if (!b)
		return ident(p, n);
	if (*array || p[n - 1] != ']' || !ident(p, (size_t)(b - p)))
		return false;
	for (const char *d = b + 1; d < p + n - 1; d++)
		if (*d < '0' || *d > '9')
			return false;
	*array = true;
	return p + n - 1 - b <= 6;
}

static long num_after(const char *line, size_t n, const char *key, long dflt)
{
	const char *p = memmem(line, n, key, strlen(key));
	long v = 0;
	int digits = 0;

	if (!p)
		return dflt;
	p += strlen(key);
	while (p < line + n && *p >= '0' && *p <= '9' && digits < 9) {
		v = v * 10 + (*p++ - '0');
		digits++;
	}
	return digits ? v : -1;
}

/* "\tfield:DECL;\toffset:N;\tsize:N;\tsigned:N;" -> f; false if anything is odd. */
static bool parse_field(const char *line, size_t n, struct fline *f)
{
	const char *d = memmem(line, n, "field:", 6), *semi, *w, *end;
	bool array = false;
	size_t k = 0, words = 0;

	if (!d)
		return false;
	d += 6;
	semi = memchr(d, ';', n - (size_t)(d - line));
	if (!semi || semi - d >= (long)sizeof(f->decl))
		return false;
	/* the words, separated by single spaces in the copy */
	for (w = d; w < semi; ) {
		while (w < semi && (*w == ' ' || *w == '\t'))
			w++;
		if (w >= semi)
			break;
		end = w;
		while (end < semi && *end != ' ' && *end != '\t')
			end++;
		if (!decl_word(w, (size_t)(end - w), &array))
			return false;
		if (k)
			f->decl[k++] = ' ';
		memcpy(f->decl + k, w, (size_t)(end - w));
		k += (size_t)(end - w);
		words++;
		w = end;
	}
	f->decl[k] = '\0';
	if (words < 2 || words > 6)
		return false;
	/* the name: the last word, without its [N] */
	w = strrchr(f->decl, ' ') + 1;
	end = strchr(w, '[');
	k = end ? (size_t)(end - w) : strlen(w);
	if (!ident(w, k) || k >= sizeof(f->name))
		return false;
	memcpy(f->name, w, k);
	f->name[k] = '\0';
	f->offset = num_after(semi, n - (size_t)(semi - line), "offset:", -1);
	f->size = num_after(semi, n - (size_t)(semi - line), "size:", -1);
	f->sign = num_after(semi, n - (size_t)(semi - line), "signed:", 0);
	return f->offset >= 0 && f->offset <= 65535 && f->size >= 0 && f->size <= 65535 &&
	       (f->sign == 0 || f->sign == 1);
}

/* The value of "key: " at the start of a line of text, up to the end of the line. */
static bool line_value(const char *text, size_t n, const char *key, char *out, size_t max)
{
	size_t kl = strlen(key);

	for (const char *p = text; p && p < text + n; ) {
		const char *nl = memchr(p, '\n', (size_t)(text + n - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(text + n - p);

		if (len >= kl && !memcmp(p, key, kl)) {
			len -= kl;
			if (len >= max)
				return false;
			memcpy(out, p + kl, len);
			out[len] = '\0';
			return true;
		}
		p = nl ? nl + 1 : NULL;
	}
	return false;
}

/*
 * The canonical text of a format, or NULL when the format is not one to trust: a name,
 * an ID, the common fields, a blank line, the event's fields (at most 64 in all).
 */
static char *canonical_format(const char *text, size_t n, char *name, size_t namelen)
{
	char idtext[16], *out, *o;
	const char *p, *fmt;
	bool common = true, blank_done = false;
	long id = 0;
	int nfields = 0;
	size_t cap = 4096;

	if (!line_value(text, n, "name: ", name, namelen) || !ident(name, strlen(name)) ||
	    !line_value(text, n, "ID: ", idtext, sizeof(idtext)) || !idtext[0])
		return NULL;
	for (const char *d = idtext; *d; d++) {
		if (*d < '0' || *d > '9' || id > INT32_MAX / 10)
			return NULL;
		id = id * 10 + (*d - '0');
	}
	if (id > INT32_MAX)
		return NULL;
	fmt = memmem(text, n, "format:\n", 8);
	if (!fmt)
		return NULL;
	out = malloc(cap);
	if (!out)
		return NULL;
	o = out + snprintf(out, cap, "name: %s\nID: %ld\nformat:\n", name, id);
	for (p = fmt + 8; p < text + n; ) {
		const char *nl = memchr(p, '\n', (size_t)(text + n - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(text + n - p);
		struct fline f;
		bool empty = true;

		for (size_t i = 0; i < len; i++)
			if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
				empty = false;
		if (empty) {
			/* the blank line between the common fields and the event's */
			if (common && nfields) {
				common = false;
				o += snprintf(o, (size_t)(out + cap - o), "\n");
				blank_done = true;
			}
		} else if (!memcmp(p, "print fmt:", len < 10 ? len : 10)) {
			break;
		} else if (!parse_field(p, len, &f) || ++nfields > 64 ||
			   (size_t)(out + cap - o) < 256) {
			free(out);
			return NULL;
		} else {
			o += snprintf(o, (size_t)(out + cap - o),
				      "\tfield:%s;\toffset:%ld;\tsize:%ld;\tsigned:%ld;\n",
				      f.decl, f.offset, f.size, f.sign);
		}
		p = nl ? nl + 1 : text + n;
	}
	if (!blank_done)
		o += snprintf(o, (size_t)(out + cap - o), "\n");
	snprintf(o, (size_t)(out + cap - o), "\nprint fmt: \"\"\n");
	return out;
}

/*
 * The header page format: the timestamp (8 bytes at 0), the commit word (the kernel's
 * long) and where the data starts and how much of it a page holds.
 */
static bool parse_header_page(struct rq_td *td, const char *text, size_t n)
{
	long ts_size = 8, commit_off = 8, commit_size = td->long_size, data_off = -1,
	     data_size = -1;

	for (const char *p = text; p && p < text + n; ) {
		const char *nl = memchr(p, '\n', (size_t)(text + n - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(text + n - p);
		struct fline f;

		if (memmem(p, len, "field:", 6)) {
			if (!parse_field(p, len, &f))
				return td_fail(td, "corrupt trace.dat: the header page format has a "
					       "field rqpath cannot read");
			if (!strcmp(f.name, "timestamp"))
				ts_size = f.size;
			else if (!strcmp(f.name, "commit")) {
				commit_off = f.offset;
				commit_size = f.size;
			} else if (!strcmp(f.name, "data")) {
				data_off = f.offset;
				data_size = f.size;
			}
		}
		p = nl ? nl + 1 : NULL;
	}
	if (ts_size != 8)
		return td_fail(td, "unsupported trace.dat: page timestamps are not 64-bit");
	if ((commit_size != 4 && commit_size != 8) || commit_off != 8)
		return td_fail(td, "corrupt trace.dat: the page header's commit field is %ld "
			       "bytes at %ld (4 or 8 at 8 expected)", commit_size, commit_off);
	if (data_off >= 0 && data_off != 8 + commit_size)
		return td_fail(td, "unsupported trace.dat: page data at offset %ld", data_off);
	td->commit_size = (int)commit_size;
	td->page_hdr = 8 + (uint32_t)commit_size;
	if (data_size > 0)
		td->sub_buffer = (uint32_t)(data_size + (long)td->page_hdr);
	return true;
}

static bool read_header_info(struct rq_td *td, struct cur *c)
{
	char tag[13];
	uint64_t size;
	char *text;

	if (!c_read(c, tag, 12) || memcmp(tag, "header_page", 12))
		return td->failed ? false : td_fail(td, "corrupt trace.dat: no header_page");
	if (!c_u64(c, &size))
		return false;
	text = c_alloc(c, size);
	if (!text)
		return false;
	/* the event header text (type_len/time_delta widths) is fixed by the kernel */
	if (!parse_header_page(td, text, (size_t)size)) {
		free(text);
		return false;
	}
	free(text);
	if (!c_read(c, tag, 13) || memcmp(tag, "header_event", 13))
		return td->failed ? false : td_fail(td, "corrupt trace.dat: no header_event");
	if (!c_u64(c, &size) || !c_skip(c, size))
		return false;
	td->have_header = true;
	return true;
}

/* One format text of system sys: parsed when its event is one the reader wants. */
static void take_format(struct rq_td *td, const char *sys, const char *text, size_t n)
{
	char name[64], *canon;

	/* a format rqpath cannot trust leaves the event absent: not fatal */
	canon = canonical_format(text, n, name, sizeof(name));
	if (!canon)
		return;
	if (!td->eas_event[0] && !strcmp(sys, "sched") && rq_td_is_eas_event(name))
		snprintf(td->eas_event, sizeof(td->eas_event), "%s", name);
	if (!td->wanted || td->wanted(sys, name))
		tep_parse_event(td->tep, canon, strlen(canon), sys);
	free(canon);
}

/* count, then count times (u64 size, text): the formats of system sys */
static bool read_formats(struct rq_td *td, struct cur *c, const char *sys, uint32_t count)
{
	bool want = !td->wanted || td->wanted(sys, NULL);

	if (count > (c->end - c->pos) / 8)
		return td_fail(td, "corrupt trace.dat: %u formats announced in %s", count,
			       c->what);
	for (uint32_t i = 0; i < count; i++) {
		uint64_t size;
		char *text;

		if (!c_u64(c, &size))
			return false;
		if (!want) {
			if (!c_skip(c, size))
				return false;
			continue;
		}
		text = c_alloc(c, size);
		if (!text)
			return false;
		take_format(td, sys, text, (size_t)size);
		free(text);
	}
	return true;
}

static bool read_ftrace_formats(struct rq_td *td, struct cur *c)
{
	uint32_t count;

	return c_u32(c, &count) && read_formats(td, c, "ftrace", count);
}

static bool read_event_formats(struct rq_td *td, struct cur *c)
{
	uint32_t systems;

	if (!c_u32(c, &systems))
		return false;
	if (systems > (c->end - c->pos) / 5)
		return td_fail(td, "corrupt trace.dat: %u event systems announced", systems);
	for (uint32_t s = 0; s < systems; s++) {
		char sys[256];
		uint32_t count;

		if (!c_str(c, sys, sizeof(sys)) || !c_u32(c, &count) ||
		    !read_formats(td, c, sys, count))
			return false;
	}
	return true;
}

/* ---- options ---------------------------------------------------------------------- */

static unsigned long long sum_overruns(const char *stats)
{
	unsigned long long sum = 0;
	const char *p = stats;

	while ((p = strstr(p, "overrun:"))) {
		p += 8;
		sum += strtoull(p, NULL, 10);
	}
	return sum;
}

static struct td_buffer *new_instance(struct rq_td *td)
{
	struct td_buffer *b;

	if (td->ninst >= TD_MAX_BUFFERS) {
		td_fail(td, "corrupt trace.dat: more than %d buffers", TD_MAX_BUFFERS);
		return NULL;
	}
	b = realloc(td->inst, sizeof(*b) * (size_t)(td->ninst + 1));
	if (!b) {
		td_fail(td, "out of memory");
		return NULL;
	}
	td->inst = b;
	b = &td->inst[td->ninst++];
	memset(b, 0, sizeof(*b));
	return b;
}

/* BUFFER (v6: offset, name; v7: offset, name, clock, page size, CPUs) or BUFFER_TEXT. */
static bool buffer_option(struct rq_td *td, uint16_t id, const uint8_t *data, uint32_t size)
{
	struct cur c = { .td = td, .mem = data, .end = size, .what = "a BUFFER option" };
	char name[256], clock[256];
	struct td_buffer *b;
	uint64_t off;
	uint32_t ps, n;
	int maxcpu = -1;

	if (!c_u64(&c, &off) || !c_str(&c, name, sizeof(name)))
		return false;
	if (name[0]) {
		b = new_instance(td);
		if (!b)
			return false;
	} else {
		b = &td->top;
		free(b->cpus);
		memset(b, 0, sizeof(*b));
		td->has_top = true;
	}
	snprintf(b->name, sizeof(b->name), "%s", name);
	b->offset = off;
	if (td->version < 7)
		return true;
	if (!c_str(&c, clock, sizeof(clock)))
		return false;
	if (id == OPT_BUFFER_TEXT) {
		b->latency = true;
		b->listed = true;
		return true;
	}
	if (!c_u32(&c, &ps) || !c_u32(&c, &n))
		return false;
	if (n > TD_MAX_CPUS || n > (c.end - c.pos) / 20)
		return td_fail(td, "corrupt trace.dat: a BUFFER option lists %u CPUs", n);
	b->page_size = ps;
	b->cpus = calloc(n ? n : 1, sizeof(*b->cpus));
	if (!b->cpus)
		return td_fail(td, "out of memory");
	for (uint32_t i = 0; i < n; i++) {
		uint32_t cpu;

		if (!c_u32(&c, &cpu) || !c_u64(&c, &b->cpus[i].off) || !c_u64(&c, &b->cpus[i].size))
			return false;
		if (cpu >= TD_MAX_CPUS)
			return td_fail(td, "corrupt trace.dat: buffer \"%s\" has data for CPU %u "
				       "(at most %d CPUs are supported)", b->name, cpu, TD_MAX_CPUS);
		for (uint32_t j = 0; j < i; j++)
			if (b->cpus[j].cpu == (int)cpu)
				return td_fail(td, "corrupt trace.dat: buffer \"%s\" lists CPU %u "
					       "twice", b->name, cpu);
		b->cpus[i].cpu = (int)cpu;
		if ((int)cpu > maxcpu)
			maxcpu = (int)cpu;
	}
	b->ncpu = (int)n;
	b->listed = true;
	return true;
}

static bool handle_option(struct rq_td *td, uint16_t id, uint8_t *data, uint32_t size,
			  uint64_t *next)
{
	char text[64];

	switch (id) {
	case OPT_DONE:
		if (next && size >= 8)
			*next = get64(data);
		return true;
	case OPT_DATE:
	case OPT_OFFSET:
		/* what libtracecmd adds to every timestamp: DATE in microseconds, OFFSET in ns */
		snprintf(text, sizeof(text), "%.*s", (int)(size < 63 ? size : 63), (char *)data);
		td->ts_offset += strtoll(text, NULL, 0) * (id == OPT_DATE ? 1000 : 1);
		return true;
	case OPT_CPUSTAT:
		if (size) {
			const char *c;
			long cpu = td->nstats;
			unsigned long long n;

			data[size - 1] = '\0';
			n = sum_overruns((char *)data);
			td->overrun += n;
			/* "CPU: N" first; else the options' order is the CPUs' */
			c = strstr((char *)data, "CPU:");
			if (c)
				cpu = strtol(c + 4, NULL, 10);
			td->nstats++;
			if (cpu >= 0 && cpu < TD_MAX_CPUS) {
				if (cpu >= td->ncpu_overrun) {
					unsigned long long *m = realloc(td->cpu_overrun,
									sizeof(*m) * (size_t)(cpu + 1));

					if (!m)
						return td_fail(td, "out of memory");
					memset(m + td->ncpu_overrun, 0,
					       sizeof(*m) * (size_t)(cpu + 1 - td->ncpu_overrun));
					td->cpu_overrun = m;
					td->ncpu_overrun = (int)cpu + 1;
				}
				td->cpu_overrun[cpu] += n;
			}
		}
		return true;
	case OPT_UNAME:
		snprintf(td->uname, sizeof(td->uname), "%.*s", (int)size, (char *)data);
		return true;
	case OPT_VERSION:
		/* rqpath's writer says so until it has finished the file (tracedat_write.h) */
		td->unfinished = size && memmem(data, size, RQ_TDW_UNFINISHED,
						strlen(RQ_TDW_UNFINISHED));
		td->cut_full = size && memmem(data, size, RQ_TDW_CUT_FULL,
					      strlen(RQ_TDW_CUT_FULL));
		return true;
	case OPT_CPUCOUNT:
		/* a CPU with no data is left out of the buffer's CPU list: this counts it */
		if (size >= 4 && get32(data) <= TD_MAX_CPUS)
			td->cpucount = (int)get32(data);
		return true;
	case OPT_TIME_SHIFT:
		if (size >= 16)
			td->time_shift = true;
		return true;
	case OPT_TSC2NSEC:
		if (size >= 16) {
			td->tsc_mult = get32(data);
			td->tsc_shift = get32(data + 4);
		}
		return true;
	case OPT_BUFFER:
	case OPT_BUFFER_TEXT:
		return buffer_option(td, id, data, size);
	case OPT_HEADER_INFO:
	case OPT_FTRACE_EVENTS:
	case OPT_EVENT_FORMATS:
		if (size >= 8 && td->version >= 7) {
			uint64_t off = get64(data);

			if (id == OPT_HEADER_INFO)
				td->sec_header = off;
			else if (id == OPT_FTRACE_EVENTS)
				td->sec_ftrace = off;
			else
				td->sec_events = off;
		}
		return true;
	default:
		return true;
	}
}

/* Options from c up to DONE (v6) or the end of the section (v7, DONE gives *next). */
static bool read_options(struct rq_td *td, struct cur *c, uint64_t *next)
{
	for (;;) {
		uint8_t h[2];
		uint16_t id;
		uint32_t size;
		uint8_t *data;
		bool ok;

		if (td->version >= 7 && c->pos == c->end)
			return true;
		if (!c_read(c, h, 2))
			return false;
		id = get16(h);
		if (td->version < 7 && id == OPT_DONE)
			return true;
		if (!c_u32(c, &size))
			return false;
		data = (uint8_t *)c_alloc(c, size);
		if (!data)
			return false;
		ok = handle_option(td, id, data, size, next);
		free(data);
		if (!ok)
			return false;
		if (td->version >= 7 && id == OPT_DONE)
			return true;
	}
}

/* ---- file headers ----------------------------------------------------------------- */

static bool page_size_ok(uint32_t ps)
{
	return ps >= TD_MIN_PAGE && ps <= TD_MAX_PAGE && !(ps & (ps - 1));
}

static bool read_v6(struct rq_td *td, uint64_t pos)
{
	struct cur c = { .td = td, .pos = pos, .end = td->file_size, .what = "the file header" };
	uint32_t size32, cpus;
	uint64_t size64;
	char kind[10];

	c.what = "the header page section";
	if (!read_header_info(td, &c))
		return false;
	c.what = "the ftrace event formats";
	if (!read_ftrace_formats(td, &c))
		return false;
	c.what = "the event formats";
	if (!read_event_formats(td, &c))
		return false;
	c.what = "the kallsyms section";
	if (!c_u32(&c, &size32) || !c_skip(&c, size32))
		return false;
	c.what = "the printk formats section";
	if (!c_u32(&c, &size32) || !c_skip(&c, size32))
		return false;
	c.what = "the saved command lines";
	if (!c_u64(&c, &size64) || !c_skip(&c, size64))
		return false;
	c.what = "the CPU count";
	if (!c_u32(&c, &cpus))
		return false;
	if (cpus > TD_MAX_CPUS)
		return td_fail(td, "corrupt trace.dat: it declares %u CPUs (at most %d are "
			       "supported)", cpus, TD_MAX_CPUS);
	td->v6_cpus = (int)cpus;
	c.what = "the options";
	if (!c_read(&c, kind, 10))
		return false;
	if (!memcmp(kind, "options  ", 10)) {
		if (!read_options(td, &c, NULL))
			return false;
		if (!c_read(&c, kind, 10))
			return false;
	}
	td->top.ncpu = (int)cpus;
	td->top.page_size = td->page_size;
	td->has_top = true;
	if (!memcmp(kind, "latency  ", 10)) {
		td->top.latency = true;
		td->top.listed = true;
		return true;
	}
	if (memcmp(kind, "flyrecord", 10))
		return td_fail(td, "corrupt trace.dat: neither flyrecord nor latency data after "
			       "the options");
	c.what = "the CPU data table";
	if (cpus > (c.end - c.pos) / 16)
		return td_fail(td, "truncated trace.dat: the CPU data table is cut short");
	td->top.cpus = calloc(cpus ? cpus : 1, sizeof(*td->top.cpus));
	if (!td->top.cpus)
		return td_fail(td, "out of memory");
	for (uint32_t i = 0; i < cpus; i++) {
		td->top.cpus[i].cpu = (int)i;
		if (!c_u64(&c, &td->top.cpus[i].off) || !c_u64(&c, &td->top.cpus[i].size))
			return false;
	}
	td->top.listed = true;
	return true;
}

/* A v6 buffer instance: at its offset, optional options, then "flyrecord" and the table. */
static bool list_v6_instance(struct rq_td *td, struct td_buffer *b)
{
	struct cur c = { .td = td, .pos = b->offset, .end = td->file_size,
			 .what = "a buffer instance's CPU table" };
	unsigned long long overrun = td->overrun;
	char kind[10];
	uint32_t cpus = (uint32_t)td->v6_cpus;

	if (!c_read(&c, kind, 10))
		return false;
	if (!memcmp(kind, "options  ", 10)) {
		if (!read_options(td, &c, NULL) || !c_read(&c, kind, 10))
			return false;
		td->overrun = overrun;	/* an instance's stats are not the file's */
		td->ncpu_overrun = 0;
	}
	b->page_size = td->page_size;
	b->listed = true;
	if (!memcmp(kind, "latency  ", 10)) {
		b->latency = true;
		return true;
	}
	if (memcmp(kind, "flyrecord", 10))
		return td_fail(td, "corrupt trace.dat: buffer \"%s\" has no flyrecord data",
			       b->name);
	if (cpus > (c.end - c.pos) / 16)
		return td_fail(td, "truncated trace.dat: buffer \"%s\" CPU table is cut short",
			       b->name);
	b->cpus = calloc(cpus ? cpus : 1, sizeof(*b->cpus));
	if (!b->cpus)
		return td_fail(td, "out of memory");
	for (uint32_t i = 0; i < cpus; i++) {
		b->cpus[i].cpu = (int)i;
		if (!c_u64(&c, &b->cpus[i].off) || !c_u64(&c, &b->cpus[i].size))
			return false;
	}
	b->ncpu = (int)cpus;
	return true;
}

/*
 * The v7 options sections from opt on, each pointing to the next: each read once (one
 * seen before is a loop), so the work is bounded by the file's sections.
 */
static bool read_option_chain(struct rq_td *td, uint64_t opt)
{
	uint64_t *seen = malloc(TD_MAX_OPTION_SECTIONS * sizeof(*seen));
	int sections = 0;
	bool ret = false;

	if (!seen)
		return td_fail(td, "out of memory");
	while (opt) {
		struct cur oc = { .td = td, .what = "an options section" };
		uint64_t len, next = 0;
		uint8_t *sec;
		bool ok;

		/*
		 * Each section once: one seen before is a loop, one that begins inside the
		 * header of another (16 bytes) is no section of its own
		 */
		for (int i = 0; i < sections; i++) {
			if (opt == seen[i]) {
				td_fail(td, "corrupt trace.dat: the options sections form a loop "
					"(the section at offset %llu comes again)",
					(unsigned long long)opt);
				goto out;
			}
			if (opt > seen[i] && opt - seen[i] < 16) {
				td_fail(td, "corrupt trace.dat: the options section at offset %llu "
					"overlaps the one at %llu", (unsigned long long)opt,
					(unsigned long long)seen[i]);
				goto out;
			}
		}
		if (sections >= TD_MAX_OPTION_SECTIONS) {
			td_fail(td, "corrupt trace.dat: more than %d options sections",
				TD_MAX_OPTION_SECTIONS);
			goto out;
		}
		seen[sections++] = opt;
		sec = read_section(td, opt, OPT_DONE, &len, "an options section");
		if (!sec)
			goto out;
		oc.mem = sec;
		oc.end = len;
		ok = read_options(td, &oc, &next);
		free(sec);
		if (!ok)
			goto out;
		opt = next;
	}
	ret = true;
out:
	free(seen);
	return ret;
}

static bool read_v7(struct rq_td *td, uint64_t pos)
{
	struct cur c = { .td = td, .pos = pos, .end = td->file_size,
			 .what = "the compression header" };
	char name[64], version[64];
	uint64_t opt;

	if (!c_str(&c, name, sizeof(name)) || !c_str(&c, version, sizeof(version)))
		return false;
	if (!strcmp(name, "none"))
		td->comp = COMP_NONE;
	else if (!strcmp(name, "zstd"))
		td->comp = COMP_ZSTD;
	else if (!strcmp(name, "zlib"))
		td->comp = COMP_ZLIB;
	else
		return td_fail(td, "unsupported trace.dat: compression \"%.40s\" (none, zstd and "
			       "zlib are supported)", name);
	c.what = "the first options offset";
	if (!c_u64(&c, &opt))
		return false;
	if (!read_option_chain(td, opt))
		return false;
	if (!td->sec_header)
		return td_fail(td, "corrupt trace.dat: no header page section");
	struct { uint64_t off; uint16_t id; const char *what; } secs[] = {
		{ td->sec_header, OPT_HEADER_INFO, "the header page section" },
		{ td->sec_ftrace, OPT_FTRACE_EVENTS, "the ftrace event formats" },
		{ td->sec_events, OPT_EVENT_FORMATS, "the event formats" },
	};
	for (size_t i = 0; i < sizeof(secs) / sizeof(secs[0]); i++) {
		struct cur sc = { .td = td, .what = secs[i].what };
		uint64_t len;
		uint8_t *sec;
		bool ok;

		if (!secs[i].off)
			continue;
		sec = read_section(td, secs[i].off, secs[i].id, &len, secs[i].what);
		if (!sec)
			return false;
		sc.mem = sec;
		sc.end = len;
		if (secs[i].id == OPT_HEADER_INFO)
			ok = read_header_info(td, &sc);
		else if (secs[i].id == OPT_FTRACE_EVENTS)
			ok = read_ftrace_formats(td, &sc);
		else
			ok = read_event_formats(td, &sc);
		free(sec);
		if (!ok)
			return false;
	}
	return true;
}

/* ---- per-CPU cursors -------------------------------------------------------------- */

/*
 * n zeroed objects of size bytes on a cache line: struct td_cpu is aligned(64), which
 * malloc() and realloc() do not promise (glibc gives 16), and the compiler may use
 * aligned stores on it.  old (from here too, holding keep objects) is copied and freed.
 */
static void *lines_alloc(void *old, size_t keep, size_t n, size_t size)
{
	void *p;

	if (!n || size > SIZE_MAX / n || posix_memalign(&p, 64, n * size))
		return NULL;
	memset(p, 0, n * size);
	if (old) {
		memcpy(p, old, keep * size);
		free(old);
	}
	return p;
}

static void free_cpus(struct rq_td *td)
{
	for (int i = 0; td->cpu && i < td->nstreams; i++) {
		if (td->compressed)
			*td->held -= td->cpu[i].cap;
		free(td->cpu[i].buf);
	}
	free(td->cpu);
	td->cpu = NULL;
	td->ncpus = 0;
	td->nstreams = 0;
}

/* Fill c->buf with the next window (uncompressed) or chunk; false at the end or error. */
static bool load_block(struct rq_td *td, struct td_cpu *c)
{
	uint64_t end = c->off + c->size;

	c->len = c->page = 0;
	if (!td->compressed) {
		size_t n;

		if (c->next >= end)
			return false;
		/* whole pages: the window (td_window()) */
		n = td->window;
		if (end - c->next < n)
			n = (size_t)(end - c->next);
		if (!buf_grow(td, &c->buf, &c->cap, n) ||
		    !td_pread(td, c->buf, n, c->next, "CPU data"))
			return false;
		c->next += n;
		c->done = c->next - c->off;
		c->len = n;
		return true;
	} else {
		uint8_t h[8];
		uint32_t zsize, usize;

		if (!c->chunks_left)
			return false;
		if (c->next > end || end - c->next < 8)
			return td_fail(td, "corrupt trace.dat: CPU %d has %u compressed chunks "
				       "more than its data holds", c->cpu, c->chunks_left);
		if (!td_pread(td, h, 8, c->next, "a compressed chunk header"))
			return false;
		zsize = get32(h);
		usize = get32(h + 4);
		if (zsize > end - c->next - 8)
			return td_fail(td, "corrupt trace.dat: CPU %d: a compressed chunk of %u "
				       "bytes at offset %llu runs past the CPU's data", c->cpu,
				       zsize, (unsigned long long)c->next);
		if (usize > TD_MAX_CHUNK || usize % td->bpage)
			return td_fail(td, "corrupt trace.dat: CPU %d: a chunk of %u bytes is not "
				       "a whole number of %u-byte pages", c->cpu, usize, td->bpage);
		if (!ratio_ok(zsize, usize))
			return td_fail(td, "corrupt trace.dat: CPU %d: a chunk at offset %llu "
				       "claims %u bytes from %u compressed (more than %u times as "
				       "many)", c->cpu, (unsigned long long)c->next, usize, zsize,
				       TD_MAX_RATIO);
		if (usize > c->cap) {
			uint64_t more = usize - c->cap;

			if (__atomic_add_fetch(td->held, more, __ATOMIC_RELAXED) > held_max(td)) {
				__atomic_sub_fetch(td->held, more, __ATOMIC_RELAXED);
				return td_fail(td, "corrupt trace.dat: CPU %d: its chunk of %u bytes "
					       "would make the CPUs' chunks more than %llu MiB at "
					       "once, more than a file of %llu bytes can hold",
					       c->cpu, usize,
					       (unsigned long long)(held_max(td) >> 20),
					       (unsigned long long)td->file_size);
			}
			if (!buf_grow(td, &c->buf, &c->cap, usize)) {
				__atomic_sub_fetch(td->held, more, __ATOMIC_RELAXED);
				return false;
			}
		}
		if (!buf_grow(td, &td->zbuf, &td->zcap, zsize ? zsize : 1) ||
		    !td_pread(td, td->zbuf, zsize, c->next + 8, "a compressed chunk") ||
		    !buf_grow(td, &c->buf, &c->cap, usize ? usize : 1) ||
		    !td_uncompress(td, c->buf, usize, td->zbuf, zsize, "a CPU data chunk"))
			return false;
		c->next += 8 + (uint64_t)zsize;
		c->done = c->next - c->off;
		c->chunks_left--;
		c->len = usize;
		return true;
	}
}

/*
 * A worker: for each of its CPUs (cpu % nworkers == id) whose prefetch slot is empty,
 * read the CPU's next block into the slot.  It works on a private copy of the reader
 * (the file, sizes and compression are read-only; the error line, the zstd context and
 * the compressed-input buffer are its own), so nothing but the slots is shared.
 */
static void *worker_main(void *arg)
{
	struct td_worker *w = arg;
	struct rq_td *td = w->td;
	struct rq_td *own = &w->own;

	pthread_mutex_lock(&td->lock);
	while (!td->stop) {
		struct td_prefetch *pf = NULL;
		bool ok;

		for (int i = w->id; i < td->nstreams; i += td->nworkers)
			if (td->pf[i].state == PF_EMPTY) {
				pf = &td->pf[i];
				break;
			}
		if (!pf) {
			pthread_cond_wait(&td->work, &td->lock);
			continue;
		}
		pf->state = PF_BUSY;
		pthread_mutex_unlock(&td->lock);
		own->failed = false;
		ok = load_block(own, &pf->src);
		pthread_mutex_lock(&td->lock);
		if (ok) {
			pf->state = PF_READY;
		} else if (own->failed) {
			snprintf(pf->err, sizeof(pf->err), "%s", own->err);
			pf->state = PF_ERROR;
		} else {
			pf->state = PF_END;
		}
		pthread_cond_broadcast(&td->ready);
	}
	pthread_mutex_unlock(&td->lock);
	ZSTD_freeDCtx(own->zctx);
	free(own->zbuf);
	return NULL;
}

/* The next block of c, from its worker when there are workers. */
static bool next_block(struct rq_td *td, struct td_cpu *c)
{
	struct td_prefetch *pf;
	bool ok = false;

	if (!td->nworkers)
		return load_block(td, c);
	pf = &td->pf[c->cpu];
	pthread_mutex_lock(&td->lock);
	while (pf->state == PF_EMPTY || pf->state == PF_BUSY)
		pthread_cond_wait(&td->ready, &td->lock);
	if (pf->state == PF_READY) {
		uint8_t *b = c->buf;
		size_t cap = c->cap;

		c->buf = pf->src.buf;
		c->cap = pf->src.cap;
		c->len = pf->src.len;
		c->done = pf->src.done;
		c->page = 0;
		pf->src.buf = b;
		pf->src.cap = cap;
		pf->state = PF_EMPTY;
		pthread_cond_broadcast(&td->work);
		ok = true;
	} else if (pf->state == PF_ERROR) {
		td_fail(td, "%s", pf->err);
	} else {
		c->len = c->page = 0;
	}
	pthread_mutex_unlock(&td->lock);
	return ok;
}

static void stop_workers(struct rq_td *td)
{
	if (!td->workers)
		return;
	pthread_mutex_lock(&td->lock);
	td->stop = true;
	pthread_cond_broadcast(&td->work);
	pthread_mutex_unlock(&td->lock);
	for (int i = 0; i < td->nworkers; i++)
		if (td->workers[i].started)
			pthread_join(td->workers[i].thread, NULL);
	for (int i = 0; td->pf && i < td->nstreams; i++)
		free(td->pf[i].src.buf);
	free(td->pf);
	free(td->workers);
	td->pf = NULL;
	td->workers = NULL;
	td->nworkers = 0;
	pthread_cond_destroy(&td->ready);
	pthread_cond_destroy(&td->work);
	pthread_mutex_destroy(&td->lock);
}

int rq_td_start_workers(struct rq_td *td, int n)
{
	int present = 0;

	if (td->workers || td->failed)
		return 0;
	for (int i = 0; i < td->nstreams; i++)
		present += td->cpu[i].present;
	if (n > present)
		n = present;
	if (n <= 0)
		return 0;
	td->pf = lines_alloc(NULL, 0, (size_t)td->nstreams, sizeof(*td->pf));
	td->workers = calloc((size_t)n, sizeof(*td->workers));
	if (!td->pf || !td->workers) {
		free(td->pf);
		free(td->workers);
		td->pf = NULL;
		td->workers = NULL;
		return 0;
	}
	for (int i = 0; i < td->nstreams; i++) {
		struct td_cpu *c = &td->cpu[i], *w = &td->pf[i].src;

		w->cpu = c->cpu;
		w->off = c->off;
		w->size = c->size;
		w->next = c->next;
		w->done = c->done;
		w->chunks_left = c->chunks_left;
		/* a CPU without data, or read to its end already, has nothing to fetch */
		td->pf[i].state = c->present ? PF_EMPTY : PF_END;
	}
	pthread_mutex_init(&td->lock, NULL);
	pthread_cond_init(&td->ready, NULL);
	pthread_cond_init(&td->work, NULL);
	td->stop = false;
	td->nworkers = n;
	/*
	 * Every copy is taken before the first worker starts: a running worker updates
	 * td->held_own atomically, and copying *td then would read it while it changes.
	 */
	for (int i = 0; i < n; i++) {
		struct td_worker *w = &td->workers[i];

		w->td = td;
		w->id = i;
		w->own = *td;
		w->own.failed = false;
		w->own.err[0] = '\0';
		w->own.zctx = NULL;
		w->own.zbuf = NULL;
		w->own.zcap = 0;
	}
	for (int i = 0; i < n; i++) {
		if (pthread_create(&td->workers[i].thread, NULL, worker_main, &td->workers[i]))
			break;
		td->workers[i].started = true;
	}
	/* all or none: a worker that did not start would leave its CPUs unread */
	for (int i = 0; i < n; i++)
		if (!td->workers[i].started) {
			stop_workers(td);
			return 0;
		}
	return n;
}

/* Load the next page with data into c; false at the end of the CPU or on error. */
static bool next_page(struct rq_td *td, struct td_cpu *c)
{
	for (;;) {
		const uint8_t *p;
		uint64_t flags;
		uint32_t commit;

		if (c->page >= c->len && !next_block(td, c))
			return false;
		if (c->len - c->page < td->bpage)
			return td_fail(td, "corrupt trace.dat: CPU %d data ends inside a page "
				       "(page size %u)", c->cpu, td->bpage);
		p = c->buf + c->page;
		c->page += td->bpage;
		c->pageno++;
		flags = td->commit_size == 8 ? get64(p + 8) : get32(p + 8);
		commit = (uint32_t)flags & RB_COMMIT_MASK;
		if (commit > td->bpage - td->page_hdr)
			return td_fail(td, "corrupt trace.dat: CPU %d page %llu says it holds %u "
				       "bytes of events, more than its %u", c->cpu,
				       (unsigned long long)c->pageno, commit,
				       td->bpage - td->page_hdr);
		if (flags & RB_MISSED_EVENTS) {
			long long lost = -1;

			if ((flags & RB_MISSED_STORED) &&
			    td->page_hdr + commit + (uint32_t)td->commit_size <= td->bpage)
				lost = (long long)(td->commit_size == 8 ?
						   get64(p + td->page_hdr + commit) :
						   get32(p + td->page_hdr + commit));
			if (lost < 0)
				lost = -1;
			/* two pages in a row with losses before one record: add them up */
			if (c->missed > 0 && lost > 0)
				c->missed += lost;
			else if (!c->missed || lost < 0)
				c->missed = lost;
		}
		if (!commit)
			continue;
		c->data = p + td->page_hdr;
		c->commit = commit;
		c->pos = 0;
		c->ts = get64(p);
		c->in_page = true;
		return true;
	}
}

static inline uint64_t convert_ts(const struct rq_td *td, uint64_t ts)
{
	if (td->tsc_mult)
		ts = (uint64_t)(((unsigned __int128)ts * td->tsc_mult) >> td->tsc_shift);
	return ts + (uint64_t)td->ts_offset;
}

/* The next data record of CPU c into c->rec; false at the end or on error. */
static bool cpu_advance(struct rq_td *td, struct td_cpu *c)
{
	c->has = false;
	for (;;) {
		uint32_t w, type, left, len, hdr;
		uint64_t delta, ts;

		if (!c->in_page || c->pos >= c->commit) {
			c->in_page = false;
			if (!next_page(td, c))
				return false;
		}
		left = c->commit - c->pos;
		if (left < 4)
			return td_fail(td, "corrupt trace.dat: CPU %d: an event header is cut by the "
				       "end of its page", c->cpu);
		w = get32(c->data + c->pos);
		type = w & 31;
		delta = w >> 5;
		/* the common case first: a small event, its length in type_len */
		if (__builtin_expect(type - 1 < 28, 1)) {
			len = type * 4;
			if (len > left - 4)
				return td_fail(td, "corrupt trace.dat: CPU %d: an event of %u bytes "
					       "runs past the end of its page", c->cpu, len);
			hdr = 4;
			goto emit;
		}
		switch (type) {
		case RB_PADDING:
			c->ts += delta;
			/* a discarded event, or the unused end of the page */
			if (left < 8) {
				c->in_page = false;
				continue;
			}
			len = get32(c->data + c->pos + 4);
			if (len > left - 4) {
				c->in_page = false;
				continue;
			}
			c->pos += 4 + len;
			continue;
		case RB_TIME_EXTEND:
		case RB_TIME_STAMP:
			if (left < 8)
				return td_fail(td, "corrupt trace.dat: CPU %d: a time extension is "
					       "cut by the end of its page", c->cpu);
			delta += (uint64_t)get32(c->data + c->pos + 4) << 27;
			if (type == RB_TIME_EXTEND)
				c->ts += delta;
			else
				c->ts = delta;
			c->pos += 8;
			continue;
		case 0:
			if (left < 8)
				return td_fail(td, "corrupt trace.dat: CPU %d: an event header is cut "
					       "by the end of its page", c->cpu);
			len = get32(c->data + c->pos + 4);
			if (len < 4 || len - 4 > left - 8)
				return td_fail(td, "corrupt trace.dat: CPU %d: an event of %u bytes "
					       "runs past the end of its page", c->cpu, len);
			len = (len - 4 + 3) & ~3u;
			if (len > left - 8)
				len = left - 8;
			hdr = 8;
			break;
		default:
			len = type * 4;
			if (len > left - 4)
				return td_fail(td, "corrupt trace.dat: CPU %d: an event of %u bytes "
					       "runs past the end of its page", c->cpu, len);
			hdr = 4;
			break;
		}
emit:
		c->ts += delta;
		c->rec.cpu = (int16_t)c->cpu;
		c->rec.data = c->data + c->pos + hdr;
		c->rec.size = len;
		ts = convert_ts(td, c->ts);
		c->rec.missed = c->missed;
		c->missed = 0;
		c->rec.backwards = ts < c->rec.ts;
		c->rec.ts = ts;
		c->pos += hdr + len;
		c->has = true;
		return true;
	}
}

/* The cursor c of the data d says a CPU has (d->size > 0). */
static bool cursor_init(struct rq_td *td, struct td_cpu *c, const struct td_cpu_data *d)
{
	if (d->off > td->file_size || d->size > td->file_size - d->off)
		return td_fail(td, "truncated trace.dat: CPU %d data ends at %llu, past the "
			       "end of the file (%llu bytes)", d->cpu,
			       (unsigned long long)(d->off + d->size),
			       (unsigned long long)td->file_size);
	c->present = true;
	c->off = d->off;
	c->size = d->size;
	c->next = d->off;
	td->total += d->size;
	if (td->compressed) {
		uint8_t n[4];

		if (d->size < 4 || !td_pread(td, n, 4, d->off, "a chunk count"))
			return td->failed ? false : td_fail(td, "corrupt trace.dat: CPU %d "
							    "data has no chunk count", d->cpu);
		c->chunks_left = get32(n);
		c->next += 4;
		/*
		 * trace-cmd counts the chunks (8-byte header + data each) in the size,
		 * not the chunk count before them
		 */
		c->size = d->size + 4 <= td->file_size - d->off ? d->size + 4 : d->size;
	} else if (d->size % td->bpage) {
		return td_fail(td, "corrupt trace.dat: CPU %d data (%llu bytes) is not a "
			       "whole number of %u-byte pages", d->cpu,
			       (unsigned long long)d->size, td->bpage);
	}
	return true;
}

/*
 * How much of its page data a CPU reads at once (uncompressed; a v7 chunk is as large as
 * the file says): TD_WINDOWS split over the CPUs with data, within TD_WINDOW_MIN ..
 * TD_WINDOW, in whole pages, at least one.  The merge takes a record of nearly every
 * CPU in turn, so every CPU's window is in use at once: 256 CPUs with 256 KiB each were
 * 64 MiB, twice the L3 cache, and what pread() had just copied in had left the cache
 * before the merge read it.  Now 2 MiB in all (32 KiB a CPU at 64 CPUs), 4
 * MiB at 256 CPUs, where 8 KiB windows cost more in pread() calls than they saved.
 */
static uint32_t td_window(const struct td_buffer *b, uint32_t page)
{
	size_t present = 0, w;

	for (int i = 0; i < b->ncpu; i++)
		present += b->cpus[i].size > 0;
	w = TD_WINDOWS / (present ? present : 1);
	if (w < TD_WINDOW_MIN)
		w = TD_WINDOW_MIN;
	if (w > TD_WINDOW)
		w = TD_WINDOW;
	w -= w % page;
	return w > page ? (uint32_t)w : page;
}

static int by_offset(const void *a, const void *b)
{
	const struct td_cpu *x = *(const struct td_cpu *const *)a;
	const struct td_cpu *y = *(const struct td_cpu *const *)b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/*
 * Every stream's data is its own: two CPUs whose data overlap (or are the same bytes)
 * would make the file's bytes count twice (or a thousand times: the same chunk listed
 * for every CPU).  Sizes as the table gives them (for v7, without the chunk count).
 */
static bool streams_disjoint(struct rq_td *td, int n)
{
	const struct td_cpu **v = malloc((n ? n : 1) * sizeof(*v));
	int m = 0;
	bool ok = true;

	if (!v)
		return td_fail(td, "out of memory");
	for (int i = 0; i < n; i++)
		if (td->cpu[i].present)
			v[m++] = &td->cpu[i];
	qsort(v, m, sizeof(*v), by_offset);
	for (int i = 1; i < m && ok; i++) {
		uint64_t size = v[i - 1]->size;

		if (td->compressed && size >= 4 && v[i - 1]->size > 4)
			size -= 4;	/* cursor_init() counted the chunk count in */
		if (v[i]->off - v[i - 1]->off < size)
			ok = td_fail(td, "corrupt trace.dat: the data of %s %d and %s %d overlap "
				     "(at offsets %llu and %llu); each CPU's data must be its "
				     "own", v[i - 1]->cpu >= td->ncpus ? "stream" : "CPU",
				     v[i - 1]->cpu, v[i]->cpu >= td->ncpus ? "stream" : "CPU",
				     v[i]->cpu, (unsigned long long)v[i - 1]->off,
				     (unsigned long long)v[i]->off);
	}
	free(v);
	return ok;
}

/*
 * A v7 buffer's offset must point at a data section (OPT_BUFFER); *compressed says whether
 * that section's CPU data is compressed.
 */
static bool section_compressed(struct rq_td *td, const struct td_buffer *b, bool *compressed)
{
	uint8_t hdr[16];

	if (!td_pread(td, hdr, sizeof(hdr), b->offset, "a buffer's data section"))
		return false;
	if (get16(hdr) != OPT_BUFFER)
		return td_fail(td, "corrupt trace.dat: buffer \"%s\" points to section id %u, "
			       "not a data section", b->name, get16(hdr));
	*compressed = get16(hdr + 2) & SEC_FL_COMPRESS;
	return true;
}

/* Set up the cursors of buffer b and read each CPU's first record. */
static bool open_buffer(struct rq_td *td, const struct td_buffer *b)
{
	int ncpus = 0;

	free_cpus(td);
	td->buf = b;
	td->compressed = false;
	td->total = 0;
	td->bpage = b->page_size ? b->page_size : td->page_size;
	if (!page_size_ok(td->bpage))
		return td_fail(td, "corrupt trace.dat: %s%s%s page size %u is impossible",
			       b->name[0] ? "buffer \"" : "the", b->name, b->name[0] ? "\"" : "",
			       td->bpage);
	/*
	 * The header page format gives the size of a page's data: a buffer whose pages
	 * are said to be of another size contradicts it.
	 */
	if (td->sub_buffer && td->bpage != td->sub_buffer)
		return td_fail(td, "corrupt trace.dat: %s%s%s page size %u contradicts the %u-byte "
			       "pages of its header page format", b->name[0] ? "buffer \"" : "the",
			       b->name, b->name[0] ? "\"" : "", td->bpage, td->sub_buffer);
	if (td->bpage < td->page_hdr + 4)
		return td_fail(td, "corrupt trace.dat: page size %u is smaller than a page "
			       "header", td->bpage);
	if (td->version >= 7 && b->ncpu) {
		if (!section_compressed(td, b, &td->compressed))
			return false;
		if (td->compressed && td->comp == COMP_NONE)
			return td_fail(td, "corrupt trace.dat: compressed CPU data in a file "
				       "without compression");
	}
	for (int i = 0; i < b->ncpu; i++)
		if (b->cpus[i].cpu + 1 > ncpus)
			ncpus = b->cpus[i].cpu + 1;
	if (td->version < 7)
		ncpus = b->ncpu;
	else if (td->cpucount > ncpus)
		ncpus = td->cpucount;
	td->cpu = lines_alloc(NULL, 0, ncpus ? (size_t)ncpus : 1, sizeof(*td->cpu));
	if (!td->cpu)
		return td_fail(td, "out of memory");
	td->ncpus = ncpus;
	for (int i = 0; i < ncpus; i++)
		td->cpu[i].cpu = i;
	td->window = td_window(b, td->bpage);
	if (td->unfinished) {
		struct stat st;

		/* still being written: it grew since it was opened, and its table is newer */
		if (fstat(td->fd, &st) == 0 && (uint64_t)st.st_size > td->file_size)
			td->file_size = (uint64_t)st.st_size;
	}
	td->nstreams = ncpus;
	for (int i = 0; i < b->ncpu; i++) {
		const struct td_cpu_data *d = &b->cpus[i];

		if (d->size && !cursor_init(td, &td->cpu[d->cpu], d))
			return false;
	}
	if (!streams_disjoint(td, ncpus))
		return false;
	for (int i = 0; i < ncpus; i++) {
		struct td_cpu *c = &td->cpu[i];

		if (!c->present)
			continue;
		if (!cpu_advance(td, c) && td->failed)
			return false;
	}
	return true;
}

static bool any_record(const struct rq_td *td)
{
	for (int i = 0; i < td->ncpus; i++)
		if (td->cpu[i].has)
			return true;
	return false;
}

/*
 * The top buffer, or, when it holds no record, the first instance that does
 * (`trace-cmd extract -B NAME`, `trace-cmd record -B NAME`).
 */
static bool pick_buffer(struct rq_td *td)
{
	const struct td_buffer *first = NULL;

	if (td->has_top && !td->top.latency && td->top.listed) {
		if (td->top.ncpu)
			first = &td->top;
		if (!open_buffer(td, &td->top))
			return false;
		if (any_record(td))
			return true;
	}
	for (int i = 0; i < td->ninst; i++) {
		struct td_buffer *b = &td->inst[i];

		if (!b->listed && !list_v6_instance(td, b))
			return false;
		/* rqpath's truth records are a stream beside the CPUs (add_truth()) */
		if (b->latency || !strcmp(b->name, RQ_TRUTH_BUFFER))
			continue;
		if (!first && b->ncpu)
			first = b;
		if (!open_buffer(td, b))
			return false;
		if (any_record(td))
			return true;
	}
	if (!first && td->has_top && !td->top.latency && td->top.listed)
		first = &td->top;	/* no CPU anywhere: the top buffer's error below */
	if (!first)
		return td_fail(td, td->has_top && td->top.latency ?
			       "unsupported trace.dat: a latency-tracer text trace, no ring-buffer "
			       "data to replay" : "corrupt trace.dat: no CPU data");
	/* no record anywhere: an empty trace, not an error */
	return open_buffer(td, first);
}

/*
 * The kernel's own state at each placement, which rqpath's recorder keeps in a buffer of
 * its own (RQ_TRUTH_BUFFER, one CPU): one more stream after the CPUs of the buffer read,
 * for the pump to merge by time.  Its data is checked like a CPU's; a file whose truth
 * buffer does not hold together is an error like any other.
 */
static bool add_truth(struct rq_td *td)
{
	const struct td_cpu_data *d = NULL;
	struct td_buffer *b = NULL;
	struct td_cpu *nc, *c;
	int n = td->ncpus;

	for (int i = 0; i < td->ninst; i++)
		if (!strcmp(td->inst[i].name, RQ_TRUTH_BUFFER))
			b = &td->inst[i];
	if (!b || b == td->buf || !td->cpu)
		return true;
	if (!b->listed && !list_v6_instance(td, b))
		return false;
	if (b->latency)
		return true;
	for (int i = 0; i < b->ncpu; i++)
		if (b->cpus[i].cpu == 0 && b->cpus[i].size)
			d = &b->cpus[i];
	if (!d)
		return true;
	if ((b->page_size ? b->page_size : td->page_size) != td->bpage)
		return td_fail(td, "corrupt trace.dat: buffer \"%s\" has pages of %u bytes, the "
			       "CPUs' are %u", b->name, b->page_size, td->bpage);
	if (td->version >= 7) {
		bool compressed = false;

		if (!section_compressed(td, b, &compressed))
			return false;
		if (compressed != td->compressed)
			return td_fail(td, "corrupt trace.dat: buffer \"%s\" is %scompressed, the "
				       "CPUs' data is %s", b->name, td->compressed ? "not " : "",
				       td->compressed ? "compressed" : "not");
	}
	nc = lines_alloc(td->cpu, (size_t)n, (size_t)(n + 1), sizeof(*nc));
	if (!nc)
		return td_fail(td, "out of memory");
	td->cpu = nc;
	c = &nc[n];
	c->cpu = n;
	td->nstreams = n + 1;
	if (!cursor_init(td, c, d) || !streams_disjoint(td, n + 1))
		return false;
	return cpu_advance(td, c) || !td->failed;
}

/* ---- public ----------------------------------------------------------------------- */

static const unsigned char trace_magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

struct rq_td *rq_td_open(const char *path, bool (*wanted)(const char *system, const char *name),
			 char *err, size_t errlen)
{
	struct rq_td *td = calloc(1, sizeof(*td));
	uint8_t head[18];
	struct stat st;
	bool ok;

	if (!td) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	td->held = &td->held_own;
	td->wanted = wanted;
	td->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (td->fd < 0) {
		snprintf(err, errlen, "cannot open trace file: %s", strerror(errno));
		free(td);
		return NULL;
	}
	if (fstat(td->fd, &st)) {
		td_fail(td, "cannot stat trace file: %s", strerror(errno));
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		td_fail(td, "is a directory, not a trace.dat file");
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		td_fail(td, "not a regular file (a pipe or device cannot be replayed); copy the "
			"trace to a file first");
		goto fail;
	}
	if (st.st_size == 0) {
		td_fail(td, "empty file, not a trace.dat");
		goto fail;
	}
	td->file_size = (uint64_t)st.st_size;
	if (td->file_size < 12 || !td_pread(td, head, 12, 0, "the magic") ||
	    memcmp(head, trace_magic, sizeof(trace_magic))) {
		td->failed = false;
		td_fail(td, "not a trace.dat file (no trace-cmd magic at its start)");
		goto fail;
	}
	if (head[10] < '0' || head[10] > '9' || head[11] != '\0') {
		td_fail(td, "not a trace.dat file (no version after the magic)");
		goto fail;
	}
	td->version = head[10] - '0';
	if (td->version != 6 && td->version != 7) {
		td_fail(td, "trace.dat version %d is not supported (6 and 7 are)", td->version);
		goto fail;
	}
	if (!td_pread(td, head, 6, 12, "the file header"))
		goto fail;
	if (head[0] != (tep_is_bigendian() ? 1 : 0)) {
		td_fail(td, "unsupported trace.dat: a %s-endian file on a %s-endian host",
			head[0] ? "big" : "little", tep_is_bigendian() ? "big" : "little");
		goto fail;
	}
	td->long_size = head[1];
	if (td->long_size != 4 && td->long_size != 8) {
		td_fail(td, "corrupt trace.dat: a long of %d bytes", td->long_size);
		goto fail;
	}
	td->page_size = get32(head + 2);
	if (!page_size_ok(td->page_size)) {
		td_fail(td, "corrupt trace.dat: page size %u is impossible", td->page_size);
		goto fail;
	}
	td->tep = tep_alloc();
	if (!td->tep) {
		td_fail(td, "out of memory");
		goto fail;
	}
	tep_set_file_bigendian(td->tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(td->tep, tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(td->tep, td->long_size);
	tep_set_page_size(td->tep, (int)td->page_size);
	ok = td->version == 6 ? read_v6(td, 18) : read_v7(td, 18);
	if (!ok)
		goto fail;
	if (!td->have_header) {
		td_fail(td, "corrupt trace.dat: no header page section");
		goto fail;
	}
	if (td->time_shift) {
		td_fail(td, "unsupported trace.dat: a guest trace with host time synchronisation "
			"(TIME_SHIFT option)");
		goto fail;
	}
	if (td->tsc_mult && td->tsc_shift > 32) {
		td_fail(td, "corrupt trace.dat: TSC2NSEC shift %u", td->tsc_shift);
		goto fail;
	}
	if (!pick_buffer(td) || !add_truth(td))
		goto fail;
	if (td->buf != &td->top) {
		/* the CPUSTAT options describe the top buffer */
		td->overrun = 0;
		td->ncpu_overrun = 0;
	}
	if (td->unfinished) {
		char esc[512];

		rq_escape_c(path, strlen(path), esc, sizeof(esc));
		rq_warn("%s: the recording was cut: rqpath did not finish writing it (it was "
			"killed, or ran out of memory); it holds what was written until then",
			esc);
	} else if (td->cut_full) {
		char esc[512];

		rq_escape_c(path, strlen(path), esc, sizeof(esc));
		rq_warn("%s: the recording was cut: the disk filled up while it was recorded; "
			"it holds what was written until then (events, truth records after "
			"the cut are missing)", esc);
	}
	return td;
fail:
	snprintf(err, errlen, "%s", td->err);
	rq_td_close(td);
	return NULL;
}

const char *rq_td_cut(const struct rq_td *td)
{
	return td->unfinished ? "unfinished" : td->cut_full ? "disk-full" : NULL;
}

void rq_td_close(struct rq_td *td)
{
	if (!td)
		return;
	stop_workers(td);
	free_cpus(td);
	free(td->top.cpus);
	for (int i = 0; i < td->ninst; i++)
		free(td->inst[i].cpus);
	free(td->inst);
	free(td->cpu_overrun);
	if (td->tep)
		tep_free(td->tep);
	ZSTD_freeDCtx(td->zctx);
	free(td->zbuf);
	if (td->fd >= 0)
		close(td->fd);
	free(td);
}

struct tep_handle *rq_td_tep(const struct rq_td *td) { return td->tep; }
int rq_td_version(const struct rq_td *td) { return td->version; }
int rq_td_cpus(const struct rq_td *td) { return td->ncpus; }
const char *rq_td_uname(const struct rq_td *td) { return td->uname; }
const char *rq_td_eas_event(const struct rq_td *td) { return td->eas_event; }

/*
 * The scheduler events of energy-aware kernels: Android's EAS (sched_energy_diff,
 * sched_overutilized, SchedTune's sched_tune_*, sched_boost_*) and the energy model's
 * vendor and LISA module events.  EAS runs where CPU capacities differ.
 */
bool rq_td_is_eas_event(const char *name)
{
	static const char *const names[] = {
		"sched_energy_diff", "sched_overutilized", "sched_compute_energy",
		"sched_find_best_target", "sched_boost_cpu", "sched_tune_config",
		"sched_feec_candidates", "sched_feec_rd_tasks_energy",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}
unsigned long long rq_td_stats_overrun(const struct rq_td *td) { return td->overrun; }

unsigned long long rq_td_stats_overrun_cpu(const struct rq_td *td, int cpu)
{
	return cpu >= 0 && cpu < td->ncpu_overrun ? td->cpu_overrun[cpu] : 0;
}
const char *rq_td_buffer(const struct rq_td *td) { return td->buf ? td->buf->name : ""; }
const char *rq_td_compression(const struct rq_td *td) { return comp_names[td->comp]; }
const char *rq_td_error(const struct rq_td *td) { return td->err; }

int rq_td_cpu_region(const struct rq_td *td, int cpu, uint64_t *off, uint64_t *size,
		     uint32_t *page_size, bool *compressed)
{
	if (cpu < 0 || cpu >= td->ncpus || !td->cpu[cpu].present)
		return -1;
	*off = td->cpu[cpu].off;
	*size = td->cpu[cpu].size;
	*page_size = td->bpage;
	*compressed = td->compressed;
	return 0;
}

/*
 * cpu_advance()'s common case, inline: the next event of the page is a small data
 * event that fits.  false (nothing changed) for everything else.
 */
static inline bool fast_advance(struct rq_td *td, struct td_cpu *c)
{
	uint32_t w, type, len, left;
	uint64_t ts;

	if (!c->in_page || c->commit - c->pos < 4)
		return false;
	left = c->commit - c->pos;
	w = get32(c->data + c->pos);
	type = w & 31;
	len = type * 4;
	if (type - 1 >= 28 || len > left - 4)
		return false;
	c->ts += w >> 5;
	ts = convert_ts(td, c->ts);
	c->rec.data = c->data + c->pos + 4;
	c->rec.size = len;
	/* a page's losses go with its first record, which cpu_advance() read: none here */
	c->rec.missed = 0;
	/* rec is still the record handed out before (a first one came from cpu_advance()) */
	c->rec.backwards = ts < c->rec.ts;
	c->rec.ts = ts;
	c->pos += 4 + len;
	c->has = true;
	return true;
}

/*
 * The CPUs are merged by the pump (pump.c), never here: this hands out one CPU's
 * records in file order.  open_buffer() read each CPU's first record already; after
 * that a CPU is advanced only when its next record is asked for, so the record handed
 * out before (which points into the CPU's buffer) stays valid until then.
 */
static int file_next(void *ctx, int cpu, const struct rq_raw **rec)
{
	struct rq_td *td = ctx;
	struct td_cpu *c;

	if (__builtin_expect(td->failed || (unsigned int)cpu >= (unsigned int)td->nstreams, 0))
		return td->failed ? -1 : 0;
	c = &td->cpu[cpu];
	if (!c->has && !fast_advance(td, c) && (!c->present || !cpu_advance(td, c)))
		return td->failed ? -1 : 0;
	*rec = &c->rec;
	c->has = false;
	/*
	 * This CPU's next record is read when the merge comes back to it, after a record of
	 * every other CPU's, on average: with many CPUs, too late for any hardware
	 * prefetcher following 256 streams.  Its lines, asked for now (into L2), are there
	 * by then.
	 */
	if (c->in_page) {
		__builtin_prefetch(c->data + c->pos, 0, 1);
		__builtin_prefetch(c->data + c->pos + 64, 0, 1);
		/* the last record of its page: the next page's header and first record */
		if (c->commit - c->pos < 128 && c->page < c->len)
			__builtin_prefetch(c->buf + c->page, 0, 1);
	}
	return 1;
}

static double file_progress(void *ctx)
{
	return rq_td_progress(ctx);
}

static const char *source_error(void *ctx)
{
	return rq_td_error(ctx);
}

static const struct rq_source_ops file_ops = {
	.next = file_next,
	.progress = file_progress,
	.error = source_error,
};

void rq_source_file(struct rq_source *src, struct rq_td *td)
{
	src->ops = &file_ops;
	src->ctx = td;
	src->ncpus = rq_td_cpus(td);
	src->nextra = td->nstreams - td->ncpus;
	src->tep = rq_td_tep(td);
}

double rq_td_progress(const struct rq_td *td)
{
	uint64_t done = 0;

	if (!td->total)
		return 1.0;
	for (int i = 0; i < td->nstreams; i++)
		done += td->cpu[i].done;
	return done >= td->total ? 1.0 : (double)done / (double)td->total;
}
