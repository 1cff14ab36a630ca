// SPDX-License-Identifier: GPL-2.0
/*
 * The add fast path: cost of an add of +1 for every variant at 1 and 2
 * threads over 2..256 virtual CPUs (thread i is virtual CPU i, pinned to
 * host core i % cores); then one thread per virtual CPU (oversubscribed).
 * Variants are interleaved in every repetition and the ratios are taken
 * within a repetition.
 *
 * The primary metric is thread CPU time per add: other work on a shared
 * machine preempts the threads, which inflates wall time but not CPU
 * time. The wall time per add and the concurrency (CPU time of all
 * threads over the wall span: 2.0 = both threads ran side by side all
 * along) are reported too; contention costs only show when it is ~2.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <kcompat/kcompat.h>
#include "util/child.h"
#include "bench.h"
#include "variants.h"

/*
 * Pair mode: progress is published every STEP adds, CPU time read once a
 * chunk, a 1/PAIR_CHUNKS of the loop (about 300 us in make bench): a read
 * of the thread CPU clock is a system call of about 1.4 us here, which in
 * chunks of a fixed 4,096 adds added 0.3 ns to every add and so
 * compressed the ratios of the cheap variants against the atomic.
 */
#define PAIR_STEP	256UL
#define PAIR_CHUNKS	64UL
#define PAIR_MIN_CHUNK	(16 * PAIR_STEP)

struct pair_slot {
	unsigned long progress __attribute__((aligned(128)));	/* adds done */
	unsigned long long ov_cpu;	/* CPU ns of the overlapped chunks */
	unsigned long ov_adds;		/* adds in the overlapped chunks */
};

struct add_run {
	const struct bench_cfg *cfg;
	struct bench_counters *bc;
	enum bench_variant v;
	unsigned int nthreads;
	unsigned long iters;
	unsigned long chunk;	/* 2 threads: adds per chunk */
	pthread_barrier_t start;
	/* Per thread: wall start/end, CPU time used. */
	unsigned long long *t0, *t1, *cpu;
	struct pair_slot pair[2];	/* 2 threads only */
};

struct add_thread {
	struct add_run *run;
	unsigned int id;
	pthread_t tid;
};

struct add_result {
	double wall;		/* mean per-thread wall ns per add */
	double cpu;		/* CPU ns of all threads per add */
	double concurrency;	/* CPU time of all threads / wall span */
	double span;		/* first start to last end, ns */
	double overlap_cpu;	/* 2 threads: CPU ns per add while both ran */
	double overlap_frac;	/* 2 threads: share of the adds made so */
};

/*
 * Two threads: run in chunks and keep the CPU time of the chunks during
 * which the other thread made at least 3/4 as many adds, i.e. ran side
 * by side with this one. That is the cost of a contended add, whatever
 * else preempts the threads on a shared machine.
 */
static void pair_loop(struct add_run *r, unsigned int id)
{
	struct pair_slot *me = &r->pair[id], *other = &r->pair[!id];
	unsigned long done = 0, n, k, seen;
	unsigned long long c0;

	while (done < r->iters) {
		n = r->iters - done < r->chunk ? r->iters - done : r->chunk;
		seen = __atomic_load_n(&other->progress, __ATOMIC_RELAXED);
		c0 = bench_thread_cpu_ns();
		for (k = 0; k < n; k += PAIR_STEP) {
			unsigned long step = n - k < PAIR_STEP ? n - k : PAIR_STEP;

			bench_add_loop(r->bc, r->v, step);
			__atomic_store_n(&me->progress, done + k + step, __ATOMIC_RELAXED);
		}
		c0 = bench_thread_cpu_ns() - c0;
		if (__atomic_load_n(&other->progress, __ATOMIC_RELAXED) - seen >= n * 3 / 4) {
			me->ov_cpu += c0;
			me->ov_adds += n;
		}
		done += n;
	}
}

static void *add_thread_fn(void *arg)
{
	struct add_thread *at = arg;
	struct add_run *r = at->run;
	unsigned int id = at->id;
	unsigned long long c0;

	bench_pin(r->cfg, id);
	kc_set_cpu(id);
	kc_cpu_hold();		/* the thread runs its vCPU (owned model) */
	pthread_barrier_wait(&r->start);
	c0 = bench_thread_cpu_ns();
	r->t0[id] = bench_now_ns();
	if (r->nthreads == 2)
		pair_loop(r, id);
	else
		bench_add_loop(r->bc, r->v, r->iters);
	r->t1[id] = bench_now_ns();
	r->cpu[id] = bench_thread_cpu_ns() - c0;
	kc_cpu_unhold();
	return NULL;
}

