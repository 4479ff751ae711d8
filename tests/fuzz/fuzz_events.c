// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_events.c - libFuzzer harness for the engine behind the decoder: the input is
 * read as a stream of struct rq_event with hostile values (CPU numbers outside the
 * trace's CPUs, negative pids, timestamps going backwards, markers with any text) fed
 * to rq_analysis_feed(), then all three reports are written to /dev/null.  A trace.dat
 * can carry every one of these values in a well-formed record, so the engine must
 * take them all.  Built by tests/fuzz/run.sh (FUZZ_TARGET=events).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "report.h"

static FILE *devnull;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct cursor {
	const uint8_t *p;
	size_t left;
};

static uint32_t take(struct cursor *c, int bytes)
{
	uint32_t v = 0;

	for (int i = 0; i < bytes; i++) {
		v = v << 8 | (c->left ? *c->p : 0);
		if (c->left) {
			c->p++;
			c->left--;
		}
	}
	return v;
}

/* Small values most of the time (they hit real CPUs and pids), any value sometimes. */
static int val(struct cursor *c)
{
	uint32_t sel = take(c, 1);

	switch (sel & 3) {
	case 0: return (int)(sel >> 2) % 4;		/* a CPU or a small pid */
	case 1: return 100 + (int)(sel >> 2) % 8;	/* a handful of pids */
	case 2: return -(int)(sel >> 2);		/* negative */
	default: return (int)take(c, 4);		/* anything */
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const bool all[RQ_EV__COUNT] = {
		[RQ_EV_SWITCH] = true, [RQ_EV_WAKING] = true, [RQ_EV_WAKEUP] = true,
		[RQ_EV_WAKEUP_NEW] = true, [RQ_EV_MIGRATE] = true, [RQ_EV_FORK] = true,
		[RQ_EV_EXIT] = true, [RQ_EV_FREE] = true, [RQ_EV_EXEC] = true,
		[RQ_EV_PREPARE_EXEC] = true, [RQ_EV_SETAFFINITY_ENTER] = true,
		[RQ_EV_SETAFFINITY_EXIT] = true, [RQ_EV_SETSCHED_ENTER] = true,
		[RQ_EV_SETSCHED_EXIT] = true, [RQ_EV_MARKER] = true,
	};
	static const char *const releases[] = { "", "6.18.44", "6.5.0", "7.1.0", "2.6.32", "x" };
	struct cursor c = { data, size };
	struct rq_analysis_opts opts = { .recent_capacity = 64 };
	struct rq_analysis *an;
	uint64_t ts = 1000;
	int nr_cpus;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	nr_cpus = 1 + (int)(take(&c, 1) % 8);
	an = rq_analysis_new(&opts);
	if (!an)
		abort();
	if (rq_analysis_begin(an, "fuzz", nr_cpus, releases[take(&c, 1) % 6],
			      take(&c, 1) & 1 ? all : NULL)) {
		rq_analysis_free(an);
		return 0;
	}
	while (c.left) {
		struct rq_event ev = { 0 };
		char text[128];
		uint32_t op = take(&c, 1);

		/* mostly forward in time, sometimes the same instant, rarely backwards */
		switch (op >> 6) {
		case 0: break;
		case 3: ts -= take(&c, 1); break;
		default: ts += take(&c, 2); break;
		}
		ev.ts = ts;
		ev.type = (enum rq_event_type)((op & 0x3f) % RQ_EV__COUNT);
		ev.cpu = val(&c);
		if (take(&c, 1) & 1)	/* usually a real CPU */
			ev.cpu = (int)((unsigned int)ev.cpu % (unsigned int)nr_cpus);
		ev.common_pid = val(&c);
		ev.flags = (uint8_t)take(&c, 1);
		ev.pid = val(&c);
		ev.pid2 = val(&c);
		ev.prio = val(&c);
		ev.prio2 = val(&c);
		ev.cpu_a = val(&c);
		ev.cpu_b = val(&c);
		ev.state = val(&c);
		ev.arg = val(&c);
		for (int i = 0; i < RQ_COMM_LEN - 1; i++)
			ev.comm[i] = (char)take(&c, 1);
		memcpy(ev.comm2, ev.comm, sizeof(ev.comm));
		if (ev.type == RQ_EV_MARKER || ev.type == RQ_EV_EXEC ||
		    ev.type == RQ_EV_PREPARE_EXEC) {
			/* marker-like text: a keyword then key=value pairs from the input */
			static const char *const kw[] = { "task ", "cpu ", "start ", "end ", "" };
			size_t n = take(&c, 1) % 100;

			snprintf(text, sizeof(text), "%s", kw[take(&c, 1) % 5]);
			for (size_t i = strlen(text); i < sizeof(text) - 1 && n; i++, n--)
				text[i] = (char)take(&c, 1), text[i + 1] = '\0';
			ev.str = text;
			ev.str_len = (int)strlen(text);
		}
		rq_analysis_feed(an, &ev);
	}
	rq_analysis_finish(an);
	rq_report_write(devnull, an, RQ_FMT_TEXT);
	rq_report_write(devnull, an, RQ_FMT_JSON);
	rq_report_write(devnull, an, RQ_FMT_CSV);
	fflush(devnull);
	for (unsigned int i = 0; rq_recent(an, i); i++)
		;
	rq_analysis_free(an);
	return 0;
}
