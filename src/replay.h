/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Replay files and the serial replay mode (docs/regress.md). A replay
 * file pins down one serial run completely: the run's seed (hence every
 * virtual CPU's operation sequence), the configuration, the seed of the
 * serial schedule, the injection probabilities and the caps (steps,
 * operations per CPU). Replaying it is a pure function of the file.
 */
#ifndef _STRESS_REPLAY_H
#define _STRESS_REPLAY_H

#include <stdbool.h>
#include <stdio.h>
#include "config.h"
#include "output.h"
#include "run.h"

#define REPLAY_VERSION		2	/* version 1 (no 'end' line) is still read */
#define REPLAY_NO_CAP		(~0UL)
/* Reader limits: larger files are refused before they are parsed. */
#define REPLAY_MAX_BYTES	(1UL << 20)
#define REPLAY_MAX_LINES	256
#define REPLAY_MAX_STEPS	1000000000000ULL
#define REPLAY_MAX_ARGS		32	/* words in 'args' */
#define REPLAY_DEF_STEPS	1000000UL
#define REPLAY_DEF_SEARCH	8

struct replay {
	/* what runs */
	char scenario[64];
	char args[1024];		/* scenario options, as the command line gave them */
	unsigned int nr_cpus, nr_selectors;
	unsigned long batch;
	unsigned long long seed;	/* per-CPU operation sequences */
	/* how it is scheduled */
	unsigned long long sched_seed;
	double preempt;			/* P(switch at the injection point) */
	double hop;			/* P(migration at the injection point) */
	double selector_share;		/* fraction of steps given to selectors */
	unsigned long stutter_min, stutter_max;	/* steps between quiescent checks; 0: off */
	double hotplug;			/* P(CPUs change state) per quiescent check */
	unsigned long steps;		/* the run stops after this many steps */
	unsigned long *ops;		/* per-CPU cap on operations started; NULL: none */
	char expect[64];		/* the invariant this file reproduces ("" unknown) */
	char origin[256];		/* free text: where the file came from */
	/* the outcome, when the file was written after a serial run */
	bool has_result, failed;
	char invariant[64];
	unsigned long fail_step, hops, preempts, quiescent;
};

/* Defaults for a schedule of @nr_cpus CPUs (everything but the identity). */
void replay_init(struct replay *rp);
void replay_free(struct replay *rp);
int replay_copy(struct replay *dst, const struct replay *src);
/* @name is an invariant some run can report, or an older name of one (src/invariants.c). */
bool stress_invariant_known(const char *name);
/* What @name stands for now (an older name's new one), or NULL when unknown. */
const char *stress_invariant_canonical(const char *name);
/*
 * 0, or -1 with a one-line reason in @err (control bytes escaped). On
 * success every field is in range and consistent with the others: 'ops'
 * has nr_cpus entries, 'args' only options of the scenario.
 */
int replay_parse(const char *buf, size_t len, const char *name, struct replay *rp,
		 char *err, size_t errlen);
/* replay_parse() of the file's first REPLAY_MAX_BYTES + 1 bytes. */
int replay_load(const char *path, struct replay *rp, char *err, size_t errlen);
/* 0, or -1 with errno set. */
int replay_save(const char *path, const struct replay *rp);	/* our own files */
/* An output file (stress_out_prepare): 0, or -1 after one line. */
int replay_save_out(struct stress_out *o, const struct replay *rp);
/* The words of @args (quotes removed) into @argv, in @buf: count, or -1. */
int replay_args_argv(const char *args, char *buf, size_t len, char **argv, int max);
/* The words of @args that are options of @sc, as 'args' takes them: 0 or -1. */
int replay_args_for(const char *args, const struct scenario *sc, char *out, size_t len);
void replay_write(FILE *out, const struct replay *rp);
unsigned long replay_total_ops(const struct replay *rp);

/* serial.c: run @rp serially on this thread; fills the outcome fields. */
int serial_run(struct stress *s, struct replay *rp);

/*
 * replay.c: the run configuration @rp describes (through the option
 * parser, with @cli's output options): 0, or -1 after a message.
 */
int replay_to_config(const struct stress_config *cli, const struct replay *rp,
		     struct stress_config *cfg);
/* replay.c: --replay FILE (exit status as for a run). */
int stress_replay_main(const struct stress_config *cli);
/* replay_search.c: --shrink FILE. */
int stress_shrink_main(const struct stress_config *cli);
/*
 * After a failed concurrent run: write a replay file and search serial
 * schedules (bounded) for one that reproduces a failure. -1 when the
 * --replay-out file could not be written (said on stderr), else 0.
 */
int replay_after_failure(struct stress *s, FILE *out);
/*
 * Run @rp in a child process (a fresh ./stress --replay): 0 with the
 * outcome in @result, STRESS_EXIT_USAGE when the child refused the file,
 * STRESS_EXIT_INTERNAL when it could not run or report.
 */
int replay_trial(const struct replay *rp, struct replay *result, double timeout);

#endif /* _STRESS_REPLAY_H */
