/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outfile.h - the one way rqpath writes a file it is told to (-o, --keep): never
 * through a symbolic link, never over a device or a directory by mistake, never a
 * truncated old file when the run fails.  The new content goes into a temporary file
 * in the target's directory (without a name where the file system allows, O_TMPFILE)
 * and takes the target's name in one rename once complete (outfile.c).
 */
#ifndef RQPATH_OUTFILE_H
#define RQPATH_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * Only a regular file is replaced: a symbolic link (never followed), a device, a FIFO,
 * a socket or a directory at the path is refused, unless RQ_OUT_FORCE says otherwise.
 */
enum {
	RQ_OUT_REPLACE = 1 << 0,	/* an existing regular file may be replaced */
	/*
	 * The command's --force for reports (audit, diff; record has none for this): a
	 * symbolic link is replaced by the file (what it points to is never written), a
	 * device or FIFO is written as it is (-o /dev/full).  A directory or a socket is
	 * refused all the same.  RQ_OUT_FORCE_OFFERED alone: say --force in the refusal.
	 */
	RQ_OUT_FORCE = 1 << 2,
	RQ_OUT_FORCE_OFFERED = 1 << 3,
	/*
	 * The temporary file has a name from the start (PATH.XXXXXX): it can be read while
	 * it grows, and a run killed outright leaves it readable under that name.
	 */
	RQ_OUT_NAMED = 1 << 1,
};

struct rq_outfile {
	int fd;			/* O_RDWR, close-on-exec; -1 once closed */
	char *path;
	char *tmpname;		/* the temporary file's name, once it has one */
	char ename[512];	/* path escaped for messages (names are hostile) */
	bool in_place;		/* a device or FIFO written as it is (RQ_OUT_FORCE) */
	bool replaces;		/* a regular file (or, forced, a link) was at path ... */
	mode_t old_type;	/* ... of this type (S_IFMT bits) */
	dev_t old_dev;		/* ... this one: only it may be replaced */
	ino_t old_ino;
	bool kept;		/* the temporary file stays (commit found path taken) */
};

/*
 * Check path and open the temporary file with permission bits mode (exactly: no umask
 * applied).  0, or -1 with one line in err ("rep.txt is a symbolic link; rqpath writes
 * only regular files", "t.dat exists; use --force to replace it").
 */
int rq_outfile_open(struct rq_outfile *o, const char *path, unsigned int flags, mode_t mode,
		    char *err, size_t errlen);
/*
 * Give the temporary file a name beside the output now (PATH.XXXXXX), if it has none:
 * o->tmpname.  0, or -1 with errno.
 */
int rq_outfile_name_temp(struct rq_outfile *o);
/*
 * Complete: flush to disk and rename to the path, only over what was there at open
 * (nothing, or the file the flags allowed).  If another writer put something there
 * meanwhile, that stays and this file keeps its temporary name, which err gives.
 * Closes fd.  0, or -1 with one line in err.
 */
int rq_outfile_commit(struct rq_outfile *o, char *err, size_t errlen);
/* Give up: the temporary file goes (unless kept), fd closed; path untouched.  Idempotent. */
void rq_outfile_abort(struct rq_outfile *o);

/* The permission bits of trace files: every task's name and CPU mask are in them. */
#define RQ_TRACE_FILE_MODE 0600

#endif
