// SPDX-License-Identifier: GPL-2.0
/*
 * tdhdr.c - the trace.dat header texts and the exit-record page the tests' hand-built
 * files share (tdhdr.h).
 */
#include <string.h>

#include "tdhdr.h"
#include "truth_fmt.h"

const char tdhdr_header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";
const size_t tdhdr_header_page_len = sizeof(tdhdr_header_page) - 1;

const char tdhdr_header_event[] =
	"# compressed entry header\n"
	"\ttype_len    :    5 bits\n"
	"\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n\n"
	"\tpadding     : type == 29\n"
	"\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n"
	"\tdata max type_len  == 28\n";
const size_t tdhdr_header_event_len = sizeof(tdhdr_header_event) - 1;

static char exit_fmt[] =
	"name: sched_process_exit\nID: 320\nformat:\n" TDHDR_COMMON
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"pid=%d\", REC->pid\n";

int tdhdr_truth_events(struct rq_tdw_format ev[2], int *hdr)
{
	size_t len = 0;

	ev[0] = (struct rq_tdw_format){ "sched", "sched_process_exit", exit_fmt,
					sizeof(exit_fmt) - 1 };
	ev[1] = (struct rq_tdw_format){ RQ_TRUTH_SYSTEM, RQ_TRUTH_EVENT, NULL, 0 };
	ev[1].buf = rq_truth_format(321, exit_fmt, &len, hdr);
	ev[1].len = len;
	return ev[1].buf ? 0 : -1;
}

void tdhdr_exit_page(unsigned char *p, uint64_t ts0, int n)
{
	size_t at = 16;
	uint64_t commit = 0;

	memset(p, 0, TDHDR_PAGE);
	memcpy(p, &ts0, 8);
	for (int i = 0; i < n; i++, at += 36) {
		/* type_len 8 (32 bytes of data), 1000 ns after the one before */
		uint32_t h = 8 | (i ? 1000u : 0u) << 5;
		uint16_t type = 320;
		int32_t pid = 10 + i, prio = 120;

		memcpy(p + at, &h, 4);
		memcpy(p + at + 4, &type, 2);
		memcpy(p + at + 12, "exiting", 8);
		memcpy(p + at + 28, &pid, 4);
		memcpy(p + at + 32, &prio, 4);
		commit += 36;
	}
	memcpy(p + 8, &commit, 8);
}
