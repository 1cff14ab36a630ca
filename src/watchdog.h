/* SPDX-License-Identifier: GPL-2.0 */
/*
 * watchdog.c: an independent thread (see the comment at its top), and
 * sched.c, what the scheduler did with a thread (its starvation test).
 */
#ifndef _STRESS_WATCHDOG_H
#define _STRESS_WATCHDOG_H

#include <stdbool.h>
#include <stdio.h>
#include "run.h"

/* sched.c: what the scheduler did with a thread (the watchdog's starvation test). */
struct stress_sched {
	unsigned long long cpu_ns;	/* on a CPU */
	unsigned long long wait_ns;	/* runnable, waiting for a CPU */
	unsigned long long slices;	/* times it was given a CPU */
	bool runnable;			/* waiting for or on a CPU now */
};
bool stress_sched_read(int tid, struct stress_sched *out);
bool stress_sched_starved(const struct stress_sched *a, const struct stress_sched *b,
			  double secs);

/* watchdog.c: an independent thread; see the comment at its top. */
int stress_watchdog_start(const struct stress_config *cfg);
double stress_default_stall_timeout(const struct stress_config *cfg);	/* W */
double stress_stall_limit(const struct stress_config *cfg);	/* --stall-timeout, else W */
double stress_stop_limit(const struct stress_config *cfg);		/* S */
void stress_watch_run(struct stress *s, double deadline);
void stress_watch_phase(struct stress *s, enum stress_phase ph);
void stress_watch_beat(void);
void stress_watch_end(struct stress *s);
void stress_dump_threads(struct stress *s, FILE *out);	/* watchdog thread only */

#endif /* _STRESS_WATCHDOG_H */
