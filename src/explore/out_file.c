// SPDX-License-Identifier: GPL-2.0
/*
 * The explorer's output files (--json, --save): a regular file is
 * written whole to a temporary file beside it, synced and renamed over
 * it, so the old file survives any failure; anything else (a device, a
 * pipe) is written in place, never truncated or replaced.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "xp.h"

static int finish(FILE *f, int err)
{
	if (fflush(f) && !err)
		err = errno ? errno : EIO;
	if (!err && fsync(fileno(f)) && errno != EINVAL && errno != EROFS)
		err = errno;
	if (fclose(f) && !err)
		err = errno ? errno : EIO;
	return err;
}

int xp_write_file(const char *path, int (*fill)(FILE *f, const void *arg), const void *arg)
{
	char tmp[4096];
	struct stat st;
	FILE *f;
	int fd, err;

	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		fd = open(path, O_WRONLY | O_CLOEXEC);
		f = fd < 0 ? NULL : fdopen(fd, "w");
		if (!f) {
			err = errno;
			if (fd >= 0)
				close(fd);
			goto fail;
		}
		errno = 0;
		err = fill(f, arg) ? (errno ? errno : EIO) : 0;
		err = finish(f, err);
		if (err)
			goto fail;
		return 0;
	}
	if (snprintf(tmp, sizeof(tmp), "%s.tmp%d", path, (int)getpid()) >= (int)sizeof(tmp)) {
		err = ENAMETOOLONG;
		goto fail;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		err = errno;
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		goto fail;
	}
	errno = 0;
	err = fill(f, arg) ? (errno ? errno : EIO) : 0;
	err = finish(f, err);
	if (!err && rename(tmp, path))
		err = errno;
	if (err) {
		unlink(tmp);
		goto fail;
	}
	return 0;
fail:
	fprintf(stderr, "explore: cannot write %s: %s\n", path, strerror(err));
	return -1;
}
