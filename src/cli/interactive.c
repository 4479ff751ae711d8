// SPDX-License-Identifier: GPL-2.0
/*
 * interactive.c - `rqpath live` and `rqpath replay`: their options, then the TUI
 * (views/tui.c) through its two entry points.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "tui_main.h"

int cmd_replay(int argc, char **argv)
{
	char err[2048];

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: rqpath replay FILE.dat\n\nOpen a trace.dat in the TUI; "
		       "press ? inside for the keys.\n");
		return RQ_EXIT_OK;
	}
	if (argc != 2) {
		rq_error("replay: needs one FILE.dat; try 'rqpath help replay'");
		return RQ_EXIT_ERROR;
	}
	if (tui_replay(argv[1], err, sizeof(err))) {
		rq_error("%s", err);
		return RQ_EXIT_ERROR;
	}
	return RQ_EXIT_OK;
}

int cmd_live(int argc, char **argv)
{
	struct tui_live_opts opts = { 0 };
	char err[2048];

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--buffer-kb") && i + 1 < argc) {
			opts.buffer_kb = atoi(argv[++i]);
			if (opts.buffer_kb <= 0) {
				rq_error("live: --buffer-kb needs a positive number");
				return RQ_EXIT_ERROR;
			}
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			opts.output = argv[++i];
		} else if (!strcmp(argv[i], "--force")) {
			opts.force = true;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: rqpath live [--buffer-kb N] [-o FILE [--force]]\n\n"
			       "Attach to this system (root): the TUI over a private tracefs "
			       "instance.\nWith -o the recording is kept in FILE (a trace.dat "
			       "for rqpath replay\nor trace-cmd report).\n");
			return RQ_EXIT_OK;
		} else {
			rq_error("live: unknown argument '%s'; try 'rqpath help live'", argv[i]);
			return RQ_EXIT_ERROR;
		}
	}
	if (geteuid() != 0) {
		rq_error("live: needs root to record scheduler events (tracefs); run it with "
			 "sudo, or open a recording with 'rqpath replay FILE'");
		return RQ_EXIT_ERROR;
	}
	if (tui_live(&opts, err, sizeof(err))) {
		rq_error("%s", err);
		return RQ_EXIT_ERROR;
	}
	return RQ_EXIT_OK;
}
