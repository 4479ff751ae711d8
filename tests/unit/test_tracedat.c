// SPDX-License-Identifier: GPL-2.0
/*
 * test_tracedat.c - a trace.dat written by tracedat_write.c and read back by tracedat.c,
 * versions 6 and 7: the headers, the formats, and every record with its CPU, timestamp
 * (deltas and time extensions), bytes and lost-event marks; then decoded by decode.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <event-parse.h>

#include "decode.h"
#include "tdhdr.h"
#include "tracedat.h"
#include "tracedat_write.h"

static char wakeup_new_fmt[] =
	"name: sched_wakeup_new\nID: 317\nformat:\n" TDHDR_COMMON
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"comm=%s pid=%d\", REC->comm, REC->pid\n";

static char exit_fmt[] =
	"name: sched_process_exit\nID: 320\nformat:\n" TDHDR_COMMON
	"\tfield:__data_loc char[] comm;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:16;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"pid=%d\", REC->pid\n";

struct page {
	unsigned char b[TDHDR_PAGE];
	uint32_t pos;		/* from the start of the data */
};

static void page_start(struct page *p, uint64_t ts)
{
	memset(p->b, 0, sizeof(p->b));
	memcpy(p->b, &ts, 8);
	p->pos = 0;
}

static void page_word(struct page *p, uint32_t w)
{
	memcpy(p->b + 16 + p->pos, &w, 4);
	p->pos += 4;
}

/* One event of len bytes (a multiple of 4, <= 112) after delta ns. */
static void page_event(struct page *p, uint32_t delta, const void *data, uint32_t len)
{
	if (delta >= (1u << 27)) {
		page_word(p, 30 | ((delta & ((1u << 27) - 1)) << 5));	/* time extend */
		page_word(p, delta >> 27);
		delta = 0;
	}
	page_word(p, (len / 4) | (delta << 5));
	memcpy(p->b + 16 + p->pos, data, len);
	p->pos += len;
}

static void page_end(struct page *p, uint64_t flags)
{
	uint64_t commit = p->pos | flags;

	memcpy(p->b + 8, &commit, 8);
}

static uint32_t wakeup_new(unsigned char *r, int parent, int child, int target)
{
	memset(r, 0, 36);
	r[0] = 317 & 0xff;
	r[1] = 317 >> 8;
	r[2] = 0x01;
	memcpy(r + 4, &parent, 4);
	snprintf((char *)r + 8, 16, "child-%d", child);
	memcpy(r + 24, &child, 4);
	memcpy(r + 28, &(int){ 120 }, 4);
	memcpy(r + 32, &target, 4);
	return 36;
}

static uint32_t proc_exit(unsigned char *r, int pid)
{
	uint32_t loc = (8u << 16) | 20;

	memset(r, 0, 28);
	r[0] = 320 & 0xff;
	r[1] = 320 >> 8;
	memcpy(r + 4, &pid, 4);
	memcpy(r + 8, &loc, 4);
	memcpy(r + 12, &pid, 4);
	memcpy(r + 16, &(int){ 139 }, 4);
	memcpy(r + 20, "exiting", 8);
	return 28;
}

/* The expected records, in the order a reader must return them. */
struct want {
	uint64_t ts;
	int cpu;
	int type;		/* 317 or 320 */
	int pid;
	long long missed;
};

