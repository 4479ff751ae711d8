// SPDX-License-Identifier: GPL-2.0
/*
 * test_truth.c - the rqpath:truth event (issue 21): a literal format text and records
 * made by hand, in both byte orders, decoded into RQ_EV_TRUTH (every field, the arrays
 * bounded by what the record holds, no runner shown); rq_truth_format()'s text and
 * rq_truth_encode()'s bytes against the literal; and a trace.dat with a truth buffer
 * (v6 and v7) read back through the reader and the pump, merged by time with a CPU.
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
#include "pump.h"
#include "tdhdr.h"
#include "tracedat.h"
#include "tracedat_write.h"
#include "truth_fmt.h"

/*
 * The layout truth_fmt.h describes, written out by hand: as rqpath wrote it before the
 * LLC-sized records (no ids: entry i is CPU i), and with the ids array after cpus.
 */
#define TRUTH_FMT_IDS "\tfield:__data_loc u16[] ids;\toffset:32;\tsize:4;\tsigned:0;\n"
#define TRUTH_FMT_START \
	"name: truth\nID: 900\nformat:\n" TDHDR_COMMON \
	"\tfield:u32 pid;\toffset:8;\tsize:4;\tsigned:0;\n" \
	"\tfield:u16 nr_cpus_allowed;\toffset:12;\tsize:2;\tsigned:0;\n" \
	"\tfield:u16 task_cpu;\toffset:14;\tsize:2;\tsigned:0;\n" \
	"\tfield:u16 cpu;\toffset:16;\tsize:2;\tsigned:0;\n" \
	"\tfield:u16 nr_cpus;\toffset:18;\tsize:2;\tsigned:0;\n" \
	"\tfield:u8 policy;\toffset:20;\tsize:1;\tsigned:0;\n" \
	"\tfield:u8 point;\toffset:21;\tsize:1;\tsigned:0;\n" \
	"\tfield:u8 flags;\toffset:22;\tsize:1;\tsigned:0;\n" \
	"\tfield:u8 pad;\toffset:23;\tsize:1;\tsigned:0;\n" \
	"\tfield:__data_loc u64[] mask;\toffset:24;\tsize:4;\tsigned:0;\n" \
	"\tfield:__data_loc u8[] cpus;\toffset:28;\tsize:4;\tsigned:0;\n"
#define TRUTH_FMT_END "\nprint fmt: \"pid=%u\", REC->pid\n"
static const char truth_fmt[] = TRUTH_FMT_START TRUTH_FMT_END;
static const char truth_fmt_ids[] = TRUTH_FMT_START TRUTH_FMT_IDS TRUTH_FMT_END;
/* the CPU of entry i in the records with ids (make_record()): not i */
#define ID_OF(i) (40 - 3 * (i))

static bool host_big(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 0;
}

