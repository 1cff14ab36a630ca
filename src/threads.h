/* SPDX-License-Identifier: GPL-2.0 */
/*
 * threads.c: the workers (virtual CPUs and selectors), started, parked
 * at quiescent points and stopped.
 */
#ifndef _STRESS_THREADS_H
#define _STRESS_THREADS_H

#include <stdbool.h>
#include "run.h"

/* 0, 1: stopped by a signal first, -1: internal error (reported). */
int stress_threads_start(struct stress *s);
/* Park every worker, run quiescent(), resume; false when given up (stop, signal, deadline). */
bool stress_threads_quiesce(struct stress *s);
/* Stop and join every worker; false when the watchdog failed the run and some did not exit. */
bool stress_threads_stop(struct stress *s);
unsigned long stress_threads_ops(struct stress *s);
bool stress_threads_done(struct stress *s);
int stress_host_cores(int *cores, int max);
int stress_vcpu_nice(const struct stress_config *cfg, unsigned int nr_selectors);

#endif /* _STRESS_THREADS_H */
