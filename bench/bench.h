/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hpcc-bench: what hpcc costs and buys, measured side by side with the
 * counters it replaces. See bench/README.md for the method.
 */
#ifndef _BENCH_BENCH_H
#define _BENCH_BENCH_H

#include <stdbool.h>
#include <stdio.h>

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
/* Switch the process to @n virtual CPUs and re-select the hpcc shape. */
int bench_set_cpus(unsigned int n);
extern volatile unsigned long bench_sink;

/* json.c: a small streaming writer; commas and nesting are tracked. */
struct json {
	FILE *f;
	unsigned int depth;
	bool first[16];
	bool key_pending;
};
void json_begin(struct json *j, FILE *f);
void json_end(struct json *j);
void json_key(struct json *j, const char *key);
void json_obj_open(struct json *j);
void json_obj_close(struct json *j);
void json_arr_open(struct json *j);
void json_arr_close(struct json *j);
void json_str(struct json *j, const char *s);
void json_num(struct json *j, double v);
void json_ulong(struct json *j, unsigned long v);
void json_bool(struct json *j, bool v);
void json_null(struct json *j);
/* Shorthands for "key": value. */
void json_kstr(struct json *j, const char *key, const char *s);
void json_knum(struct json *j, const char *key, double v);
void json_kulong(struct json *j, const char *key, unsigned long v);
/* "key": {"median":..,"min":..,"max":..} of @n samples. */
void json_kstats(struct json *j, const char *key, const double *v, unsigned int n);

/* Sections: each writes one member of the top-level object. */
int bench_add(const struct bench_cfg *cfg, struct json *j);
int bench_add_oversub(const struct bench_cfg *cfg, struct json *j);
int bench_read(const struct bench_cfg *cfg, struct json *j);
int bench_shape(const struct bench_cfg *cfg, struct json *j);
int bench_oom(const struct bench_cfg *cfg, struct json *j);
/* One variant's add loop, single-threaded, for instruction counting. */
int bench_add_once(const char *variant, unsigned int nr_cpus, unsigned long ops);

#endif /* _BENCH_BENCH_H */