/*
 * Run @nthreads threads of @iters adds each. The timestamps are taken by
 * the threads: the main thread may run late on a busy machine.
 */
static int add_measure(const struct bench_cfg *cfg, struct bench_counters *bc,
		       enum bench_variant v, unsigned int nthreads,
		       unsigned long iters, struct add_result *res)
{
	struct add_thread *at = calloc(nthreads, sizeof(*at));
	unsigned long long *buf = calloc(3 * (size_t)nthreads, sizeof(*buf));
	struct add_run r = { .cfg = cfg, .bc = bc, .v = v, .nthreads = nthreads,
			     .iters = iters };
	unsigned long chunk = (iters / PAIR_CHUNKS + PAIR_STEP - 1) / PAIR_STEP * PAIR_STEP;
	unsigned long long first = ~0ULL, last = 0, cpu = 0;
	pthread_attr_t attr;
	double wall = 0;
	unsigned int i;

	if (!at || !buf) {
		free(at);
		free(buf);
		return -1;
	}
	r.chunk = chunk > PAIR_MIN_CHUNK ? chunk : PAIR_MIN_CHUNK;
	r.t0 = buf;
	r.t1 = buf + nthreads;
	r.cpu = buf + 2 * nthreads;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 << 10);
	pthread_barrier_init(&r.start, NULL, nthreads + 1);
	for (i = 0; i < nthreads; i++) {
		at[i] = (struct add_thread){ .run = &r, .id = i };
		if (pthread_create(&at[i].tid, &attr, add_thread_fn, &at[i])) {
			/* The barrier would never open: fail loudly, do not hang. */
			fprintf(stderr, "hpcc-bench: cannot start %u threads\n", nthreads);
			exit(3);
		}
	}
	pthread_barrier_wait(&r.start);
	for (i = 0; i < nthreads; i++)
		pthread_join(at[i].tid, NULL);
	pthread_barrier_destroy(&r.start);
	pthread_attr_destroy(&attr);
	for (i = 0; i < nthreads; i++) {
		wall += (double)(r.t1[i] - r.t0[i]) / iters;
		cpu += r.cpu[i];
		first = r.t0[i] < first ? r.t0[i] : first;
		last = r.t1[i] > last ? r.t1[i] : last;
	}
	res->wall = wall / nthreads;
	res->cpu = (double)cpu / ((double)iters * nthreads);
	res->span = last - first;
	res->concurrency = res->span > 0 ? cpu / res->span : 0;
	res->overlap_cpu = res->overlap_frac = NAN;
	if (nthreads == 2) {
		unsigned long adds = r.pair[0].ov_adds + r.pair[1].ov_adds;

		res->overlap_frac = (double)adds / (2.0 * iters);
		if (adds)
			res->overlap_cpu = (double)(r.pair[0].ov_cpu + r.pair[1].ov_cpu) / adds;
	}
	free(at);
	free(buf);
	return 0;
}

/* Powers of two from @lo to @hi; a quick run takes every third. */
static unsigned int sweep(const struct bench_cfg *cfg, unsigned int lo, unsigned int hi,
			  unsigned int *pts)
{
	unsigned int n = 0, x, step = cfg->quick ? 3 : 1, k = 0;

	for (x = lo; x <= hi && n < BENCH_MAX_POINTS; x *= 2, k++)
		if (k % step == 0 || x == hi)
			pts[n++] = x;
	return n;
}

struct add_point {
	double cpu[BV_NR_ADD][BENCH_MAX_REPS];
	double wall[BV_NR_ADD][BENCH_MAX_REPS];
	double conc[BV_NR_ADD][BENCH_MAX_REPS];
	double ov[BV_NR_ADD][BENCH_MAX_REPS];	/* 2 threads: overlapped CPU ns/add */
	double ovf[BV_NR_ADD][BENCH_MAX_REPS];	/* 2 threads: overlapped share */
	unsigned long iters[BV_NR_ADD];
	unsigned long total[BV_NR_ADD];		/* adds done, for the check */
};

/*
 * Measure every variant at the current nr_cpu_ids with @nthreads threads.
 * -1 if a counter's precise value disagrees with the adds made.
 */
