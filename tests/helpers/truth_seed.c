// SPDX-License-Identifier: GPL-2.0
/*
 * truth_seed.c - a small trace.dat with kernel truth (issue 21) for the replay fuzzer's
 * corpus (tests/fuzz/run.sh): one CPU with a page of sched_process_exit records and an
 * rqpath-truth buffer of a few rqpath:truth records (2 and 40 CPUs: both event header
 * forms), written by rqpath's own writer; small enough for libFuzzer's -max_len.
 *
 *   truth_seed 6|7 FILE
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "outfile.h"
#include "tdhdr.h"
#include "tracedat_write.h"
#include "truth_fmt.h"

int main(int argc, char **argv)
{
	struct rq_tdw_format events[2];
	struct rq_tdw_meta m = {
		TDHDR_META_HEADERS,
		.events = events, .nr_events = 2, .uname = "Linux seed 6.18.0 #1 x86_64",
		.trace_clock = "[mono]", .clock_name = "mono", .version = "truth_seed",
	};
	unsigned char page[TDHDR_PAGE], buf[RQ_TRUTH_EVENT_MAX];
	struct rq_truth_rec rec = { 0 };
	uint64_t ts = 1000000, bytes;
	struct rq_tdw *w;
	char err[256];
	size_t len;
	int hdr = 8;

	if (argc != 3 || (strcmp(argv[1], "6") && strcmp(argv[1], "7"))) {
		fprintf(stderr, "usage: truth_seed 6|7 FILE\n");
		return 2;
	}
	if (tdhdr_truth_events(events, &hdr) < 0) {
		fprintf(stderr, "truth_seed: out of memory\n");
		return 2;
	}
	w = rq_tdw_open(argv[2], RQ_OUT_REPLACE, 0644, atoi(argv[1]), 1, TDHDR_PAGE, err,
			sizeof(err));
	if (!w || rq_tdw_add_instance(w, RQ_TRUTH_BUFFER) < 0 ||
	    rq_tdw_begin(w, &m, err, sizeof(err)) < 0) {
		fprintf(stderr, "truth_seed: %s\n", err);
		return 2;
	}
	tdhdr_exit_page(page, ts, 4);
	for (int i = 0; i < 6; i++) {
		rec.pid = 10 + (uint32_t)i;
		rec.point = (uint8_t)(1 + i % 5);
		rec.flags = (uint8_t)(i & 3);
		rec.nr_cpus = i == 5 ? 40 : 2;
		rec.nr_cpus_allowed = 2;
		rec.mask[0] = 3;
		rec.cpus[0].known = RQ_TRUTH_RQ_KNOWN;
		rec.cpus[0].nr_running = (uint8_t)i;
		rec.cpus[1].curr_pid = 10;
		len = rq_truth_encode(&rec, 321, hdr, 2, buf);
		if (rq_tdw_add_record(w, ts + 500 * (uint64_t)i, buf, (uint32_t)len) < 0)
			return 2;
	}
	if (rq_tdw_add_page(w, 0, page, TDHDR_PAGE) < 0 ||
	    rq_tdw_finish(w, &m, &bytes, err, sizeof(err)) < 0) {
		fprintf(stderr, "truth_seed: %s\n", err);
		return 2;
	}
	rq_tdw_close(w);
	free(events[1].buf);
	return 0;
}
