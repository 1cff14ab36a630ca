/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bounds oom_race's invariants compare against, one predicate each, so
 * that tests/unit/test_stress_bounds.c drives each at its bound and one
 * step either side (docs/stress.md, oom_race's invariants).
 */
#ifndef _STRESS_OOM_BOUNDS_H
#define _STRESS_OOM_BOUNDS_H

#include <stdbool.h>
#include "mm/oom_select.h"
#include "scenario.h"

/* oom_invariants.c: what oom_race may fail with, these bounds among them. */
extern const struct stress_invariant oom_invariants[];

/* precise_budget: at most 16 precise evaluations, 16 sums per mm counter. */
static inline bool oom_budget_ok(unsigned long evals, unsigned long counter_sums)
{
	return evals <= OOM_MAX_PRECISE_BADNESS_SUMS &&
	       counter_sums <= NR_MM_COUNTERS * OOM_MAX_PRECISE_BADNESS_SUMS;
}

/* exact_in_window: with at most 16 tasks in the window the choice is exact. */
static inline bool oom_exact_due(unsigned long inwin)
{
	return inwin <= OOM_MAX_PRECISE_BADNESS_SUMS;
}

/* bounded_window: bounded's choice at most one window below the maximum. */
static inline bool oom_bounded_ok(long shortfall, unsigned long window)
{
	return shortfall <= (long)window;
}

/* v16_max_shortfall (--max-shortfall, < 0: none): at most that far below. */
static inline bool oom_v16_shortfall_ok(long shortfall, long max_shortfall)
{
	return max_shortfall < 0 || shortfall <= max_shortfall;
}

/*
 * task_churn: the task list holds at most the slots' tasks, one victim per
 * CPU (marked or reaped: one kill at a time per CPU), init and the kernel
 * thread.
 */
static inline bool oom_churn_ok(unsigned long tasks, unsigned long slots, unsigned long cpus)
{
	return tasks <= slots + cpus + 2;
}

#endif /* _STRESS_OOM_BOUNDS_H */
