// SPDX-License-Identifier: GPL-2.0
/* One measurement point in a forked process of its own: see child.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "util/child.h"

int json_point_in_child(struct json *j, const char *prog, const char *what, unsigned int cpus,
			int (*fn)(struct json *cj, void *arg), void *arg)
{
	struct json cj = *j;
	int status;
	pid_t pid;

	fflush(NULL);	/* nothing buffered twice */
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "%s: cannot fork: %s\n", prog, strerror(errno));
		return CHILD_POINT_NO_VALUE;
	}
	if (!pid) {
		int ret = fn(&cj, arg);

		if (fflush(cj.f))
			ret = CHILD_POINT_NO_VALUE;
		/* exit, not _exit: sanitizers report at exit */
		exit(ret == CHILD_POINT_OK ? 0 : ret == CHILD_POINT_CHECK_FAILED ? 1 : 2);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			fprintf(stderr, "%s: waitpid: %s\n", prog, strerror(errno));
			return CHILD_POINT_NO_VALUE;
		}
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "%s: %s point at %u CPUs: %s\n", prog, what, cpus,
			strsignal(WTERMSIG(status)));
		return CHILD_POINT_NO_VALUE;
	}
	if (WEXITSTATUS(status) > 1)
		return CHILD_POINT_NO_VALUE;	/* the child said why */
	json_value_written(j);
	return WEXITSTATUS(status) ? CHILD_POINT_CHECK_FAILED : CHILD_POINT_OK;
}
