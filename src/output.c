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
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>
#include "config.h"
#include "output.h"
#include "parse.h"

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
	char link[512] = "", esc[4096], lesc[2048];
	ssize_t n;

	any_failed = true;
	/* For stdout, say where it went: ./stress >/dev/full */
	if (is_stdout) {
		n = readlink("/proc/self/fd/1", link, sizeof(link) - 1);
		link[n > 0 ? n : 0] = 0;
	}
	fprintf(stderr, "stress: cannot write %s%s%s%s: %s\n", stress_escape(path, esc, sizeof(esc)),
		*link ? " (" : "", stress_escape(link, lesc, sizeof(lesc)), *link ? ")" : "",
		strerror(err ? err : EIO));
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

/*
 * Output files (--json FILE, --replay-out FILE, the replay and shrink
 * files): a user's file is never destroyed. A regular file (through any
 * symlinks: they stay) or a new path is written to a temporary file in
 * the same directory, fsynced and renamed over it, so it is either the
 * old file or the whole new one. Anything else (a pipe, a FIFO, a
 * terminal, a device, our own stdout by any name) is opened and written
 * in place, never renamed over. What cannot be written is refused by
 * stress_out_prepare(), before anything runs.
 */
static int refuse(struct stress_out *o, const char *why, int err)
{
	char esc[4096];

	fprintf(stderr, "stress: cannot write %s: %s\n", stress_escape(o->path, esc, sizeof(esc)),
		why ? why : strerror(err));
	free(o->target);
	o->target = NULL;
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	return -1;
}

static int tmp_name(const struct stress_out *o, char *buf, size_t len)
{
	return snprintf(buf, len, "%s.tmp%d", o->target, (int)getpid()) >= (int)len ? -1 : 0;
}

int stress_out_prepare(struct stress_out *o, const char *path)
{
	struct stat st, own;
	char tmp[4096];
	int fd, i;

	memset(o, 0, sizeof(*o));
	o->path = path;
	o->fd = -1;
	if (!*path)
		return refuse(o, "empty file name", 0);
	if (stat(path, &st)) {
		if (errno != ENOENT)
			return refuse(o, NULL, errno);
		if (!lstat(path, &st))
			return refuse(o, "a symlink to nothing", 0);
		o->target = strdup(path);	/* a new file */
		if (!o->target)
			return refuse(o, NULL, ENOMEM);
	} else if (S_ISDIR(st.st_mode)) {
		return refuse(o, NULL, EISDIR);
	} else {
		/* Our stdout or stderr, by any name (/dev/stdout, >(cat)): through it. */
		for (i = STDOUT_FILENO; i <= STDERR_FILENO; i++)
			if (!fstat(i, &own) && own.st_dev == st.st_dev && own.st_ino == st.st_ino &&
			    own.st_rdev == st.st_rdev) {
				o->fd = fcntl(i, F_DUPFD_CLOEXEC, 3);
				return o->fd < 0 ? refuse(o, NULL, errno) : 0;
			}
		if (!S_ISREG(st.st_mode)) {
			/* Written where it is: no O_CREAT, no O_TRUNC, never renamed over. */
			o->fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
			return o->fd < 0 ? refuse(o, NULL, errno) : 0;
		}
		o->target = realpath(path, NULL);
		if (!o->target)
			return refuse(o, NULL, errno);
		/*
		 * A rename would leave the other names of a hard-linked file with
		 * the old text, and writing in place could lose it: refused.
		 */
		if (st.st_nlink > 1) {
			snprintf(tmp, sizeof(tmp), "it has %lu hard links, which replacing it "
				 "would split (remove the other names or choose another path)",
				 (unsigned long)st.st_nlink);
			return refuse(o, tmp, 0);
		}
		o->mode = st.st_mode & 07777;
		o->uid = st.st_uid;
		o->gid = st.st_gid;
		o->keep_mode = true;
		/* A file we could not open for writing is not ours to replace. */
		fd = open(o->target, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			return refuse(o, NULL, errno);
		close(fd);
	}
	/* The directory must take the temporary file. */
	if (tmp_name(o, tmp, sizeof(tmp)))
		return refuse(o, NULL, ENAMETOOLONG);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		/* /proc/version opens for writing, but nothing can be created beside it. */
		snprintf(tmp, sizeof(tmp), "no temporary file beside it: %s", strerror(errno));
		return refuse(o, o->keep_mode ? tmp : NULL, errno);
	}
	/* The replacement keeps the old file's owner and group, or nothing is replaced. */
	if (o->keep_mode && fchown(fd, o->uid, o->gid)) {
		int err = errno;

		close(fd);
		unlink(tmp);
		snprintf(tmp, sizeof(tmp), "cannot keep its owner %lu:%lu: %s",
			 (unsigned long)o->uid, (unsigned long)o->gid, strerror(err));
		return refuse(o, tmp, err);
	}
	close(fd);
	unlink(tmp);
	return 0;
}

