// SPDX-License-Identifier: GPL-2.0
/*
 * Read costs against nr_cpus (1..max_sum_cpus), one thread: the
 * approximate read (one or two loads) and the precise sum (one load per
 * possible CPU). Variants interleaved in every repetition; timed in thread
 * CPU time (see b_add.c).
 */
#include <math.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <kcompat/kcompat.h>
#include "util/child.h"
#include "bench.h"
#include "variants.h"

/* The split counter has no approximate read: its only read is the sum. */
static bool has_approx(int v)
{
	return v != BV_SPLIT;
}

struct read_point {
	unsigned int nr_cpus;
	double approx[BV_NR][BENCH_MAX_REPS];
	double precise[BV_NR][BENCH_MAX_REPS];
	unsigned long approx_iters[BV_NR], precise_iters[BV_NR];
};

static double time_loop(struct bench_counters *bc, int v, bool precise, unsigned long n)
{
	unsigned long long t0 = bench_thread_cpu_ns();

	if (precise)
		bench_precise_loop(bc, v, n);
	else
		bench_approx_loop(bc, v, n);
	return (double)(bench_thread_cpu_ns() - t0) / n;
}

static int read_point_run(const struct bench_cfg *cfg, struct read_point *p)
{
	struct bench_counters *bc = bench_counters_new(cfg->batch);
	unsigned int rep, k, cpu;
	int v, ret = 0;

	if (!bc)
		return -1;
	/* One add per CPU: every word is live and the sums are checkable. */
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		kc_set_cpu(cpu);
		for (v = 0; v < BV_NR; v++)
			bench_add_loop(bc, v, 1);
	}
	kc_set_cpu(0);
	for (v = 0; v < BV_NR; v++) {
		if (bench_precise(bc, v) != (long)nr_cpu_ids) {
			fprintf(stderr, "hpcc-bench: %s at %u CPUs: precise %ld != %u\n",
				bench_variant_name[v], nr_cpu_ids, bench_precise(bc, v),
				nr_cpu_ids);
			ret = -1;
		}
		p->approx_iters[v] = bench_iters(cfg, time_loop(bc, v, false, 1000),
						 1000, 200000000);
		p->precise_iters[v] = bench_iters(cfg, time_loop(bc, v, true, 100),
						  20, 200000000);
	}
	for (rep = 0; rep < cfg->reps; rep++) {
		for (k = 0; k < BV_NR; k++) {
			v = (rep + k) % BV_NR;
			p->approx[v][rep] = has_approx(v) ?
				time_loop(bc, v, false, p->approx_iters[v]) : NAN;
			p->precise[v][rep] = time_loop(bc, v, true, p->precise_iters[v]);
		}
	}
	bench_counters_free(bc);
	return ret;
}

static void ratio(struct json *j, const char *key, const double *num, const double *den,
		  unsigned int reps)
{
	double r[BENCH_MAX_REPS];
	unsigned int i;

	for (i = 0; i < reps; i++)
		r[i] = num[i] / den[i];
	bench_kstats(j, key, r, reps);
}

static void read_point_json(const struct bench_cfg *cfg, struct json *j,
			    const struct read_point *p)
{
	int v;

	json_obj_begin(j);
	json_ku64(j, "nr_cpus", p->nr_cpus);
	json_key(j, "approx_ns");
	json_obj_begin(j);
	for (v = 0; v < BV_NR; v++)
		if (has_approx(v))
			bench_kstats(j, bench_variant_name[v], p->approx[v], cfg->reps);
	json_obj_end(j);
	json_key(j, "precise_ns");
	json_obj_begin(j);
	for (v = 0; v < BV_NR; v++)
		bench_kstats(j, bench_variant_name[v], p->precise[v], cfg->reps);
	json_obj_end(j);
	json_key(j, "ratios");
	json_obj_begin(j);
	ratio(j, "hpcc_precise_vs_split", p->precise[BV_HPCC], p->precise[BV_SPLIT],
	      cfg->reps);
	ratio(j, "hpcc_approx_vs_atomic", p->approx[BV_HPCC], p->approx[BV_ATOMIC],
	      cfg->reps);
	ratio(j, "hpcc_precise_vs_approx", p->precise[BV_HPCC], p->approx[BV_HPCC],
	      cfg->reps);
	json_obj_end(j);
	json_obj_end(j);
}

