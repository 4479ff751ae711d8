/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracedat.h - rqpath's own trace.dat reader (file versions 6 and 7; uncompressed, zstd
 * or zlib), following trace-cmd.dat.v6(5) and trace-cmd.dat.v7(5).
 *
 * Only what the replay needs is parsed: the page and event headers, the formats of the
 * events rqpath decodes (decode.c says which; libtraceevent parses their text), the
 * options that change timestamps or describe the data, and the ring-buffer pages, which
 * are walked here with every record checked against its page.  The file is read with
 * pread() into per-CPU buffers that are reused (a v7 chunk is decompressed into the same
 * buffer every time), so memory does not grow with the file, and a file that shrinks
 * while it is read is an error, never a signal.
 */
#ifndef RQPATH_TRACEDAT_H
#define RQPATH_TRACEDAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pump.h"

struct tep_handle;
struct rq_td;

/*
 * Open path and parse its headers.  wanted(system, name) says which event formats to
 * parse (NULL: all of them).  NULL on error with one line in err.
 */
struct rq_td *rq_td_open(const char *path, bool (*wanted)(const char *system, const char *name),
			 char *err, size_t errlen);
void rq_td_close(struct rq_td *td);
/*
 * NULL, or why the recording is cut short: "unfinished" (its recorder never finished
 * it: killed, still being written) or "disk-full" (finished early on a full disk).
 */
const char *rq_td_cut(const struct rq_td *td);

/* The parsed formats (the events wanted only), the header page and the byte order. */
struct tep_handle *rq_td_tep(const struct rq_td *td);
int rq_td_version(const struct rq_td *td);
/* CPUs of the buffer read: the highest CPU id with data, plus one. */
int rq_td_cpus(const struct rq_td *td);
/* The UNAME option ("sysname nodename release version machine"), "" if none. */
const char *rq_td_uname(const struct rq_td *td);
/* The first scheduler event only an energy-aware (EAS) kernel defines, or "". */
const char *rq_td_eas_event(const struct rq_td *td);
bool rq_td_is_eas_event(const char *name);
/* Sum of the "overrun:" counts of the CPUSTAT options (top buffer only). */
unsigned long long rq_td_stats_overrun(const struct rq_td *td);
/* The same for one CPU (0 when the file has no statistics for it). */
unsigned long long rq_td_stats_overrun_cpu(const struct rq_td *td, int cpu);
/* Name of the buffer read: "" for the top one. */
const char *rq_td_buffer(const struct rq_td *td);
/*
 * Where CPU cpu of the buffer read keeps its data in the file (for tests that damage
 * it on purpose): 0 with *off, *size, *page_size and *compressed, -1 if it has none.
 */
int rq_td_cpu_region(const struct rq_td *td, int cpu, uint64_t *off, uint64_t *size,
		     uint32_t *page_size, bool *compressed);
/* "none", "zstd" or "zlib". */
const char *rq_td_compression(const struct rq_td *td);

/*
 * Read ahead in n threads (at most one per CPU with data): each reads and decompresses
 * the next block of its CPUs while the caller walks the current one.  The records are
 * the same, in the same order, for any n.  Returns the number of threads started.
 */
int rq_td_start_workers(struct rq_td *td, int n);

/*
 * The file as a source of the pump (pump.h), which merges the CPUs: its next() hands
 * out CPU cpu's records in file order (1, 0 at that CPU's end, -1 on error:
 * rq_td_error()), each valid until the next call for the same CPU.  td stays the
 * caller's and must outlive the pump.
 */
void rq_source_file(struct rq_source *src, struct rq_td *td);
const char *rq_td_error(const struct rq_td *td);
/* Fraction of the buffer's data read, 0.0 .. 1.0. */
double rq_td_progress(const struct rq_td *td);

#endif