FILE *stress_out_begin(struct stress_out *o)
{
	char tmp[4096];
	int fd, err;

	o->f = NULL;
	if (!o->target) {
		fd = fcntl(o->fd, F_DUPFD_CLOEXEC, 3);
	} else if (tmp_name(o, tmp, sizeof(tmp))) {
		fd = -1;
		errno = ENAMETOOLONG;
	} else {
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		/*
		 * The file replaced keeps its owner, then its permissions (the
		 * umask cut them above; chown may clear set-id bits).
		 */
		if (fd >= 0 && o->keep_mode && (fchown(fd, o->uid, o->gid) || fchmod(fd, o->mode))) {
			err = errno;
			close(fd);
			unlink(tmp);
			errno = err;
			fd = -1;
		}
	}
	if (fd >= 0 && !(o->f = fdopen(fd, "w"))) {
		err = errno;
		close(fd);
		if (o->target)
			unlink(tmp);
		errno = err;
	}
	if (!o->f)
		report_failure(false, o->path, errno);
	return o->f;
}

int stress_out_commit(struct stress_out *o)
{
	char tmp[4096];
	FILE *f = o->f;
	int err = 0;

	if (!f)
		return -1;
	o->f = NULL;
	if (!o->target)
		return stress_out_close(f, o->path);
	tmp_name(o, tmp, sizeof(tmp));
	/* The data on disk before the name points at it. */
	if (stress_out_check(f, o->path) && fsync(fileno(f)))
		err = errno;
	if (stress_out_close(f, o->path))
		err = err ? err : -1;
	else if (!err && rename(tmp, o->target))
		err = errno;
	if (err) {
		unlink(tmp);
		if (err > 0)
			report_failure(false, o->path, err);
		return -1;
	}
	return 0;
}

int stress_out_save(struct stress_out *o, const void *buf, size_t len)
{
	FILE *f = stress_out_begin(o);

	if (f)
		stress_out_write(f, o->path, buf, len);
	return stress_out_commit(o);
}

/* @path with its directory resolved (malloc), or NULL. */
static char *new_file_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[4096], *rdir, *out = NULL;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	rdir = realpath(dir, NULL);
	if (rdir && asprintf(&out, "%s/%s", rdir, slash ? slash + 1 : path) < 0)
		out = NULL;
	free(rdir);
	return out;
}

/*
 * Whether @a and @b name one file: the same inode, or (not there yet) the
 * same name in the same directory, through any symlinks and "..".
 */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	char *da, *db;
	bool same;

	if (!strcmp(a, b))
		return true;
	if (!stat(a, &sa) && !stat(b, &sb))
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	da = new_file_name(a);
	db = new_file_name(b);
	same = da && db && !strcmp(da, db);
	free(da);
	free(db);
	return same;
}

int stress_outputs_prepare(struct stress_config *cfg)
{
	/* The watchdog may write the JSON report until the process exits. */
	static struct stress_out json, replay;

	if (cfg->json_file) {
		if (stress_out_prepare(&json, cfg->json_file))
			return -1;
		cfg->json_out = &json;
	}
	if (cfg->replay_out) {
		if (cfg->json_file && same_file(cfg->json_file, cfg->replay_out)) {
			char a[2048], b[2048];

			fprintf(stderr, "stress: --json %s and --replay-out %s name the same file\n",
				stress_escape(cfg->json_file, a, sizeof(a)),
				stress_escape(cfg->replay_out, b, sizeof(b)));
			stress_out_release(&json);
			cfg->json_out = NULL;
			return -1;
		}
		if (stress_out_prepare(&replay, cfg->replay_out)) {
			stress_out_release(&json);
			cfg->json_out = NULL;
			return -1;
		}
		cfg->replay_sink = &replay;
	}
	return 0;
}

void stress_out_release(struct stress_out *o)
{
	if (o->fd >= 0)
		close(o->fd);
	free(o->target);
	memset(o, 0, sizeof(*o));
	o->fd = -1;
}

int stress_out_finish(int status)
{
	if (stress_out_close(stdout, "stdout") || any_failed)
		return STRESS_EXIT_INTERNAL;
	return status;
}
