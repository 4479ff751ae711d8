// SPDX-License-Identifier: GPL-2.0
/*
 * reader_diff.c - rqpath's trace.dat reader (src/input/tracedat.c) against libtracecmd, the
 * oracle, record by record.
 *
 *   reader_diff FILE [ORACLE]
 *
 * FILE is read with rq_td_*; ORACLE (default: FILE; another file when FILE is a copy of
 * it that libtracecmd cannot read, e.g. recompressed with zlib) with libtracecmd's
 * per-CPU tracecmd_read_data(), the CPUs merged by timestamp the same way (equal
 * timestamps: lower CPU first).  Both streams must hold the same records in the same
 * order: timestamp, CPU, size, a hash of the record's bytes, the missed-events mark;
 * then every record is decoded with rqpath's decoder, each side with the formats its own
 * reader parsed, and the decoded fields are summed per event type (the field checksums
 * must be equal).  Prints one line; exit 0 when all agree, 1 on the first difference,
 * 2 when a reader cannot open its file.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd.h>

#include "decode.h"
#include "tracedat.h"

int tracecmd_cpus(struct tracecmd_input *handle);

struct side {
	uint64_t n, order_violations;
	uint64_t sum[RQ_EV__COUNT];
	uint64_t count[RQ_EV__COUNT];
	uint64_t last_ts;
};

static uint64_t fnv(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

/* The decoded fields of one event, summed into its type's checksum. */
static void account(struct side *s, struct rq_decoder *dec, struct tep_record *rec, int cpu)
{
	struct rq_event ev;
	uint64_t h;

	rq_decode(dec, rec, cpu, &ev);
	h = (uint64_t)ev.pid * 3 + (uint64_t)ev.pid2 * 5 + (uint64_t)ev.prio * 7 +
	    (uint64_t)ev.prio2 * 11 + (uint64_t)ev.cpu_a * 13 + (uint64_t)ev.cpu_b * 17 +
	    (uint64_t)ev.state * 19 + (uint64_t)ev.arg * 23 + (uint64_t)ev.common_pid * 29 +
	    (uint64_t)ev.flags * 31 + (uint64_t)ev.preempt_count * 37 +
	    fnv(ev.comm, strnlen(ev.comm, sizeof(ev.comm))) +
	    fnv(ev.comm2, strnlen(ev.comm2, sizeof(ev.comm2))) * 41 +
	    (ev.str ? fnv(ev.str, (size_t)ev.str_len) : 0) * 43 + ev.ts * 47;
	s->sum[ev.type] += h;
	s->count[ev.type]++;
	s->n++;
	if (ev.ts < s->last_ts)
		s->order_violations++;
	s->last_ts = ev.ts;
}

/* libtracecmd: the buffer rqpath would have read (top, or the first instance with data) */
struct lib {
	struct tracecmd_input *handle, *data;
	int ncpu;
	struct tep_record **next;
};

static bool lib_load(struct lib *l)
{
	bool any = false;

	l->ncpu = tracecmd_cpus(l->data);
	if (l->ncpu <= 0)
		return false;
	free(l->next);
	l->next = calloc((size_t)l->ncpu, sizeof(*l->next));
	for (int c = 0; l->next && c < l->ncpu; c++) {
		l->next[c] = tracecmd_read_data(l->data, c);
		any |= l->next[c] != NULL;
	}
	return any;
}

static int lib_open(struct lib *l, const char *path)
{
	tracecmd_set_loglevel(TEP_LOG_NONE);
	l->handle = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS |
				  TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!l->handle)
		return -1;
	l->data = l->handle;
	if (lib_load(l))
		return 0;
	for (int i = 0; i < tracecmd_buffer_instances(l->handle); i++) {
		struct tracecmd_input *in = tracecmd_buffer_instance_handle(l->handle, i);

		if (!in)
			continue;
		for (int c = 0; l->next && c < l->ncpu; c++)
			if (l->next[c])
				tracecmd_free_record(l->next[c]);
		l->data = in;
		if (lib_load(l))
			return 0;
	}
	return 0;
}

static int lib_pick(const struct lib *l)
{
	int best = -1;

	for (int c = 0; c < l->ncpu; c++)
		if (l->next[c] && (best < 0 || l->next[c]->ts < l->next[best]->ts))
			best = c;
	return best;
}