static int add_point_run(const struct bench_cfg *cfg, unsigned int nthreads,
			 unsigned long iters_cap, struct add_point *p)
{
	struct bench_counters *bc = bench_counters_new(cfg->batch);
	struct add_result res;
	unsigned int rep, k;
	int v, ret = 0;

	if (!bc)
		return -1;
	/* Warm up and calibrate each variant on its wall span. */
	for (v = 0; v < BV_NR_ADD; v++) {
		unsigned long w = (cfg->quick ? 20000 : 200000) / nthreads + 1;

		if (add_measure(cfg, bc, v, nthreads, w, &res))
			goto fail;
		p->total[v] = w * nthreads;
		p->iters[v] = bench_iters(cfg, res.span / w, 1000, iters_cap);
	}
	for (rep = 0; rep < cfg->reps; rep++) {
		for (k = 0; k < BV_NR_ADD; k++) {
			v = (rep + k) % BV_NR_ADD;
			if (add_measure(cfg, bc, v, nthreads, p->iters[v], &res))
				goto fail;
			p->cpu[v][rep] = res.cpu;
			p->wall[v][rep] = res.wall;
			p->conc[v][rep] = res.concurrency;
			p->ov[v][rep] = res.overlap_cpu;
			p->ovf[v][rep] = res.overlap_frac;
			p->total[v] += p->iters[v] * nthreads;
		}
	}
	for (v = 0; v < BV_NR_ADD; v++) {
		long got = bench_precise(bc, v);

		if (got != (long)p->total[v]) {
			fprintf(stderr, "hpcc-bench: %s at %u CPUs: precise %ld != %lu adds\n",
				bench_variant_name[v], nr_cpu_ids, got, p->total[v]);
			ret = -1;
		}
	}
	bench_counters_free(bc);
	return ret;
fail:
	bench_counters_free(bc);
	return -1;
}

static void ratio(struct json *j, const char *key, const double *num, const double *den,
		  unsigned int reps)
{
	double r[BENCH_MAX_REPS];
	unsigned int i;

	for (i = 0; i < reps; i++)
		r[i] = num[i] / den[i];	/* NaN when either is: skipped by the stats */
	bench_kstats(j, key, r, reps);
}

static void per_variant(const struct bench_cfg *cfg, struct json *j, const char *key,
			const double (*x)[BENCH_MAX_REPS])
{
	int v;

	json_key(j, key);
	json_obj_begin(j);
	for (v = 0; v < BV_NR_ADD; v++)
		bench_kstats(j, bench_variant_name[v], x[v], cfg->reps);
	json_obj_end(j);
}

static void add_point_json(const struct bench_cfg *cfg, struct json *j,
			   const struct add_point *p, unsigned int threads)
{
	int v;

	json_obj_begin(j);
	json_ku64(j, "nr_cpus", nr_cpu_ids);
	json_ku64(j, "threads", threads);
	json_key(j, "iters");
	json_obj_begin(j);
	for (v = 0; v < BV_NR_ADD; v++)
		json_ku64(j, bench_variant_name[v], p->iters[v]);
	json_obj_end(j);
	per_variant(cfg, j, "ns_per_op", p->cpu);
	per_variant(cfg, j, "wall_ns_per_op", p->wall);
	per_variant(cfg, j, "concurrency", p->conc);
	if (threads == 2) {
		per_variant(cfg, j, "overlap_ns_per_op", p->ov);
		per_variant(cfg, j, "overlap_fraction", p->ovf);
	}
	json_key(j, "ratios");
	json_obj_begin(j);
	ratio(j, "hpcc_vs_split", p->cpu[BV_HPCC], p->cpu[BV_SPLIT], cfg->reps);
	ratio(j, "hpcc_vs_split_call", p->cpu[BV_HPCC], p->cpu[BV_SPLIT_CALL], cfg->reps);
	ratio(j, "atomic_vs_hpcc", p->cpu[BV_ATOMIC], p->cpu[BV_HPCC], cfg->reps);
	ratio(j, "percpu_counter_vs_hpcc", p->cpu[BV_KPCC], p->cpu[BV_HPCC], cfg->reps);
	if (threads == 2) {
		ratio(j, "hpcc_vs_split_overlap", p->ov[BV_HPCC], p->ov[BV_SPLIT], cfg->reps);
		ratio(j, "hpcc_vs_split_call_overlap", p->ov[BV_HPCC], p->ov[BV_SPLIT_CALL],
		      cfg->reps);
		ratio(j, "atomic_vs_hpcc_overlap", p->ov[BV_ATOMIC], p->ov[BV_HPCC], cfg->reps);
		ratio(j, "percpu_counter_vs_hpcc_overlap", p->ov[BV_KPCC], p->ov[BV_HPCC],
		      cfg->reps);
	}
	json_obj_end(j);
	json_obj_end(j);
}

