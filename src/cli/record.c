// SPDX-License-Identifier: GPL-2.0
/*
 * record.c - `rqpath record`: the options, then rq_record_run() from the library.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "escape.h"
#include "record.h"

/* ---- the `rqpath record` command ---- */

static void usage_line(void)
{
	fprintf(stderr, "usage: rqpath record -o FILE [--duration S] [--buffer-kb N] [--force] "
		"[--file-version 6|7] [-- CMD ARGS...]\n");
}

int cmd_record(int argc, char **argv)
{
	struct rq_record_opts o = { 0 };
	struct rq_record_stats st;
	char err[1024], name[PATH_MAX * 4];
	char *end;
	int i, ret;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = (i + 1 < argc) ? argv[i + 1] : NULL;

		if (!strcmp(a, "--")) {
			i++;
			break;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			if (!val)
				goto need_value;
			o.output = val;
			i++;
		} else if (!strcmp(a, "--duration") || !strcmp(a, "-d")) {
			if (!val)
				goto need_value;
			o.duration = strtod(val, &end);
			if (*end || o.duration <= 0) {
				rq_error("--duration wants a number of seconds > 0, not '%s'", val);
				return RQ_EXIT_ERROR;
			}
			i++;
		} else if (!strcmp(a, "--buffer-kb")) {
			long kb;

			if (!val)
				goto need_value;
			kb = strtol(val, &end, 10);
			if (*end || kb <= 0 || kb > 4 * 1024 * 1024) {
				rq_error("--buffer-kb wants a size in KB (1..4194304), not '%s'", val);
				return RQ_EXIT_ERROR;
			}
			o.buffer_kb = (int)kb;
			i++;
		} else if (!strcmp(a, "--force") || !strcmp(a, "-f")) {
			o.force = true;
		} else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
			o.quiet = true;
		} else if (!strcmp(a, "--file-version")) {
			if (!val)
				goto need_value;
			if (strcmp(val, "6") && strcmp(val, "7")) {
				rq_error("--file-version is 6 or 7, not '%s'", val);
				return RQ_EXIT_ERROR;
			}
			o.file_version = atoi(val);
			i++;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage_line();
			return RQ_EXIT_OK;
		} else {
			char esc[256];

			rq_escape_c(a, strlen(a), esc, sizeof(esc));
			rq_error("record: unknown option '%s'; see 'rqpath help record'", esc);
			return RQ_EXIT_ERROR;
		}
	}
	if (i < argc)
		o.cmd = argv + i;
	if (!o.output) {
		rq_error("record needs an output file: rqpath record -o FILE [-- CMD ...]");
		return RQ_EXIT_ERROR;
	}
	if (!o.cmd && o.duration <= 0 && !isatty(STDIN_FILENO) && !o.quiet)
		fprintf(stderr, "rqpath: recording until SIGINT/SIGTERM (no --duration, no CMD)\n");

	ret = rq_record_run(&o, &st, err, sizeof(err));
	if (ret < 0) {
		rq_error("%s", err);
		return RQ_EXIT_ERROR;
	}
	rq_escape_c(o.output, strlen(o.output), name, sizeof(name));
	if (!o.quiet) {
		fprintf(stderr, "rqpath: recorded %llu events, %llu lost events, %llu bytes in %s\n",
			(unsigned long long)st.events, (unsigned long long)st.lost_events,
			(unsigned long long)st.bytes, name);
		fprintf(stderr, "rqpath: counts:");
		for (int t = 1; t < RQ_EV__COUNT; t++)
			if (st.by_type[t] && t != RQ_EV_LOST)
				fprintf(stderr, " %s=%llu", rq_event_name(t),
					(unsigned long long)st.by_type[t]);
		fprintf(stderr, " other=%llu\n", (unsigned long long)st.by_type[RQ_EV_OTHER]);
	}
	return RQ_EXIT_OK;

need_value:
	rq_error("record: %s needs a value; see 'rqpath help record'", argv[i]);
	return RQ_EXIT_ERROR;
}
