/* SPDX-License-Identifier: GPL-2.0 */
/*
 * engine.c: one scenario run from setup to verdict, and the engine's test
 * hooks.
 */
#ifndef _STRESS_ENGINE_H
#define _STRESS_ENGINE_H

#include "run.h"

/* Locks, shape, thread state, recorder, scenario setup: 0 or -1 (reported). */
int stress_run_prepare(struct stress *s);
/* The scenario's text and JSON report, captured before teardown. */
void stress_capture_reports(struct stress *s);
/* The fewest operations a run must do to be judged (docs/stress.md): one per vCPU. */
static inline unsigned long stress_min_ops(const struct stress_config *cfg)
{
	return cfg->nr_cpus;
}
/* A zeroed run object with identity @id (calloc; NULL: out of memory). */
struct stress *stress_run_new(const struct run_id *id);
/* The reproducer the reports print, for a run stress_run() does not build it for. */
void stress_set_reproducer(struct stress *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int stress_run(struct stress *s);	/* its verdict's exit status: 0, 1, 3, 4, 128 + signal */
void stress_build_reproducer(const struct stress_config *cfg, const struct scenario *sc,
			     unsigned long long seed, double duration, char *buf, size_t len);
double stress_now(void);
void stress_internal_error(struct stress *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The run gave up after reporting why (its verdict: internal error). */
void stress_gave_up(struct stress *s);
/* A quiescent point reached: counted, and the scenario's quiescent() run. */
void stress_quiescent_point(struct stress *s);
/*
 * The results of the watchdog's snapshot @c of the live run @s, read
 * without what the controller may be writing: its quiescent points and
 * startup as they stand, elapsed to @now and (if @threads_visible) the
 * operations once the threads run, checking as configured.
 */
void stress_result_forced(struct stress *c, struct stress *s, double now, bool threads_visible,
			  bool interrupted, bool starved);

/* The watchdog's failure (watchdog thread only; never blocks on a lock). */
void stress_fail_watchdog(struct stress *s, int cpu, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Engine test hooks (scenario.h), NULL outside the selftest scenario. */
static inline void stress_test_hook(struct stress *s, enum stress_hook where, unsigned int arg)
{
	if (__builtin_expect(stress_hook != NULL, 0))
		stress_hook(s, where, arg);
}

#endif /* _STRESS_ENGINE_H */
