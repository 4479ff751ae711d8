// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_pages.c - structure-aware libFuzzer harness for the trace.dat reader: the input
 * is not a file but a list of edits to a valid trace.dat (a base, chosen by the first
 * byte): page headers (timestamps, commit sizes and the missed-events flags and count),
 * event headers (type_len, time deltas, the length words of big events, padding and
 * time extensions), whole pages copied over others, v7 chunk headers, the file cut
 * inside a page, bytes of the header and format texts.  Random bytes rarely get past
 * a zstd frame or a page header; these edits do, and reach the page walk.  The edited
 * file is replayed with 1 or 2 threads (second byte) into a fresh analysis and all
 * three reports are written to /dev/null.  Built by tests/fuzz/run.sh
 * (FUZZ_TARGET=pages); the bases are the files named in RQPATH_FUZZ_BASES (colon
 * separated).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "analysis.h"
#include "replay.h"
#include "report.h"
#include "tracedat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define MAX_BASES 8
#define MAX_UNITS 65536

struct base {
	uint8_t *buf;
	size_t len;
	uint32_t page;		/* ring-buffer page size */
	bool compressed;
	uint64_t first_data;	/* lowest CPU data offset: below it, headers and formats */
	int nunits;
	uint64_t unit[MAX_UNITS];	/* pages (uncompressed) or chunk headers (compressed) */
};

static struct base bases[MAX_BASES];
static int nbases;
static FILE *devnull;

static uint32_t get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t get64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* Read a base and find its pages (or chunks) with rqpath's own reader. */
static void load_base(const char *path)
{
	struct base *b = &bases[nbases];
	char err[512];
	struct rq_td *td = rq_td_open(path, NULL, err, sizeof(err));
	FILE *f;
	long n;

	if (!td)
		return;
	f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET))
		goto out;
	b->buf = malloc((size_t)n);
	if (!b->buf || fread(b->buf, 1, (size_t)n, f) != (size_t)n)
		goto out;
	b->len = (size_t)n;
	b->first_data = b->len;
	for (int cpu = 0; cpu < rq_td_cpus(td); cpu++) {
		uint64_t off, sz;

		if (rq_td_cpu_region(td, cpu, &off, &sz, &b->page, &b->compressed))
			continue;
		if (off < b->first_data)
			b->first_data = off;
		if (!b->compressed) {
			for (uint64_t p = off; p + b->page <= off + sz && b->nunits < MAX_UNITS;
			     p += b->page)
				b->unit[b->nunits++] = p;
		} else {
			uint32_t count = get32(b->buf + off);
			uint64_t p = off + 4;

			for (uint32_t i = 0; i < count && p + 8 <= b->len && b->nunits < MAX_UNITS;
			     i++) {
				b->unit[b->nunits++] = p;
				p += 8 + (uint64_t)get32(b->buf + p);
			}
		}
	}
	if (b->nunits)
		nbases++;
out:
	if (f)
		fclose(f);
	if (nbases <= (int)(b - bases)) {
		free(b->buf);
		memset(b, 0, sizeof(*b));
	}
	rq_td_close(td);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *list = getenv("RQPATH_FUZZ_BASES");
	char *copy, *tok, *save = NULL;

	devnull = fopen("/dev/null", "w");
	if (!list || !devnull) {
		fprintf(stderr, "fuzz_pages: set RQPATH_FUZZ_BASES=a.dat:b.dat\n");
		abort();
	}
	copy = strdup(list);
	for (tok = strtok_r(copy, ":", &save); tok && nbases < MAX_BASES;
	     tok = strtok_r(NULL, ":", &save))
		load_base(tok);
	free(copy);
	if (!nbases) {
		fprintf(stderr, "fuzz_pages: no usable base in RQPATH_FUZZ_BASES\n");
		abort();
	}
	return 0;
}

