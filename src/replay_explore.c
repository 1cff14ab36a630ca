// SPDX-License-Identifier: GPL-2.0
/*
 * ./stress --replay FILE where FILE is a schedule the explorer saved
 * (docs/explore.md): the explorer built beside this binary runs it
 * (its --replay-schedule), so that one command replays either kind of
 * counterexample. A replay file's first line is "hpcc-stress-replay N";
 * a schedule's first key is one of the explorer's.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "stress.h"

static const char *const schedule_keys[] = {
	"harness", "tasks", "forks", "algo", "cpus", "adds", "readers", "reads", "batch",
	"plant", "sizes", "schedule", "preemptions", "expect", NULL,
};

/* Only a regular file is looked at: a pipe is read once, by replay_load(). */
bool replay_is_schedule(const char *path)
{
	char line[256], *k;
	struct stat st;
	bool yes = false;
	FILE *f;
	int i;

	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return false;
	f = fopen(path, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		k = line + strspn(line, " \t");
		if (*k == '#' || *k == '\n' || !*k)
			continue;
		k[strcspn(k, " \t\r\n")] = '\0';
		for (i = 0; schedule_keys[i]; i++)
			yes |= !strcmp(k, schedule_keys[i]);
		break;
	}
	fclose(f);
	return yes;
}

/* Does not return on success; exit 2 with one line otherwise. */
int replay_run_schedule(const struct stress_config *cfg)
{
	char self[PATH_MAX], xp[PATH_MAX + 32], *slash;
	char *argv[4];
	ssize_t n;

	if (cfg->replay_out || cfg->json_file) {
		fprintf(stderr, "stress: %s: %s is an explorer schedule: its replay reports in "
			"KTAP only, and the schedule is already shrunk (docs/explore.md)\n",
			cfg->replay_out ? "--replay-out" : "--json", cfg->replay_file);
		return STRESS_EXIT_USAGE;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0) {
		fprintf(stderr, "stress: cannot find this binary to run the explorer: %s\n",
			strerror(errno));
		return STRESS_EXIT_USAGE;
	}
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (slash)
		*slash = '\0';
	snprintf(xp, sizeof(xp), "%s/explore/explore", self);
	argv[0] = xp;
	argv[1] = "--replay-schedule";
	argv[2] = (char *)cfg->replay_file;
	argv[3] = NULL;
	fflush(NULL);
	execv(xp, argv);
	fprintf(stderr, "stress: %s is an explorer schedule and %s cannot run (%s): "
		"make explore builds it\n", cfg->replay_file, xp, strerror(errno));
	return STRESS_EXIT_USAGE;
}
