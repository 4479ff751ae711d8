// SPDX-License-Identifier: GPL-2.0
/*
 * bench_floor.c - the floor libtracecmd allows for replaying a trace.dat: open the
 * file, walk every record in timestamp order and read one field of each sched event
 * through a cached tep_format_field.  Nothing else.  rqpath audit cannot be faster
 * than this with the same library; tests/bench/run.sh compares the two.
 *
 * usage: bench_floor [--iterate|--own] FILE.dat
 *   default    per-CPU tracecmd_read_data() merged by timestamp (rqpath's way until it
 *              had its own reader)
 *   --iterate  tracecmd_iterate_events() (the library's own merge, callback per record)
 *   --own      rqpath's own reader alone (src/input/tracedat.c: the headers and the formats
 *              rqpath decodes, the pages walked by hand, zstd/zlib, the CPUs merged),
 *              the same field read with a plain load at its format's offset: the
 *              floor of `rqpath audit` without decoder and engine.  Its "sched"
 *              counts only the sched events rqpath decodes.
 * prints: "records N sched M sum S" (S: a checksum of the field, so nothing is elided)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd.h>

#include "decode.h"
#include "tracedat.h"

#define MAX_IDS 65536

struct floor {
	struct tep_handle *tep;
	/* per event id: 0 unknown, 1 not sched, 2 sched (field cached in pid[]) */
	unsigned char kind[MAX_IDS];
	struct tep_format_field *pid[MAX_IDS];
	unsigned long long records, sched, sum;
};

static void classify(struct floor *f, int id)
{
	struct tep_event *ev = tep_find_event(f->tep, id);

	f->kind[id] = 1;
	if (!ev || strcmp(ev->system, "sched"))
		return;
	/* "pid" where the event has it (wakeups, migrate, exit...), else common_pid */
	f->pid[id] = tep_find_field(ev, "pid");
	if (!f->pid[id])
		f->pid[id] = tep_find_common_field(ev, "common_pid");
	if (f->pid[id])
		f->kind[id] = 2;
}

static inline void one(struct floor *f, struct tep_record *rec)
{
	int id = tep_data_type(f->tep, rec);
	unsigned long long v;

	f->records++;
	if (id < 0 || id >= MAX_IDS)
		return;
	if (!f->kind[id])
		classify(f, id);
	if (f->kind[id] != 2)
		return;
	f->sched++;
	if (!tep_read_number_field(f->pid[id], rec->data, &v))
		f->sum += v;
}

/*
 * --own: the same work as one() with the field's offset and size taken from its format
 * once and the value loaded directly, as a hand-written reader does (libtraceevent's
 * tep_read_number_field() costs more than the page walk around it).
 */
static inline void one_direct(struct floor *f, const unsigned char *data, unsigned int size)
{
	const struct tep_format_field *fld;
	unsigned short id;
	unsigned int v4;

	f->records++;
	if (size < 8)
		return;
	memcpy(&id, data, 2);
	if (!f->kind[id])
		classify(f, id);
	if (f->kind[id] != 2)
		return;
	f->sched++;
	fld = f->pid[id];
	if (fld->size == 4 && (unsigned int)fld->offset + 4 <= size) {
		memcpy(&v4, data + fld->offset, 4);
		f->sum += v4;
	}
}

static int iterate_cb(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	one(data, rec);
	return 0;
}

int main(int argc, char **argv)
{
	struct tracecmd_input *h;
	struct floor *f;
	int iterate = 0, ncpus;
	const char *path;

	if (argc == 3 && !strcmp(argv[1], "--own")) {
		char err[512];
		struct rq_td *td = rq_td_open(argv[2], rq_decode_wants, err, sizeof(err));
		struct rq_raw r;
		struct rq_source src;
		struct rq_pump *pump;
		int got;

		if (!td) {
			fprintf(stderr, "bench_floor: %s: %s\n", argv[2], err);
			return 2;
		}
		f = calloc(1, sizeof(*f));
		if (!f)
			return 2;
		f->tep = rq_td_tep(td);
		rq_source_file(&src, td);
		pump = rq_pump_new(&src);
		if (!pump)
			return 2;
		while ((got = rq_pump_next_raw(pump, &r)) > 0)
			one_direct(f, r.data, r.size);
		if (got < 0) {
			fprintf(stderr, "bench_floor: %s: %s\n", argv[2], rq_td_error(td));
			return 2;
		}
		printf("records %llu sched %llu sum %llu\n", f->records, f->sched, f->sum);
		rq_pump_free(pump);
		rq_td_close(td);
		free(f);
		return 0;
	} else if (argc == 3 && !strcmp(argv[1], "--iterate")) {
		iterate = 1;
		path = argv[2];
	} else if (argc == 2) {
		path = argv[1];
	} else {
		fprintf(stderr, "usage: bench_floor [--iterate|--own] FILE.dat\n");
		return 2;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS | TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!h) {
		fprintf(stderr, "bench_floor: cannot open %s\n", path);
		return 2;
	}
	f = calloc(1, sizeof(*f));
	if (!f)
		return 2;
	f->tep = tracecmd_get_tep(h);
	ncpus = tep_get_cpus(f->tep);
	if (iterate) {
		tracecmd_iterate_events(h, NULL, 0, iterate_cb, f);
	} else {
		struct tep_record **next = calloc((size_t)ncpus, sizeof(*next));

		if (!next)
			return 2;
		for (int cpu = 0; cpu < ncpus; cpu++)
			next[cpu] = tracecmd_read_data(h, cpu);
		for (;;) {
			int best = -1;

			for (int cpu = 0; cpu < ncpus; cpu++)
				if (next[cpu] && (best < 0 || next[cpu]->ts < next[best]->ts))
					best = cpu;
			if (best < 0)
				break;
			one(f, next[best]);
			tracecmd_free_record(next[best]);
			next[best] = tracecmd_read_data(h, best);
		}
		free(next);
	}
	printf("records %llu sched %llu sum %llu\n", f->records, f->sched, f->sum);
	tracecmd_close(h);
	free(f);
	return 0;
}