int main(int argc, char **argv)
{
	const char *file, *oracle;
	struct side ours = { 0 }, theirs = { 0 };
	struct rq_decoder *dec_ours, *dec_theirs;
	struct lib l = { 0 };
	struct rq_td *td;
	struct rq_source src;
	struct rq_pump *pump;
	char err[512];
	uint64_t backwards = 0, missed_marks = 0;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: reader_diff FILE [ORACLE]\n");
		return 2;
	}
	file = argv[1];
	oracle = argc > 2 ? argv[2] : argv[1];
	td = rq_td_open(file, rq_decode_wants, err, sizeof(err));
	if (!td) {
		printf("%s: rqpath's reader cannot open it: %s\n", file, err);
		return 2;
	}
	/* the CPUs merged by the pump, the one merge of rqpath, raw (no sinks) */
	rq_source_file(&src, td);
	pump = rq_pump_new(&src);
	if (!pump)
		return 2;
	if (lib_open(&l, oracle) || !l.next) {
		printf("%s: libtracecmd cannot open it\n", oracle);
		return 2;
	}
	dec_ours = rq_decoder_new(rq_td_tep(td));
	dec_theirs = rq_decoder_new(tracecmd_get_tep(l.handle));
	if (rq_td_cpus(td) != l.ncpu) {
		printf("%s: %d CPUs, libtracecmd %d\n", file, rq_td_cpus(td), l.ncpu);
		return 1;
	}
	for (uint64_t i = 0;; i++) {
		struct rq_raw r = { 0 };
		struct tep_record mine = { 0 };
		int got = rq_pump_next_raw(pump, &r);
		int cpu = lib_pick(&l);
		struct tep_record *t = cpu >= 0 ? l.next[cpu] : NULL;

		if (got < 0) {
			printf("%s: record %" PRIu64 ": rqpath's reader fails: %s\n", file, i,
			       rq_td_error(td));
			return 1;
		}
		if (!got || !t) {
			if (got || t) {
				printf("%s: record %" PRIu64 ": %s ends first\n", file, i,
				       got ? "libtracecmd" : "rqpath's reader");
				return 1;
			}
			break;
		}
		if (r.ts != t->ts || r.cpu != cpu || (int)r.size != t->size ||
		    fnv(r.data, r.size) != fnv(t->data, (size_t)t->size)) {
			printf("%s: record %" PRIu64 " differs: ts %" PRIu64 "/%llu cpu %d/%d "
			       "size %u/%d\n", file, i, r.ts, t->ts, r.cpu, cpu, r.size, t->size);
			return 1;
		}
		if ((r.missed != 0) != (t->missed_events != 0) ||
		    (r.missed > 0 && r.missed != t->missed_events)) {
			printf("%s: record %" PRIu64 " (cpu %d): missed events %lld, libtracecmd "
			       "%lld\n", file, i, cpu, r.missed, (long long)t->missed_events);
			return 1;
		}
		missed_marks += r.missed != 0;
		backwards += r.backwards;
		mine.ts = r.ts;
		mine.cpu = r.cpu;
		mine.data = (void *)r.data;
		mine.size = (int)r.size;
		account(&ours, dec_ours, &mine, r.cpu);
		account(&theirs, dec_theirs, t, cpu);
		tracecmd_free_record(t);
		l.next[cpu] = tracecmd_read_data(l.data, cpu);
	}
	for (int e = 0; e < RQ_EV__COUNT; e++)
		if (ours.sum[e] != theirs.sum[e] || ours.count[e] != theirs.count[e]) {
			printf("%s: %s: %" PRIu64 " events, field checksum %016" PRIx64 "; "
			       "libtracecmd's formats: %" PRIu64 ", %016" PRIx64 "\n", file,
			       rq_event_name(e), ours.count[e], ours.sum[e], theirs.count[e],
			       theirs.sum[e]);
			return 1;
		}
	{
		uint64_t all = 0;

		for (int e = 0; e < RQ_EV__COUNT; e++)
			all = all * 31 + ours.sum[e];
		printf("%s: %" PRIu64 " records on %d CPUs (buffer \"%s\", %s), %" PRIu64
		       " analysed, field checksum %016" PRIx64 ", %" PRIu64 " missed-event "
		       "marks, %" PRIu64 " out of order, %" PRIu64 " backwards: same as "
		       "libtracecmd\n", file, ours.n, rq_td_cpus(td), rq_td_buffer(td),
		       rq_td_compression(td), ours.n - ours.count[RQ_EV_OTHER], all, missed_marks,
		       ours.order_violations, backwards);
	}
	rq_decoder_free(dec_ours);
	rq_decoder_free(dec_theirs);
	rq_pump_free(pump);
	rq_td_close(td);
	return 0;
}
