// SPDX-License-Identifier: GPL-2.0
/* Clocks, medians, thread pinning and virtual-CPU switching. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <kcompat/kcompat.h>
#include <linux/percpu_counter_tree.h>
#include "bench.h"

volatile unsigned long bench_sink;

unsigned long long bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

unsigned long long bench_thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The non-NaN samples of @v, sorted, into @s; returns their number. */
static unsigned int sorted(const double *v, unsigned int n, double *s)
{
	unsigned int i, k = 0;

	for (i = 0; i < n && i < BENCH_MAX_REPS; i++)
		if (!isnan(v[i]))
			s[k++] = v[i];
	qsort(s, k, sizeof(*s), cmp_double);
	return k;
}

/* Statistics skip NaN samples (nothing measured); NaN if all are. */
double bench_median(const double *v, unsigned int n)
{
	double s[BENCH_MAX_REPS];

	n = sorted(v, n, s);
	if (!n)
		return NAN;
	return n & 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

double bench_min(const double *v, unsigned int n)
{
	double s[BENCH_MAX_REPS];

	return sorted(v, n, s) ? s[0] : NAN;
}

double bench_max(const double *v, unsigned int n)
{
	double s[BENCH_MAX_REPS];

	n = sorted(v, n, s);
	return n ? s[n - 1] : NAN;
}

unsigned int bench_host_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 1;
	return CPU_COUNT(&set) ? CPU_COUNT(&set) : 1;
}

void bench_pin(const struct bench_cfg *cfg, unsigned int i)
{
	cpu_set_t all, set;
	unsigned int k, cpu, want = i % cfg->host_cpus;

	/* The n-th allowed core, so that restricted affinity masks work. */
	if (sched_getaffinity(0, sizeof(all), &all))
		return;
	for (cpu = 0, k = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &all))
			continue;
		if (k++ == want) {
			CPU_ZERO(&set);
			CPU_SET(cpu, &set);
			pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
			return;
		}
	}
}

unsigned long bench_iters(const struct bench_cfg *cfg, double ns_per_op,
			  unsigned long min, unsigned long max)
{
	double n = cfg->target_ms * 1e6 / (ns_per_op > 0.01 ? ns_per_op : 0.01);

	if (n < min)
		return min;
	if (n > max)
		return max;
	return (unsigned long)n;
}

static unsigned int booted_cpus;

/*
 * One boot per process, as in the kernel: a tree's
 * percpu_counter_tree_subsystem_init() may keep static state from an
 * earlier call (a public version adds to its accuracy multiplier), so a
 * second boot would measure both topologies at once. Each CPU count runs
 * in a process of its own (json_point_in_child()).
 */
int bench_set_cpus(unsigned int n)
{
	if (booted_cpus) {
		fprintf(stderr, "%s: percpu_counter_tree_subsystem_init() already ran in this "
			"process (%u CPUs); a point at %u CPUs needs a process of its own\n",
			program_invocation_short_name, booted_cpus, n);
		return -1;
	}
	booted_cpus = n;
	if (kc_set_nr_cpu_ids(n))
		return -1;
	return percpu_counter_tree_subsystem_init() ? -1 : 0;
}

void bench_kstats(struct json *j, const char *key, const double *v, unsigned int n)
{
	json_kobj_begin(j, key);
	json_kdouble(j, "median", bench_median(v, n));
	json_kdouble(j, "min", bench_min(v, n));
	json_kdouble(j, "max", bench_max(v, n));
	json_obj_end(j);
}
