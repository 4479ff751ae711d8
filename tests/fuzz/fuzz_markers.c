// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_markers.c - libFuzzer harness for the marker grammar (src/input/markers.c): any
 * bytes into rq_marker_parse(); a line it takes is written back with rq_marker_format()
 * and must parse again to the same marker (one line, the same fields, the same comm:
 * nothing in a field can change what the line says).  Built by tests/fuzz/run.sh
 * (FUZZ_TARGET=markers).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "markers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rq_marker m, back;
	char line[4096];
	size_t plen = strlen(RQ_MARKER_PREFIX);
	int n;

	if (rq_marker_parse((const char *)data, size, &m))
		return 0;
	n = rq_marker_format(&m, line, sizeof(line));
	if (n <= 0 || (size_t)n >= sizeof(line) || strncmp(line, RQ_MARKER_PREFIX, plen) ||
	    strchr(line, '\n') != line + n - 1)
		abort();
	if (rq_marker_parse(line + plen, (size_t)n - plen, &back))
		abort();
	if (back.kind != m.kind || back.pid != m.pid || back.tgid != m.tgid ||
	    back.policy != m.policy || back.idle_cg != m.idle_cg || back.cpu != m.cpu ||
	    back.core != m.core || back.llc != m.llc || back.node != m.node ||
	    back.capacity != m.capacity || back.cpus != m.cpus || back.ntasks != m.ntasks ||
	    strcmp(back.cpulist, m.cpulist) || strcmp(back.comm, m.comm) ||
	    strcmp(back.release, m.release) || strcmp(back.llc_src, m.llc_src))
		abort();
	return 0;
}
