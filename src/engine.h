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
int stress_run(struct stress *s);	/* its verdict's exit status: 0, 1, 3, 4, 128 + signal */
void stress_build_reproducer(const struct stress_config *cfg, const struct scenario *sc,
			     unsigned long long seed, double duration, char *buf, size_t len);
double stress_now(void);
/* CPU time of the whole process so far, user + system, in microseconds (getrusage). */
unsigned long long stress_cpu_us(void);

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