/* Apply one 8-byte edit; returns the new length of the file. */
static size_t edit(const struct base *b, uint8_t *f, size_t len, const uint8_t *e)
{
	unsigned op = e[0] % 9;
	uint64_t u = b->unit[(e[1] | e[2] << 8) % b->nunits];
	uint32_t pos = (uint32_t)(e[3] | e[4] << 8);
	uint32_t val = (uint32_t)(e[5] | e[6] << 8 | e[7] << 16);
	uint32_t commit;

	if (u + 16 > len)
		return len;
	commit = get32(f + u + 8) & ((1u << 27) - 1);
	switch (op) {
	case 0:	/* the commit size and its flags */
		if (!b->compressed)
			put64(f + u + 8, (val % (b->page + 256)) | (uint64_t)(e[0] >> 6) << 30);
		break;
	case 1:	/* the page timestamp: moved either way, or zero */
		if (!b->compressed) {
			int64_t by = (int32_t)(val << 8);

			put64(f + u, val ? get64(f + u) + (uint64_t)by : 0);
		}
		break;
	case 2:	/* an event header word (type_len, delta) inside the commit */
		if (!b->compressed && commit) {
			uint64_t at = u + 16 + ((pos % commit) & ~3u);

			if (at + 4 <= len)
				put32(f + at, val | (uint32_t)e[0] << 24);
		}
		break;
	case 3:	/* any aligned word of the page: lengths, extends, data */
		if (!b->compressed) {
			uint64_t at = u + ((pos % b->page) & ~3u);

			if (at + 4 <= len)
				put32(f + at, val * 4097u);
		}
		break;
	case 4:	/* missed events, the count stored after the data */
		if (!b->compressed && u + 16 + commit + 8 <= len) {
			put64(f + u + 8, commit | 3ull << 30);
			put64(f + u + 16 + commit, val);
		}
		break;
	case 5:	/* the file cut inside this page (or chunk) */
		if (u + (pos % (b->page + 8)) < len)
			return u + (pos % (b->page + 8));
		break;
	case 6:	/* another page copied over this one */
		if (!b->compressed) {
			uint64_t from = b->unit[val % b->nunits];

			if (from + b->page <= len && u + b->page <= len)
				memmove(f + u, f + from, b->page);
		}
		break;
	case 7:	/* a chunk header: compressed or uncompressed size */
		if (b->compressed)
			put32(f + u + (pos & 1) * 4, pos & 2 ? val : get32(f + u + (pos & 1) * 4) ^
								     (val & 0xff));
		break;
	default:	/* a byte of the headers and format texts */
		if (b->first_data) {
			uint64_t at = ((uint64_t)val * 65537u + pos) % b->first_data;

			f[at] ^= e[0] | 1;
		}
		break;
	}
	return len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct base *b;
	struct rq_analysis *an;
	char path[64], err[512];
	uint8_t *f;
	size_t len, done = 0;
	int fd;

	if (size < 2)
		return 0;
	b = &bases[data[0] % nbases];
	rq_replay_set_threads(data[1] & 1 ? 2 : 1);
	f = malloc(b->len);
	if (!f)
		return 0;
	memcpy(f, b->buf, b->len);
	len = b->len;
	for (size_t i = 2; i + 8 <= size; i += 8)
		len = edit(b, f, len, data + i);
	fd = memfd_create("fuzz.dat", MFD_CLOEXEC);
	if (fd < 0)
		abort();
	while (done < len) {
		ssize_t n = write(fd, f + done, len - done);

		if (n <= 0)
			abort();
		done += (size_t)n;
	}
	free(f);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	/* a small placements ring: the default one is megabytes, allocated per input */
	an = rq_analysis_new(&(struct rq_analysis_opts){ .recent_capacity = 256 });
	if (!an)
		abort();
	if (!rq_replay_file(path, an, 0, err, sizeof(err))) {
		rq_report_write(devnull, an, RQ_FMT_TEXT);
		rq_report_write(devnull, an, RQ_FMT_JSON);
		rq_report_write(devnull, an, RQ_FMT_CSV);
		fflush(devnull);
	}
	rq_analysis_free(an);
	close(fd);
	return 0;
}
