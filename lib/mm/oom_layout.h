/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Constructed task layouts for tests and benchmarks: charge a fresh task
 * so that its settled approximate and precise badness are exactly what
 * the caller asks for (docs/spec/oom.md#oom-imprecision cases "to the page").
 */
#ifndef _MM_OOM_LAYOUT_H
#define _MM_OOM_LAYOUT_H

#include "oom_task.h"

/*
 * Charge @p (fresh mm, all counters zero, running on this thread) so that its
 * settled badness before adj is precise = @approx + @residual and approximate =
 * @approx. @approx >= 0; @residual <= 4 * T (docs/spec/hpcc.md#hpcc-settled).
 * The part of @approx that is not a multiple of the root's carry unit goes into
 * page-table bytes. Checks the result through the counter API: 0, or -1 (bad
 * arguments, or the library did not produce the layout). Moves the calling
 * thread across virtual CPUs and restores its CPU.
 */
int oom_layout_task(struct task_struct *p, long approx, unsigned long residual);

/* T for one counter at the current nr_cpu_ids and model batch. */
unsigned long oom_layout_counter_slack(void);

#endif /* _MM_OOM_LAYOUT_H */
