// SPDX-License-Identifier: GPL-2.0
/*
 * ./stress --replay FILE where FILE is a schedule the explorer saved
 * (docs/explore.md): the explorer of this binary's build runs it (its
 * --replay-schedule, under its watchdog), so that one command replays
 * either kind of counterexample. A replay file's first line is
 * "hpcc-stress-replay N"; a schedule's is "hpcc-stress-schedule N" (a
 * file of the first format starts with one of the explorer's keys: the
 * explorer refuses it with its own line).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "config.h"
#include "replay_explore.h"

/* The build's explorer, relative to this binary's directory unless absolute (mk/explore.mk). */
#ifndef STRESS_XP_BIN
#define STRESS_XP_BIN	"explore/explore"
#endif

static const char *const schedule_keys[] = {
	"hpcc-stress-schedule", "harness", "tasks", "forks", "algo", "cpus", "adds", "readers",
	"reads", "batch",
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
	char self[PATH_MAX], xp[PATH_MAX + 64], timeout[32], *slash;
	char *argv[6];
	ssize_t n;
	int i = 0;

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
	/* Beside this binary ($(BUILD)/stress), else its build's (the root's ./stress copy). */
	snprintf(xp, sizeof(xp), "%s/explore/explore", self);
	if (access(xp, X_OK))
		snprintf(xp, sizeof(xp), "%s%s%s", STRESS_XP_BIN[0] == '/' ? "" : self,
			 STRESS_XP_BIN[0] == '/' ? "" : "/", STRESS_XP_BIN);
	argv[i++] = xp;
	argv[i++] = "--replay-schedule";
	argv[i++] = (char *)cfg->replay_file;
	/* The watchdog's limit, when given; else the explorer's own for a replay. */
	if (cfg->stall_timeout > 0) {
		snprintf(timeout, sizeof(timeout), "%ld",
			 cfg->stall_timeout < 1 ? 1L : (long)(cfg->stall_timeout + 0.5));
		argv[i++] = "--timeout";
		argv[i++] = timeout;
	}
	argv[i] = NULL;
	fflush(NULL);
	execv(xp, argv);
	fprintf(stderr, "stress: %s is an explorer schedule and %s cannot run (%s): "
		"make explore builds it\n", cfg->replay_file, xp, strerror(errno));
	return STRESS_EXIT_USAGE;
}
