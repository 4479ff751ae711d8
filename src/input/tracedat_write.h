/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracedat_write.h - write raw ring-buffer pages into a trace-cmd trace.dat,
 * file version 6 or 7 (7 uncompressed), following trace-cmd.dat.v6(5) and
 * trace-cmd.dat.v7(5).  There is no public writer API in libtracecmd.
 *
 * The file is a readable trace.dat from rq_tdw_begin() on: the header first (its
 * VERSION option says RQ_TDW_UNFINISHED), then a region per CPU into which its pages
 * go, the CPU table on disk following every rq_tdw_sync().  With a path it has a name
 * from the start (PATH.XXXXXX beside PATH), so a recording killed outright (kill -9,
 * the OOM killer) leaves what it wrote readable there.  rq_tdw_finish() packs the
 * regions, writes the final header and renames the file to PATH.  A full disk ends a
 * CPU's pages where they are; the file stays readable.
 */
#ifndef RQPATH_TRACEDAT_WRITE_H
#define RQPATH_TRACEDAT_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* One format file: events/<system>/<name>/format. */
struct rq_tdw_format {
	char *system;
	char *name;
	char *buf;
	size_t len;
};

/* Everything the header needs; the writer copies nothing, the caller owns it all. */
struct rq_tdw_meta {
	const char *header_page;	/* events/header_page */
	size_t header_page_len;
	const char *header_event;	/* events/header_event */
	size_t header_event_len;
	const struct rq_tdw_format *ftrace;	/* events/ftrace/ * /format */
	int nr_ftrace;
	const struct rq_tdw_format *events;	/* the enabled events, grouped by system */
	int nr_events;
	const char *kallsyms;		/* may be NULL: written as empty */
	size_t kallsyms_len;
	const char *printk;		/* printk_formats, may be NULL */
	size_t printk_len;
	const char *cmdlines;		/* saved_cmdlines, may be NULL */
	size_t cmdlines_len;
	const char *uname;		/* "sysname nodename release version machine" */
	const char *trace_clock;	/* content of trace_clock, e.g. "[mono] local ..." */
	const char *clock_name;		/* the selected clock, e.g. "mono" (v7 BUFFER option) */
	char **cpustats;		/* per CPU: per_cpu/cpuN/stats text, entries may be NULL */
	const char *version;		/* writer version string, may be NULL */
};

struct rq_tdw;

/*
 * Start a recording for path (outfile.h: flags RQ_OUT_*, permission bits mode).  Only
 * nothing or (RQ_OUT_REPLACE) a regular file may be at path; anything else (a device,
 * FIFO, socket, directory, symlink) is refused.  The file is written beside path and
 * renamed to path by rq_tdw_finish() once readable, so that a failure leaves whatever
 * was at path untouched.  NULL with one line in err.
 */
struct rq_tdw *rq_tdw_open(const char *path, unsigned int flags, mode_t mode, int version,
			   int nr_cpus, int page_size, char *err, size_t errlen);
/*
 * The same into a file that never gets a name ($TMPDIR or /tmp): nothing is left
 * behind whatever ends the process.  After rq_tdw_finish(), rq_tdw_take_fd().
 */
struct rq_tdw *rq_tdw_open_anon(int version, int nr_cpus, int page_size, char *err,
				size_t errlen);
/* What the VERSION option of a file still being written (or never finished) says. */
#define RQ_TDW_UNFINISHED "(unfinished: cut where its recorder stopped writing)"
/*
 * What the VERSION option of a finished file says when its recorder stopped early
 * because the disk (or quota, or file size limit) was full: the file holds what was
 * written until then, and every later read says so.
 */
#define RQ_TDW_CUT_FULL "(cut: the disk filled up while it was recorded)"
/*
 * Write the header (meta as known at the start) and lay out the CPU regions: the file
 * is readable from now on.  Done by the first rq_tdw_add_page() when not called (with
 * an empty header).  0, or -1 with one line in err (err may be NULL).
 */
int rq_tdw_begin(struct rq_tdw *w, const struct rq_tdw_meta *meta, char *err, size_t errlen);
/* Point the CPU table on disk at the pages added so far.  0, or -1 with errno. */
int rq_tdw_sync(struct rq_tdw *w);
/* The finished anonymous file's descriptor, now the caller's (-1 if none). */
int rq_tdw_take_fd(struct rq_tdw *w);
/* Append one ring-buffer page (len <= page_size, padded).  0, or -1 with errno set. */
int rq_tdw_add_page(struct rq_tdw *w, int cpu, const void *page, size_t len);
/*
 * A buffer (instance) of its own in the file, before rq_tdw_begin(): one CPU whose pages
 * the writer makes itself from the records given (rq_tdw_add_record()), in the kernel's
 * ring-buffer page format, so that any trace.dat reader reads it like a recorded one.
 * 0, or -1 with errno.
 */
int rq_tdw_add_instance(struct rq_tdw *w, const char *name);
/*
 * One record (the event's bytes, common_type first) at time ts into the instance; in
 * time order (an earlier one is stamped with the time of the one before).  The last page
 * is written by rq_tdw_finish().  0, or -1 with errno.
 */
int rq_tdw_add_record(struct rq_tdw *w, uint64_t ts, const void *data, uint32_t len);
/* Records given to the instance so far, and the bytes of its pages stored. */
uint64_t rq_tdw_records(const struct rq_tdw *w);
uint64_t rq_tdw_instance_bytes(const struct rq_tdw *w);
/* Pages stored so far, all CPUs. */
uint64_t rq_tdw_pages(const struct rq_tdw *w);
/*
 * Write the final header and put the file in place.  Returns 0, or -1 (err says why:
 * nothing usable, or path was taken by another writer meanwhile and this recording
 * kept under the temporary name err gives).  *bytes gets the file size.
 */
int rq_tdw_finish(struct rq_tdw *w, const struct rq_tdw_meta *meta, uint64_t *bytes,
		  char *err, size_t errlen);
/* Close; an unfinished recording is removed (what was at path stays). */
void rq_tdw_close(struct rq_tdw *w);

#endif
