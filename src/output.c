// SPDX-License-Identifier: GPL-2.0
/*
 * Output that is checked: a verdict nobody could read is not
 * a verdict. Report files are opened before the run; stdout and each
 * report file are checked after each report and at the end (fflush,
 * ferror, fclose); the first failure of a stream is one line with its
 * path and strerror, and the exit status becomes 3.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "stress.h"

/* The streams that failed: the first errno of each, and whether it was told. */
static struct out_stream {
	FILE *f;
	int err;
	bool told;
} streams[4];
static bool any_failed;

static struct out_stream *stream_of(FILE *f)
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		if (streams[i].f == f)
			return &streams[i];
	for (i = 0; i < 4; i++)
		if (!streams[i].f) {
			streams[i].f = f;
			return &streams[i];
		}
	return &streams[3];	/* more failing streams than outputs: share the last */
}

static void report_failure(bool is_stdout, const char *path, int err)
{
	char link[512] = "";
	ssize_t n;

	any_failed = true;
	/* For stdout, say where it went: ./stress >/dev/full */
	if (is_stdout) {
		n = readlink("/proc/self/fd/1", link, sizeof(link) - 1);
		link[n > 0 ? n : 0] = 0;
	}
	fprintf(stderr, "stress: cannot write %s%s%s%s: %s\n", path, *link ? " (" : "", link,
		*link ? ")" : "", strerror(err ? err : EIO));
}

/* A failure of @f seen now, with @err if the call that failed set one. */
static void saw_failure(FILE *f, int err)
{
	struct out_stream *s = stream_of(f);

	if (!s->err)
		s->err = err;
}

/* Tell the failure of @f once, however often it is seen. */
static void tell_failure(FILE *f, const char *path)
{
	struct out_stream *s = stream_of(f);

	if (!s->told) {
		s->told = true;
		report_failure(f == stdout, path, s->err);
	}
}

bool stress_out_failed(void)
{
	return any_failed;
}

FILE *stress_out_open(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		report_failure(false, path, errno);
	return f;
}

bool stress_out_check(FILE *f, const char *path)
{
	errno = 0;
	if (!fflush(f) && !ferror(f))
		return true;
	saw_failure(f, errno);
	tell_failure(f, path);
	return false;
}

void stress_out_flush(FILE *f)
{
	/* stderr is where failures are told: not a report, not checked. */
	if (f == stderr) {
		fflush(f);
		return;
	}
	/* Keep the errno: the stream's check (with its path) comes later. */
	errno = 0;
	if (fflush(f) || ferror(f))
		saw_failure(f, errno);
	if (f == stdout)
		stress_out_check(f, "stdout");
}

int stress_out_write(FILE *f, const char *path, const void *buf, size_t len)
{
	errno = 0;
	if (fwrite(buf, 1, len, f) == len)
		return 0;
	saw_failure(f, errno);
	tell_failure(f, path);
	return -1;
}

int stress_out_close(FILE *f, const char *path)
{
	bool ok = stress_out_check(f, path), is_stdout = f == stdout;
	struct out_stream *s = stream_of(f);

	/* The FILE's address may come back from the next fopen(). */
	memset(s, 0, sizeof(*s));
	errno = 0;
	if (fclose(f) && ok) {	/* NFS and friends report at close */
		report_failure(is_stdout, path, errno);
		ok = false;
	}
	return ok ? 0 : -1;
}

int stress_out_probe(const char *path)
{
	char tmp[4096];
	int fd;

	/* Written later as PATH.tmpPID, then renamed: the directory must take it. */
	if (snprintf(tmp, sizeof(tmp), "%s.tmp%d", path, (int)getpid()) >= (int)sizeof(tmp)) {
		report_failure(false, path, ENAMETOOLONG);
		return -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		report_failure(false, path, errno);
		return -1;
	}
	close(fd);
	unlink(tmp);
	return 0;
}

int stress_out_finish(int status)
{
	if (stress_out_close(stdout, "stdout") || any_failed)
		return STRESS_EXIT_INTERNAL;
	return status;
}
