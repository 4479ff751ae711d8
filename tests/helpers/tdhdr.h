/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tdhdr.h - what the tests that build a trace.dat by hand share (gen_trace, truth_seed,
 * test_tracedat, test_truth), so that a change of the kernel's header texts is made
 * once: the texts of events/header_page and events/header_event as a 6.18 kernel's
 * tracefs shows them, the common fields every event format starts with, and, for the
 * two that write a truth buffer (truth_seed, test_truth), the sched_process_exit format
 * beside the rqpath:truth one and a CPU page of exit records.
 *
 * Not a program: the Makefile builds tdhdr.o once for the helpers and once, with the
 * sanitizers, for the unit tests, and links it into the four.
 */
#ifndef RQPATH_TEST_TDHDR_H
#define RQPATH_TEST_TDHDR_H

#include <stddef.h>
#include <stdint.h>

#include "tracedat_write.h"

/* The ring-buffer page size of the files (header_page's data field: 4080 bytes after 16) */
#define TDHDR_PAGE 4096

/* The four common fields, as the first lines of every event's format text. */
#define TDHDR_COMMON \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

extern const char tdhdr_header_page[];
extern const size_t tdhdr_header_page_len;
extern const char tdhdr_header_event[];
extern const size_t tdhdr_header_event_len;

/* In a struct rq_tdw_meta's initializer: its header_page and header_event. */
#define TDHDR_META_HEADERS \
	.header_page = tdhdr_header_page, .header_page_len = tdhdr_header_page_len, \
	.header_event = tdhdr_header_event, .header_event_len = tdhdr_header_event_len

/*
 * A file of one CPU's sched_process_exit records and a truth buffer: fills ev[0] with
 * sched_process_exit (ID 320, comm[16]) and ev[1] with rqpath:truth (ID 321, its common
 * fields copied from the exit format; malloc'd, the caller frees ev[1].buf) and *hdr
 * with where the truth record's own fields start.  0, or -1 (out of memory).
 */
int tdhdr_truth_events(struct rq_tdw_format ev[2], int *hdr);

/* One TDHDR_PAGE page of n exit records (n <= 113) at ts0, ts0 + 1000, ...: pids 10, 11, ... */
void tdhdr_exit_page(unsigned char *p, uint64_t ts0, int n);

#endif
