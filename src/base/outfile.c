// SPDX-License-Identifier: GPL-2.0
/*
 * outfile.c - an output file written beside its path and renamed into place (outfile.h).
 * Shared by the trace writer (src/input/tracedat_write.c: record, live, audit --keep)
 * and the reports (src/cli/: audit -o, diff -o).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "escape.h"
#include "outfile.h"

static const char *file_kind(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISLNK(m))
		return "a symbolic link";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

/* The directory part of path ("." when there is none). */
static void dir_of(const char *path, char *dir, size_t size)
{
	const char *slash = strrchr(path, '/');
	size_t n;

	if (!slash) {
		snprintf(dir, size, ".");
		return;
	}
	n = slash == path ? 1 : (size_t)(slash - path);
	if (n >= size)
		n = size - 1;
	memcpy(dir, path, n);
	dir[n] = '\0';
}

/* A fresh name beside the output: "<path>.XXXXXX" (6 hex digits). */
static void temp_name(const char *path, char *name, size_t size)
{
	unsigned int r;

	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != sizeof(r))
		r = (unsigned int)rand();
	snprintf(name, size, "%s.%06x", path, r & 0xffffff);
}

static int open_named(struct rq_outfile *o, mode_t mode)
{
	size_t n = strlen(o->path) + 8;

	o->tmpname = malloc(n);
	if (!o->tmpname) {
		errno = ENOMEM;
		return -1;
	}
	for (int tries = 0; tries < 100; tries++) {
		temp_name(o->path, o->tmpname, n);
		o->fd = open(o->tmpname, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		if (o->fd >= 0)
			return 0;
		if (errno != EEXIST)
			break;
	}
	free(o->tmpname);
	o->tmpname = NULL;
	return -1;
}

int rq_outfile_open(struct rq_outfile *o, const char *path, unsigned int flags, mode_t mode,
		    char *err, size_t errlen)
{
	char dir[PATH_MAX];
	struct stat st;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	rq_escape_c(path, strlen(path), o->ename, sizeof(o->ename));
	if (lstat(path, &st) == 0) {
		bool forced = (flags & RQ_OUT_FORCE) && !S_ISDIR(st.st_mode) &&
			      !S_ISSOCK(st.st_mode);

		if (forced && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
			/* a device or FIFO, as asked: written where it is, never created */
			o->fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
			if (o->fd < 0) {
				snprintf(err, errlen, "cannot write %s: %s", o->ename,
					 strerror(errno));
				return -1;
			}
			o->in_place = true;
			return 0;
		}
		if (!S_ISREG(st.st_mode) && !forced) {
			bool offer = (flags & (RQ_OUT_FORCE | RQ_OUT_FORCE_OFFERED)) &&
				     !S_ISDIR(st.st_mode) && !S_ISSOCK(st.st_mode);

			snprintf(err, errlen, "%s is %s; rqpath writes only regular files%s",
				 o->ename, file_kind(st.st_mode),
				 !offer ? "" : S_ISLNK(st.st_mode) ?
				 " (--force replaces the link, never what it points to)" :
				 " (--force writes it as it is)");
			return -1;
		}
		if (S_ISREG(st.st_mode) && !(flags & RQ_OUT_REPLACE)) {
			snprintf(err, errlen, "%s exists; use --force to replace it", o->ename);
			return -1;
		}
		o->replaces = true;
		o->old_type = st.st_mode & S_IFMT;
		o->old_dev = st.st_dev;
		o->old_ino = st.st_ino;
	} else if (errno != ENOENT) {
		snprintf(err, errlen, "cannot create %s: %s", o->ename, strerror(errno));
		return -1;
	}
	o->path = strdup(path);
	if (!o->path) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	dir_of(path, dir, sizeof(dir));
	if (!(flags & RQ_OUT_NAMED)) {
		o->fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, mode);
		if (o->fd < 0 && errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
			goto fail;
	}
	if (o->fd < 0 && open_named(o, mode) < 0)
		goto fail;
	/* exactly mode: the umask made for other files does not widen or narrow it */
	if (fchmod(o->fd, mode) < 0)
		goto fail;
	return 0;
fail:
	{
		char edir[512];

		rq_escape_c(dir, strlen(dir), edir, sizeof(edir));
		snprintf(err, errlen, "cannot create %s: %s (in %s)", o->ename, strerror(errno),
			 edir);
	}
	rq_outfile_abort(o);
	return -1;
}

int rq_outfile_name_temp(struct rq_outfile *o)
{
	char proc[64];
	size_t n;

	if (o->tmpname)
		return 0;
	n = strlen(o->path) + 8;
	o->tmpname = malloc(n);
	if (!o->tmpname) {
		errno = ENOMEM;
		return -1;
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", o->fd);
	for (int tries = 0; tries < 100; tries++) {
		temp_name(o->path, o->tmpname, n);
		/* AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH; /proc's link does not */
		if (linkat(o->fd, "", AT_FDCWD, o->tmpname, AT_EMPTY_PATH) == 0 ||
		    (errno != EEXIST &&
		     linkat(AT_FDCWD, proc, AT_FDCWD, o->tmpname, AT_SYMLINK_FOLLOW) == 0))
			return 0;
		if (errno != EEXIST)
			break;
	}
	free(o->tmpname);
	o->tmpname = NULL;
	return -1;
}

int rq_outfile_commit(struct rq_outfile *o, char *err, size_t errlen)
{
	char ekept[512];
	struct stat st;
	bool taken = false;
	int r;

	if (fsync(o->fd) < 0 && errno != EINVAL && !o->in_place) {
		snprintf(err, errlen, "cannot write %s: %s", o->ename, strerror(errno));
		rq_outfile_abort(o);
		return -1;
	}
	if (o->in_place) {
		rq_outfile_abort(o);	/* closes: nothing to rename */
		return 0;
	}
	if (rq_outfile_name_temp(o) < 0)
		goto fail;
	if (lstat(o->path, &st) == 0) {
		/* only the very file that was there at the start may be replaced */
		taken = !o->replaces || (st.st_mode & S_IFMT) != o->old_type ||
			st.st_dev != o->old_dev || st.st_ino != o->old_ino;
		if (!taken && rename(o->tmpname, o->path) < 0)
			goto fail;
	} else if (errno != ENOENT) {
		goto fail;
	} else {
		r = renameat2(AT_FDCWD, o->tmpname, AT_FDCWD, o->path, RENAME_NOREPLACE);
		if (r < 0 && errno == EINVAL) {
			/* no RENAME_NOREPLACE here: link() refuses an existing name as well */
			r = link(o->tmpname, o->path);
			if (r == 0)
				unlink(o->tmpname);
		}
		if (r < 0 && errno != EEXIST)
			goto fail;
		taken = r < 0;
	}
	if (taken) {
		rq_escape_c(o->tmpname, strlen(o->tmpname), ekept, sizeof(ekept));
		snprintf(err, errlen, "%s was created or replaced by someone else meanwhile; it is "
			 "left as it is, and this output is in %s", o->ename, ekept);
		o->kept = true;
		rq_outfile_abort(o);
		return -1;
	}
	free(o->tmpname);
	o->tmpname = NULL;
	rq_outfile_abort(o);	/* closes; nothing left to remove */
	return 0;
fail:
	snprintf(err, errlen, "cannot create %s: %s", o->ename, strerror(errno));
	rq_outfile_abort(o);
	return -1;
}

void rq_outfile_abort(struct rq_outfile *o)
{
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	if (o->tmpname && !o->kept)
		unlink(o->tmpname);
	free(o->tmpname);
	o->tmpname = NULL;
	free(o->path);
	o->path = NULL;
}
