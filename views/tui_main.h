/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tui_main.h - the two ways into the TUI, as the command line (src/cli/) calls them.
 * No curses here: the caller needs neither the terminal nor the views' internals.
 */
#ifndef RQPATH_TUI_MAIN_H
#define RQPATH_TUI_MAIN_H

#include <stdbool.h>
#include <sys/types.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Open FILE.dat and browse it until the user quits.  0, or -1 with one line in err
 * (the file name already escaped) when the file or the terminal cannot be opened.
 * no_truth: ignore the rqpath:truth records (--no-truth).
 */
int tui_replay(const char *path, const char *topology, bool no_truth, char *err, size_t errlen);

/*
 * `rqpath replay BASE... --compare NEW...`: the compare view over the first file of each
 * side, the other files' numbers in its rows.  0, or -1 with one line in err.
 */
int tui_compare(const char *const *base, int nbase, const char *const *new, int nnew,
		const char *topology, bool no_truth, char *err, size_t errlen);

/*
 * `rqpath why PID [--at T] FILE`: the detail view's facts of every placement of task pid
 * in FILE (at_given: only the one nearest at seconds from the trace's start), as text on
 * out.  0; 1 when the trace has no placement of pid (a line in err); -1 with err.
 */
int tui_why(const char *path, const char *topology, bool no_truth, int pid, bool at_given,
	    double at, FILE *out, char *err, size_t errlen);

/* The placements replay's analyses count and show (-p, --comm, -C, --from/--to); NULL all. */
struct rq_filter;
void tui_set_filter(const struct rq_filter *f);

struct tui_live_opts {
	int buffer_kb;		/* per-CPU buffer, 0 = default */
	const char *output;	/* keep the recording in this file, NULL: a temporary one */
	bool force;		/* replace an existing output file */
	mode_t mode;		/* its permission bits, 0: 0600 */
	bool no_bpf;		/* no kernel truth (recorder.h) */
	double duration;	/* --duration S: quit after S seconds of recording, 0 never */
};

/* Record this system (root) and show it live until the user quits.  0, or -1 and err. */
int tui_live(const struct tui_live_opts *opts, char *err, size_t errlen);

#endif