static void put(bool big, unsigned char *p, int n, unsigned long long v)
{
	for (int i = 0; i < n; i++)
		p[big ? n - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

/*
 * A waking of pid 4242 (SCHED_IDLE, 3 CPUs allowed, last on CPU 1, on a runqueue and
 * delayed) on CPU 2, with 3 CPUs' runqueues; the arrays where the data_locs say.
 * Returns the record's length; ncpu_field is what nr_cpus claims; ids: the layout with
 * the ids array (entry i of CPU ID_OF(i)).
 */
static size_t make_record(bool big, unsigned char *r, int id, int ncpu_field, int ncpu_data,
			  bool ids)
{
	size_t at = ids ? 36 : 32;

	memset(r, 0, 256);
	put(big, r, 2, (unsigned int)id);
	put(big, r + 4, 4, 777);	/* common_pid: not a runner */
	put(big, r + 8, 4, 4242);
	put(big, r + 12, 2, 3);		/* nr_cpus_allowed */
	put(big, r + 14, 2, 1);		/* task_cpu */
	put(big, r + 16, 2, 2);		/* cpu */
	put(big, r + 18, 2, (unsigned int)ncpu_field);
	r[20] = 5;			/* policy */
	r[21] = RQ_TRUTH_WAKING;
	r[22] = RQ_TRUTH_ON_RQ | RQ_TRUTH_DELAYED;
	put(big, r + 24, 4, (unsigned int)(at | 8u << 16));
	put(big, r + 28, 4, (unsigned int)((at + 8) | (unsigned int)(8 * ncpu_data) << 16));
	put(big, r + at, 8, 0x0000000000000007ull);
	at += 8;
	for (int c = 0; c < ncpu_data; c++, at += 8) {
		put(big, r + at, 4, 100u + (unsigned int)c);	/* curr_pid */
		/* bit 0: known, bit 1: a wakeup pending */
		r[at + 4] = (unsigned char)((c == 1 ? 0 : 1) | (c == 0 ? 2 : 0));
		r[at + 5] = (unsigned char)(c == 2 ? 5 : 0);	/* curr_policy */
		r[at + 6] = (unsigned char)(c + 1);		/* nr_running */
		r[at + 7] = (unsigned char)(c == 2 ? 3 : 0);	/* h_nr_idle */
	}
	if (ids) {
		put(big, r + 32, 4, (unsigned int)(at | (unsigned int)(2 * ncpu_data) << 16));
		for (int c = 0; c < ncpu_data; c++, at += 2)
			put(big, r + at, 2, (unsigned int)ID_OF(c));
	}
	return at;
}

static struct tep_handle *tep_with(const char *fmt, size_t len, bool big)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_event *ev = NULL;

	assert_non_null(tep);
	tep_set_file_bigendian(tep, big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, host_big() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, 8);
	assert_int_equal(tep_parse_format(tep, &ev, fmt, len, RQ_TRUTH_SYSTEM), 0);
	assert_non_null(ev);
	return tep;
}

static void check_full(const struct rq_event *ev, int ncpu, bool ids)
{
	const struct rq_truth_rec *t = ev->truth;

	assert_int_equal(ev->type, RQ_EV_TRUTH);
	assert_non_null(t);
	assert_int_equal(ev->ts, 123456789);
	assert_int_equal(t->ts, 123456789);
	assert_int_equal(ev->cpu, 2);
	assert_int_equal(ev->pid, 4242);
	assert_int_equal(ev->common_pid, -1);	/* shows nobody running */
	assert_false(rq_event_shows_runner(ev));
	assert_int_equal(t->pid, 4242);
	assert_int_equal(t->policy, 5);
	assert_int_equal(t->nr_cpus_allowed, 3);
	assert_int_equal(t->task_cpu, 1);
	assert_int_equal(t->cpu, 2);
	assert_int_equal(t->point, RQ_TRUTH_WAKING);
	assert_int_equal(t->flags, RQ_TRUTH_ON_RQ | RQ_TRUTH_DELAYED);
	assert_int_equal(t->mask[0], 7);
	assert_int_equal(t->mask[1], 0);
	assert_int_equal(t->nr_cpus, ncpu);
	for (int c = 0; c < ncpu; c++) {
		assert_int_equal(t->cpus[c].curr_pid, 100 + c);
		assert_int_equal(t->cpus[c].known, c == 1 ? 0 : 1);
		assert_int_equal(t->cpus[c].curr_policy, c == 2 ? 5 : 0);
		assert_int_equal(t->cpus[c].nr_running, c + 1);
		assert_int_equal(t->cpus[c].h_nr_idle, c == 2 ? 3 : 0);
		assert_int_equal(t->cpus[c].ttwu_pending, c == 0);
		assert_int_equal(t->cpus[c].cpu, ids ? ID_OF(c) : c);
	}
	assert_int_equal(t->mask_words, 1);
	for (int c = ncpu; c < RQ_TRUTH_MAX_CPUS; c++)
		assert_int_equal(t->cpus[c].nr_running, 0);
}

static void decode_literal(bool big, bool ids)
{
	struct tep_handle *tep = ids ? tep_with(truth_fmt_ids, sizeof(truth_fmt_ids) - 1, big) :
				 tep_with(truth_fmt, sizeof(truth_fmt) - 1, big);
	struct rq_decoder *d = rq_decoder_new(tep);
	unsigned char r[256];
	struct rq_event ev;
	size_t n;

	assert_non_null(d);
	assert_true(rq_decoder_available(d)[RQ_EV_TRUTH]);
	n = make_record(big, r, 900, 3, 3, ids);
	rq_decode_raw(d, r, (uint32_t)n, 123456789, 5, &ev);
	check_full(&ev, 3, ids);

	/* nr_cpus says 9, the array holds 2: only those */
	n = make_record(big, r, 900, 9, 2, ids);
	rq_decode_raw(d, r, (uint32_t)n, 123456789, 5, &ev);
	check_full(&ev, 2, ids);

	if (ids) {
		/* the ids array cut short: the entry without its id is of no CPU, unknown */
		n = make_record(big, r, 900, 3, 3, ids);
		put(big, r + 32, 4, (unsigned int)((n - 6) | 4u << 16));
		rq_decode_raw(d, r, (uint32_t)n, 123456789, 5, &ev);
		assert_int_equal(ev.truth->nr_cpus, 3);
		assert_int_equal(ev.truth->cpus[1].cpu, ID_OF(1));
		assert_int_equal(ev.truth->cpus[2].cpu, UINT16_MAX);
		assert_int_equal(ev.truth->cpus[2].known, RQ_TRUTH_RQ_UNKNOWN);
	}

	/* the record is cut inside the cpus array: its data_loc runs past the end */
	n = make_record(big, r, 900, 3, 3, false);
	rq_decode_raw(d, r, (uint32_t)n - 1, 123456789, 5, &ev);
	assert_int_equal(ev.type, RQ_EV_TRUTH);
	assert_int_equal(ev.truth->nr_cpus, 0);
	assert_int_equal(ev.truth->mask[0], 7);

	/* a data_loc pointing far outside the record */
	put(big, r + 24, 4, 0xfff0u | 0xffffu << 16);
	rq_decode_raw(d, r, (uint32_t)n, 123456789, 5, &ev);
	assert_int_equal(ev.truth->mask[0], 0);

	/* shorter than its fixed part: zeros, no read past it */
	rq_decode_raw(d, r, 14, 1, 0, &ev);
	assert_int_equal(ev.type, RQ_EV_TRUTH);
	assert_int_equal(ev.truth->pid, 4242);
	assert_int_equal(ev.truth->nr_cpus_allowed, 3);
	assert_int_equal(ev.truth->task_cpu, 0);
	assert_int_equal(ev.truth->nr_cpus, 0);
	rq_decoder_free(d);
	tep_free(tep);
}

static void host_order(void **state)
{
	decode_literal(host_big(), false);
	decode_literal(host_big(), true);
}

static void swapped_order(void **state)
{
	decode_literal(!host_big(), false);
	decode_literal(!host_big(), true);
}

/* What the recorder writes: the same fields at the same offsets, the same decoding. */
static void format_and_encode(void **state)
{
	static const char kernel[] = "name: sched_waking\nID: 375\nformat:\n" TDHDR_COMMON
		"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n";
	struct tep_handle *tep, *lit;
	struct tep_event *e, *l;
	struct rq_decoder *d;
	struct rq_truth_rec rec;
	struct rq_event ev, ev2;
	unsigned char r[256], buf[RQ_TRUTH_EVENT_MAX];
	size_t len, n;
	uint32_t m;
	char *fmt;
	int hdr;

	fmt = rq_truth_format(901, kernel, &len, &hdr);
	assert_non_null(fmt);
	assert_int_equal(hdr, 8);
	tep = tep_with(fmt, len, host_big());
	lit = tep_with(truth_fmt_ids, sizeof(truth_fmt_ids) - 1, host_big());
	e = tep_find_event_by_name(tep, RQ_TRUTH_SYSTEM, RQ_TRUTH_EVENT);
	l = tep_find_event_by_name(lit, RQ_TRUTH_SYSTEM, RQ_TRUTH_EVENT);
	assert_non_null(e);
	assert_non_null(l);
	assert_int_equal(e->id, 901);
	assert_int_equal(e->format.nr_fields, l->format.nr_fields);
	for (struct tep_format_field *f = l->format.fields; f; f = f->next) {
		struct tep_format_field *g = tep_find_field(e, f->name);

		assert_non_null(g);
		assert_int_equal(g->offset, f->offset);
		assert_int_equal(g->size, f->size);
		/* the print fmt's symbols and flags do not change the layout */
		assert_int_equal(g->flags & ~(TEP_FIELD_IS_FLAG | TEP_FIELD_IS_SYMBOLIC),
				 f->flags & ~(TEP_FIELD_IS_FLAG | TEP_FIELD_IS_SYMBOLIC));
	}
	/* the record the literal's decoder reads, encoded, reads the same */
	d = rq_decoder_new(lit);
	n = make_record(host_big(), r, 900, 3, 3, true);
	rq_decode_raw(d, r, (uint32_t)n, 123456789, 0, &ev);
	rec = *ev.truth;
	m = rq_truth_encode(&rec, 900, 8, 3, buf);
	assert_int_equal(m, n);
	rq_decode_raw(d, buf, m, 123456789, 0, &ev2);
	check_full(&ev2, 3, true);
	rq_decoder_free(d);
	tep_free(tep);
	tep_free(lit);
	free(fmt);
}

struct seen {
	int n, truth;
	uint64_t ts[64];
	int pid[64];
	enum rq_event_type type[64];
	int nr_cpus[64];
};

static void sink(void *data, const struct rq_event *ev)
{
	struct seen *s = data;

	if (s->n >= 64)
		return;
	s->ts[s->n] = ev->ts;
	s->pid[s->n] = ev->pid;
	s->type[s->n] = ev->type;
	s->nr_cpus[s->n] = ev->truth ? ev->truth->nr_cpus : -1;
	s->truth += ev->type == RQ_EV_TRUTH;
	s->n++;
}

static void file_round_trip(int version, bool worker)
{
	struct rq_tdw_format events[2];
	struct rq_tdw_meta m = {
		TDHDR_META_HEADERS,
		.events = events, .nr_events = 2, .uname = "Linux test 6.18.0 #1 x86_64",
		.trace_clock = "[mono]", .clock_name = "mono", .version = "test",
	};
	/* truth at 500, 1500 (between the CPU's), then 2^27 ns and more later */
	const uint64_t tts[] = { 500, 1500, 1500 + (5ull << 27) + 3, 1500 + (5ull << 27) + 9 };
	struct rq_truth_rec rec = { 0 };
	unsigned char page[TDHDR_PAGE], buf[RQ_TRUTH_EVENT_MAX];
	struct seen s = { 0 };
	struct rq_source src;
	struct rq_pump *pump;
	struct rq_tdw *w;
	struct rq_td *td;
	char err[256], path[64];
	uint64_t bytes;
	size_t len;
	int fd, hdr;

	assert_int_equal(tdhdr_truth_events(events, &hdr), 0);
	w = rq_tdw_open_anon(version, 1, TDHDR_PAGE, err, sizeof(err));
	assert_non_null(w);
	assert_int_equal(rq_tdw_add_instance(w, RQ_TRUTH_BUFFER), 0);
	assert_int_equal(rq_tdw_begin(w, &m, err, sizeof(err)), 0);
	tdhdr_exit_page(page, 1000, 3);	/* 1000, 2000, 3000 */
	assert_int_equal(rq_tdw_add_page(w, 0, page, TDHDR_PAGE), 0);
	for (size_t i = 0; i < sizeof(tts) / sizeof(tts[0]); i++) {
		rec.pid = 500 + (uint32_t)i;
		rec.point = RQ_TRUTH_WAKING;
		/* 2 CPUs: 56 bytes (a 4-byte header); 40: 360 bytes (type_len 0) */
		rec.nr_cpus = i == 3 ? 40 : 2;
		rec.cpus[1].nr_running = 7;
		len = rq_truth_encode(&rec, 321, hdr, 2, buf);
		assert_int_equal(rq_tdw_add_record(w, tts[i], buf, (uint32_t)len), 0);
	}
	assert_int_equal(rq_tdw_records(w), 4);
	assert_int_equal(rq_tdw_finish(w, &m, &bytes, err, sizeof(err)), 0);
	fd = rq_tdw_take_fd(w);
	rq_tdw_close(w);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	td = rq_td_open(path, rq_decode_wants, err, sizeof(err));
	if (!td)
		fail_msg("v%d: %s", version, err);
	assert_int_equal(rq_td_cpus(td), 1);
	rq_source_file(&src, td);
	assert_int_equal(src.nextra, 1);
	pump = rq_pump_new(&src);
	assert_non_null(pump);
	assert_int_equal(rq_pump_cpus(pump), 1);
	assert_int_equal(rq_pump_add_sink(pump, sink, &s), 0);
	if (worker)
		assert_int_equal(rq_pump_start_worker(pump), 0);
	assert_int_equal(rq_pump_run(pump, NULL), RQ_PUMP_END);
	assert_int_equal(s.n, 7);
	assert_int_equal(s.truth, 4);
	{
		const uint64_t want_ts[] = { 500, 1000, 1500, 2000, 3000, tts[2], tts[3] };
		const int want_pid[] = { 500, 10, 501, 11, 12, 502, 503 };

		for (int i = 0; i < 7; i++) {
			assert_int_equal(s.ts[i], want_ts[i]);
			assert_int_equal(s.pid[i], want_pid[i]);
			assert_int_equal(s.type[i], want_pid[i] >= 500 ? RQ_EV_TRUTH : RQ_EV_EXIT);
		}
		assert_int_equal(s.nr_cpus[6], 40);
		assert_int_equal(s.nr_cpus[0], 2);
	}
	rq_pump_free(pump);
	rq_td_close(td);
	close(fd);
	free(events[1].buf);
}

static void file_v6(void **state)
{
	file_round_trip(6, false);
}

static void file_v7(void **state)
{
	file_round_trip(7, false);
}

static void file_worker(void **state)
{
	file_round_trip(6, true);
	file_round_trip(7, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(host_order),
		cmocka_unit_test(swapped_order),
		cmocka_unit_test(format_and_encode),
		cmocka_unit_test(file_v6),
		cmocka_unit_test(file_v7),
		cmocka_unit_test(file_worker),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
