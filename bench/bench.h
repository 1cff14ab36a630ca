/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hpcc-bench: what hpcc costs and buys, measured side by side with the
 * counters it replaces. See bench/README.md for the method.
 */
#ifndef _BENCH_BENCH_H
#define _BENCH_BENCH_H

#include <stdbool.h>
#include <stdio.h>
#include "util/json.h"

#define BENCH_MAX_REPS		101
#define BENCH_MAX_POINTS	32

struct bench_cfg {
	bool quick;		/* smoke run: tiny sizes, no claims */
	unsigned int reps;	/* repetitions per point (median of these) */
	unsigned long batch;	/* batch of every batched counter */
	unsigned int max_sum_cpus;	/* precise-sum sweep upper end */
	unsigned int max_add_cpus;	/* add sweep upper end */
	double target_ms;	/* wanted duration of one timed loop */
	unsigned int host_cpus;	/* cores the threads are pinned to (i % n) */
	unsigned long oom_tasks_max;	/* OOM table upper end */
	bool oom_table;		/* make bench-oom: 40..100000 tasks, a printed table */
};

/* timing.c */
unsigned long long bench_now_ns(void);
/* CPU time of the calling thread: immune to preemption by other work. */
unsigned long long bench_thread_cpu_ns(void);
double bench_median(const double *v, unsigned int n);
double bench_min(const double *v, unsigned int n);
double bench_max(const double *v, unsigned int n);
/* Pin the calling thread to host core @i % cfg->host_cpus. */
void bench_pin(const struct bench_cfg *cfg, unsigned int i);
unsigned int bench_host_cpus(void);
/* Iterations so that @ns_per_op * iters lasts about cfg->target_ms. */
unsigned long bench_iters(const struct bench_cfg *cfg, double ns_per_op,
			  unsigned long min, unsigned long max);
/*
 * Boot the process at @n virtual CPUs: the hpcc shape and the counter's
 * subsystem init. Once per process: a second call is refused.
 */
int bench_set_cpus(unsigned int n);
extern volatile unsigned long bench_sink;

/* Results go through the suite's one JSON writer (lib/util/json.h). */
/* "key": {"median":..,"min":..,"max":..} of @n samples. */
void bench_kstats(struct json *j, const char *key, const double *v, unsigned int n);

/* Sections: each writes one member of the top-level object. */
int bench_add(const struct bench_cfg *cfg, struct json *j);
int bench_add_oversub(const struct bench_cfg *cfg, struct json *j);
int bench_read(const struct bench_cfg *cfg, struct json *j);
int bench_shape(const struct bench_cfg *cfg, struct json *j);
int bench_oom(const struct bench_cfg *cfg, struct json *j);
/* One variant's add loop, single-threaded, for instruction counting. */
int bench_add_once(const char *variant, unsigned int nr_cpus, unsigned long ops);
/* b_raw.c: the raw add loop of bench/stress-throughput (one JSON line). */
int bench_raw_adds(const char *pattern, unsigned int nr_cpus, unsigned int threads,
		   unsigned long ops);

#endif /* _BENCH_BENCH_H */
