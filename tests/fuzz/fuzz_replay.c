// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_replay.c - libFuzzer harness for the replay path: the input is written to an
 * anonymous file (memfd), replayed with rq_replay_file() into a fresh analysis, and
 * all three report formats are written to /dev/null.  Built by tests/fuzz/run.sh.
 *
 * Anything a hostile trace.dat can make the reader (src/input/tracedat.c), the decoder or the
 * engine do wrong shows up here as an ASan/UBSan report or a leak.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "analysis.h"
#include "replay.h"
#include "report.h"

static FILE *devnull;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rq_analysis *an;
	char path[64], err[512];
	size_t done = 0;
	int fd;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	fd = memfd_create("fuzz.dat", MFD_CLOEXEC);
	if (fd < 0)
		abort();
	while (done < size) {
		ssize_t n = write(fd, data + done, size - done);

		if (n <= 0)
			abort();
		done += (size_t)n;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);

	/* a small placements ring: the default one is megabytes, allocated per input */
	an = rq_analysis_new(&(struct rq_analysis_opts){ .recent_capacity = 256 });
	if (!an)
		abort();
	if (!rq_replay_file(path, an, 0, err, sizeof(err))) {
		rq_report_write(devnull, an, RQ_FMT_TEXT);
		rq_report_write(devnull, an, RQ_FMT_JSON);
		rq_report_write(devnull, an, RQ_FMT_CSV);
		fflush(devnull);
	}
	rq_analysis_free(an);
	close(fd);
	return 0;
}
