/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run's tally (struct stress's "tally" member): tally.c writes it,
 * every other file of the engine reads it.
 */
#ifndef _STRESS_TALLY_H
#define _STRESS_TALLY_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include "config.h"

/* One tracked key (margin or soft event). */
struct stress_key {
	const char *name;
	atomic_ulong count;		/* checks (margins) or events (soft) */
	double worst, used, bound;	/* margins, under key_lock */
	_Atomic double worst_fast;	/* lock-free pre-test */
};

struct stress_failure {
	char invariant[64];
	int cls;		/* enum stress_class */
	int cpu;
	char msg[512];
	char *excerpt;		/* flight-recorder dump (malloc) */
};

/*
 * What the run's checks counted and the failures they recorded: written
 * by tally.c only (stress_margin(), stress_soft(), stress_fail() and
 * their kin), read by the reports and the watchdog's snapshot.
 */
struct run_tally {
	atomic_bool failed;
	atomic_ulong checks;
	struct stress_key margins[STRESS_MAX_KEYS];
	atomic_uint nr_margins;
	struct stress_key softs[STRESS_MAX_KEYS];
	atomic_uint nr_softs;
	pthread_mutex_t key_lock;

	pthread_mutex_t fail_lock;
	struct stress_failure failures[STRESS_MAX_FAILURES];
	unsigned int nr_failures;	/* recorded */
	unsigned long nr_fail_events;	/* including unrecorded */
};

void stress_tally_init(struct run_tally *t);
/* The failures' excerpts freed and the failures forgotten. */
void stress_tally_free(struct run_tally *t);
/*
 * @src copied into @dst by the watchdog: what the key and failure locks
 * guard only if they can be taken (the controller may hold one forever).
 */
void stress_tally_snapshot(struct run_tally *dst, struct run_tally *src);

#endif /* _STRESS_TALLY_H */
