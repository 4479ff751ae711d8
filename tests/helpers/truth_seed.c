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
#include "tracedat_write.h"
#include "truth_fmt.h"

#define PAGE 4096
#define COMMON \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";
static const char header_event[] =
	"# compressed entry header\n\ttype_len    :    5 bits\n\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n\n\tpadding     : type == 29\n\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n\tdata max type_len  == 28\n";
static char exit_fmt[] =
	"name: sched_process_exit\nID: 320\nformat:\n" COMMON
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"pid=%d\", REC->pid\n";

int main(int argc, char **argv)
{
	struct rq_tdw_format events[2] = {
		{ "sched", "sched_process_exit", exit_fmt, sizeof(exit_fmt) - 1 },
		{ RQ_TRUTH_SYSTEM, RQ_TRUTH_EVENT, NULL, 0 },
	};
	struct rq_tdw_meta m = {
		.header_page = header_page, .header_page_len = sizeof(header_page) - 1,
		.header_event = header_event, .header_event_len = sizeof(header_event) - 1,
		.events = events, .nr_events = 2, .uname = "Linux seed 6.18.0 #1 x86_64",
		.trace_clock = "[mono]", .clock_name = "mono", .version = "truth_seed",
	};
	unsigned char page[PAGE] = { 0 }, buf[RQ_TRUTH_EVENT_MAX];
	struct rq_truth_rec rec = { 0 };
	uint64_t ts = 1000000, commit = 0, bytes;
	struct rq_tdw *w;
	char err[256];
	size_t len = 0;
	int hdr = 8;

	if (argc != 3 || (strcmp(argv[1], "6") && strcmp(argv[1], "7"))) {
		fprintf(stderr, "usage: truth_seed 6|7 FILE\n");
		return 2;
	}
	events[1].buf = rq_truth_format(321, exit_fmt, &len, &hdr);
	events[1].len = len;
	w = rq_tdw_open(argv[2], RQ_OUT_REPLACE, 0644, atoi(argv[1]), 1, PAGE, err, sizeof(err));
	if (!events[1].buf || !w || rq_tdw_add_instance(w, RQ_TRUTH_BUFFER) < 0 ||
	    rq_tdw_begin(w, &m, err, sizeof(err)) < 0) {
		fprintf(stderr, "truth_seed: %s\n", err);
		return 2;
	}
	memcpy(page, &ts, 8);
	for (int i = 0; i < 4; i++) {
		unsigned char *e = page + 16 + 36 * i;
		uint32_t h = 8 | (i ? 1000u : 0u) << 5;
		uint16_t type = 320;
		int32_t pid = 10 + i, prio = 120;

		memcpy(e, &h, 4);
		memcpy(e + 4, &type, 2);
		memcpy(e + 12, "exiting", 8);
		memcpy(e + 28, &pid, 4);
		memcpy(e + 32, &prio, 4);
		commit += 36;
	}
	memcpy(page + 8, &commit, 8);
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
	if (rq_tdw_add_page(w, 0, page, PAGE) < 0 ||
	    rq_tdw_finish(w, &m, &bytes, err, sizeof(err)) < 0) {
		fprintf(stderr, "truth_seed: %s\n", err);
		return 2;
	}
	rq_tdw_close(w);
	free(events[1].buf);
	return 0;
}