static void round_trip(int version)
{
	static const struct want want[] = {
		{ 1000, 0, 317, 10, 0 },
		{ 1500, 1, 320, 20, 0 },
		{ 1700, 0, 320, 11, 0 },
		{ 1700, 1, 317, 21, 0 },	/* equal timestamps: the lower CPU first */
		{ 1000 + 700 + (3ull << 27) + 5, 0, 317, 12, 0 },	/* after a time extend */
		{ 900000000, 1, 320, 22, -1 },	/* next page, events lost before it */
		{ 900000050, 1, 317, 23, 0 },
	};
	struct rq_tdw_format events[2] = {
		{ "sched", "sched_wakeup_new", wakeup_new_fmt, sizeof(wakeup_new_fmt) - 1 },
		{ "sched", "sched_process_exit", exit_fmt, sizeof(exit_fmt) - 1 },
	};
	char *stats[2] = { "entries: 3\noverrun: 4\n", "entries: 4\noverrun: 0\n" };
	struct rq_tdw_meta m = {
		TDHDR_META_HEADERS,
		.events = events, .nr_events = 2,
		.uname = "Linux test 6.18.0-test #1 SMP x86_64",
		.trace_clock = "local global [mono] x86-tsc", .clock_name = "mono",
		.cpustats = stats, .version = "test",
	};
	unsigned char r[64];
	struct page p;
	struct rq_tdw *w;
	struct rq_td *td;
	struct rq_source src;
	struct rq_pump *pump;
	struct rq_raw rec;
	struct rq_decoder *d;
	struct rq_event ev;
	char err[256], path[64];
	uint64_t bytes;
	size_t n = 0;
	int fd, ret;

	w = rq_tdw_open_anon(version, 2, TDHDR_PAGE, err, sizeof(err));
	if (!w)
		fail_msg("rq_tdw_open_anon: %s", err);
	/* CPU 0: one page, deltas and a time extend */
	page_start(&p, 1000);
	page_event(&p, 0, r, wakeup_new(r, 1, 10, 1));
	page_event(&p, 700, r, proc_exit(r, 11));
	page_event(&p, (3u << 27) + 5, r, wakeup_new(r, 1, 12, 0));
	page_end(&p, 0);
	assert_int_equal(rq_tdw_add_page(w, 0, p.b, TDHDR_PAGE), 0);
	/* CPU 1: two pages, the second after lost events (number unknown) */
	page_start(&p, 1500);
	page_event(&p, 0, r, proc_exit(r, 20));
	page_event(&p, 200, r, wakeup_new(r, 2, 21, 0));
	page_end(&p, 0);
	assert_int_equal(rq_tdw_add_page(w, 1, p.b, TDHDR_PAGE), 0);
	page_start(&p, 900000000);
	page_event(&p, 0, r, proc_exit(r, 22));
	page_event(&p, 50, r, wakeup_new(r, 2, 23, 1));
	page_end(&p, 1ull << 31);
	assert_int_equal(rq_tdw_add_page(w, 1, p.b, TDHDR_PAGE), 0);
	assert_int_equal(rq_tdw_pages(w), 3);
	ret = rq_tdw_finish(w, &m, &bytes, err, sizeof(err));
	if (ret)
		fail_msg("rq_tdw_finish: %d %s", ret, err);
	fd = rq_tdw_take_fd(w);
	rq_tdw_close(w);
	assert_true(fd >= 0);
	assert_true(bytes > 3 * TDHDR_PAGE);

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	td = rq_td_open(path, rq_decode_wants, err, sizeof(err));
	if (!td)
		fail_msg("rq_td_open (v%d): %s", version, err);
	assert_int_equal(rq_td_version(td), version);
	assert_int_equal(rq_td_cpus(td), 2);
	assert_string_equal(rq_td_uname(td), m.uname);
	assert_int_equal(rq_td_stats_overrun(td), 4);
	assert_string_equal(rq_td_compression(td), "none");
	rq_source_file(&src, td);
	pump = rq_pump_new(&src);
	assert_non_null(pump);
	d = rq_decoder_new(rq_td_tep(td));
	assert_non_null(d);
	while ((ret = rq_pump_next_raw(pump, &rec)) == 1) {
		struct tep_record tr = { .ts = rec.ts, .data = (void *)rec.data,
					 .size = (int)rec.size };
		uint16_t type;

		if (n >= sizeof(want) / sizeof(want[0]))
			fail_msg("more records than written");
		memcpy(&type, rec.data, 2);
		if (rec.ts != want[n].ts || rec.cpu != want[n].cpu || type != want[n].type ||
		    rec.missed != want[n].missed)
			fail_msg("v%d record %zu: ts %llu cpu %d type %u missed %lld; want ts %llu "
				 "cpu %d type %d missed %lld", version, n,
				 (unsigned long long)rec.ts, rec.cpu, type, rec.missed,
				 (unsigned long long)want[n].ts, want[n].cpu, want[n].type,
				 want[n].missed);
		assert_int_equal(rec.size, type == 317 ? 36 : 28);
		assert_false(rec.backwards);
		rq_decode(d, &tr, rec.cpu, &ev);
		assert_int_equal(ev.pid, want[n].pid);
		if (type == 317) {
			char comm[16];

			snprintf(comm, sizeof(comm), "child-%d", want[n].pid);
			assert_int_equal(ev.type, RQ_EV_WAKEUP_NEW);
			assert_string_equal(ev.comm, comm);
			assert_int_equal(ev.prio, 120);
		} else {
			assert_int_equal(ev.type, RQ_EV_EXIT);
			assert_string_equal(ev.comm, "exiting");
			assert_int_equal(ev.prio, 139);
		}
		n++;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(n, sizeof(want) / sizeof(want[0]));
	rq_decoder_free(d);
	rq_pump_free(pump);
	rq_td_close(td);
	close(fd);
}

static void version_6(void **state)
{
	round_trip(6);
}

static void version_7(void **state)
{
	round_trip(7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(version_6),
		cmocka_unit_test(version_7),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