static void progress(const struct bench_cfg *cfg, const char *what, unsigned int threads,
		     const struct add_point *p)
{
	int v;

	fprintf(stderr, "# %s cpus=%u threads=%u", what, nr_cpu_ids, threads);
	for (v = 0; v < BV_NR_ADD; v++)
		fprintf(stderr, " %s=%.2f", bench_variant_name[v],
			bench_median(p->cpu[v], cfg->reps));
	fprintf(stderr, " cpu-ns/op, atomic concurrency %.2f",
		bench_median(p->conc[BV_ATOMIC], cfg->reps));
	if (threads == 2)
		fprintf(stderr, ", side by side: atomic=%.2f hpcc=%.2f (%.0f%% of adds)",
			bench_median(p->ov[BV_ATOMIC], cfg->reps),
			bench_median(p->ov[BV_HPCC], cfg->reps),
			100 * bench_median(p->ovf[BV_ATOMIC], cfg->reps));
	fputc('\n', stderr);
}

struct add_child {
	const struct bench_cfg *cfg;
	struct add_point *p;
	unsigned int nr_cpus;
	bool oversub;		/* one thread per CPU, else 1 and 2 threads */
};

/* One CPU count's rows, in a process of its own: one boot each. */
static int add_child_fn(struct json *j, void *arg)
{
	const struct add_child *ac = arg;
	const struct bench_cfg *cfg = ac->cfg;
	unsigned int n = ac->nr_cpus, threads;
	int ret = 0;

	if (bench_set_cpus(n))
		return CHILD_POINT_NO_VALUE;
	if (ac->oversub) {
		/* Loops shrink with the thread count: the same total work. */
		ret = add_point_run(cfg, n, 50000000 / n + 1000, ac->p);
		add_point_json(cfg, j, ac->p, n);
		progress(cfg, "add_oversub", n, ac->p);
	} else {
		for (threads = 1; threads <= 2 && !ret; threads++) {
			ret = add_point_run(cfg, threads, 50000000, ac->p);
			add_point_json(cfg, j, ac->p, threads);
			progress(cfg, "add", threads, ac->p);
		}
	}
	return ret ? CHILD_POINT_CHECK_FAILED : CHILD_POINT_OK;
}

static int add_sweep(const struct bench_cfg *cfg, struct json *j, const char *key,
		     bool oversub)
{
	unsigned int pts[BENCH_MAX_POINTS], n = sweep(cfg, 2, cfg->max_add_cpus, pts);
	struct add_point *p = malloc(sizeof(*p));
	unsigned int i;
	int ret = 0;

	if (!p)
		return -1;
	json_key(j, key);
	json_arr_begin(j);
	for (i = 0; i < n && !ret; i++) {
		struct add_child ac = { cfg, p, pts[i], oversub };

		ret = json_point_in_child(j, "hpcc-bench", key, pts[i], add_child_fn, &ac);
	}
	json_arr_end(j);
	free(p);
	return ret ? -1 : 0;
}

int bench_add(const struct bench_cfg *cfg, struct json *j)
{
	return add_sweep(cfg, j, "add", false);
}

int bench_add_oversub(const struct bench_cfg *cfg, struct json *j)
{
	return add_sweep(cfg, j, "add_oversub", true);
}

int bench_add_once(const char *variant, unsigned int nr_cpus, unsigned long ops)
{
	struct bench_counters *bc;
	int v = bench_variant_parse(variant);

	if (v < 0 || bench_set_cpus(nr_cpus))
		return -1;
	bc = bench_counters_new(32);
	if (!bc)
		return -1;
	kc_set_cpu(0);
	kc_cpu_hold();
	bench_add_loop(bc, v, ops);
	kc_cpu_unhold();
	v = bench_precise(bc, v) == (long)ops ? 0 : -1;
	bench_counters_free(bc);
	return v;
}