/* Least squares y = a + b x over the points with x >= @from; r2 as well. */
static void fit_json(struct json *j, const char *key, const struct read_point *pts,
		     unsigned int n, int v, const struct bench_cfg *cfg, unsigned int from)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0, m = 0, a, b, r2, d;
	unsigned int i;

	for (i = 0; i < n; i++) {
		double x = pts[i].nr_cpus, y = bench_median(pts[i].precise[v], cfg->reps);

		if (pts[i].nr_cpus < from)
			continue;
		sx += x, sy += y, sxx += x * x, sxy += x * y, syy += y * y, m++;
	}
	d = m * sxx - sx * sx;
	b = d > 0 ? (m * sxy - sx * sy) / d : NAN;
	a = (sy - b * sx) / m;
	d = (m * sxx - sx * sx) * (m * syy - sy * sy);
	r2 = d > 0 ? pow(m * sxy - sx * sy, 2) / d : NAN;
	json_key(j, key);
	json_obj_begin(j);
	json_kdouble(j, "from_cpus", from);
	json_kdouble(j, "ns_per_cpu", b);
	json_kdouble(j, "intercept_ns", a);
	json_kdouble(j, "r2", r2);
	json_obj_end(j);
}

/*
 * Largest over smallest median approximate read of @v across the points,
 * or of @v's per-repetition ratio to @ref (ref >= 0).
 */
static double flatness(const struct bench_cfg *cfg, const struct read_point *pts,
		       unsigned int n, int v, int ref)
{
	double lo = INFINITY, hi = 0, r[BENCH_MAX_REPS], m;
	unsigned int i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < cfg->reps; k++)
			r[k] = pts[i].approx[v][k] / (ref < 0 ? 1 : pts[i].approx[ref][k]);
		m = bench_median(r, cfg->reps);
		lo = m < lo ? m : lo;
		hi = m > hi ? m : hi;
	}
	return hi / lo;
}

struct read_child {
	const struct bench_cfg *cfg;
	struct read_point *p;	/* shared with the parent: the fits need it */
};

/* One CPU count, in a process of its own: one boot each. */
static int read_child_fn(struct json *j, void *arg)
{
	const struct read_child *rc = arg;
	const struct bench_cfg *cfg = rc->cfg;
	struct read_point *p = rc->p;
	int ret;

	if (bench_set_cpus(p->nr_cpus))
		return CHILD_POINT_NO_VALUE;
	ret = read_point_run(cfg, p);
	read_point_json(cfg, j, p);
	fprintf(stderr, "# read cpus=%u hpcc approx=%.2f ns precise=%.1f ns"
		" split=%.1f ns percpu_counter=%.1f ns\n", p->nr_cpus,
		bench_median(p->approx[BV_HPCC], cfg->reps),
		bench_median(p->precise[BV_HPCC], cfg->reps),
		bench_median(p->precise[BV_SPLIT], cfg->reps),
		bench_median(p->precise[BV_KPCC], cfg->reps));
	return ret ? CHILD_POINT_CHECK_FAILED : CHILD_POINT_OK;
}

int bench_read(const struct bench_cfg *cfg, struct json *j)
{
	size_t len = BENCH_MAX_POINTS * sizeof(struct read_point);
	struct read_point *pts = mmap(NULL, len, PROT_READ | PROT_WRITE,
				      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	unsigned int n = 0, x;
	int v, ret = 0;

	if (pts == MAP_FAILED)
		return -1;
	json_key(j, "read");
	json_arr_begin(j);
	for (x = 1; x <= cfg->max_sum_cpus && n < BENCH_MAX_POINTS && !ret;
	     x *= cfg->quick ? 8 : 2) {
		struct read_child rc = { cfg, &pts[n] };

		pts[n].nr_cpus = x;
		ret = json_point_in_child(j, "hpcc-bench", "read", x, read_child_fn, &rc);
		if (ret == CHILD_POINT_NO_VALUE)
			break;
		n++;
	}
	json_arr_end(j);
	/* Linear in nr_cpus: fit the precise sums over the larger sizes. */
	json_key(j, "precise_fit");
	json_obj_begin(j);
	for (v = 0; v < BV_NR; v++)
		fit_json(j, bench_variant_name[v], pts, n, v, cfg, 64);
	json_obj_end(j);
	/* Flat in nr_cpus: largest over smallest median approximate read. */
	json_key(j, "approx_flatness");
	json_obj_begin(j);
	for (v = 0; v < BV_NR; v++)
		if (has_approx(v))
			json_kdouble(j, bench_variant_name[v], flatness(cfg, pts, n, v, -1));
	/* Against the atomic read of the same repetition: drift cancels out. */
	json_kdouble(j, "hpcc_vs_atomic", flatness(cfg, pts, n, BV_HPCC, BV_ATOMIC));
	json_obj_end(j);
	munmap(pts, len);
	return ret ? -1 : 0;
}
