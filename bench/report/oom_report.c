// SPDX-License-Identifier: GPL-2.0
/*
 * hpcc-report: the measurements behind make report's OOM answers
 * (docs/report.md, docs/spec/oom.md#oom-v16, #oom-imprecision). One section
 * per run, one JSON object out; scripts/report renders it.
 *
 *   latency      one precise pass, v16's two passes, bounded, and one pass
 *                summing four percpu_counters a task (the posted "before"):
 *                CPU time per selection and the counter reads each made;
 *                then the same at one CPU count with kernel threads in the
 *                task list and with a writer charging the counters
 *   order        the posted three-wave workload: every OOM kill chosen by
 *                all three selections from the same state
 *   imprecision  shortfall of the two-pass victims against the true maximum,
 *                at quiescent points and with charges between the passes
 *   exact        one precise pass with hpcc sums against one with
 *                percpu_counter_sum() (pcc.h: the tree's lib/percpu_counter.c
 *                with KERNEL_SRC holding one, else our model, bench/kpcc.c)
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <kcompat/kcompat.h>
#include <mm/oom_select.h>
#include "shape/hpcc_shape.h"
#include "util/child.h"
#include "util/rng.h"
#include "../bench.h"
#include "pcc.h"

#define MAX_LIST	16
#define MAX_SEEDS	16

static struct {
	bool tiny;
	unsigned int reps;
	unsigned long seeds[MAX_SEEDS];
	unsigned int nr_seeds;
	unsigned long mem_mb;		/* per-CPU bytes a point may touch */
	long rss[48];			/* --rss-file: a measured RSS distribution */
	unsigned int nr_rss;
	unsigned int kthreads;		/* --kthreads-per-cpu: latency conditions */
} opt = { .reps = 0, .mem_mb = 2048, .kthreads = 5 };

static void die(const char *what, const char *val, const char *why)
{
	fprintf(stderr, "hpcc-report: bad %s '%s': %s\n", what, val, why);
	exit(2);
}

static unsigned long parse_num(const char *what, const char *s, unsigned long lo,
			       unsigned long hi)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-')
		die(what, s, "not a number");
	if (v < lo || v > hi)
		die(what, s, "out of range");
	return v;
}

/* A per-CPU footprint this large is not run (and is said so). */
static bool too_big(unsigned long tasks, unsigned int cpus, unsigned long bytes)
{
	return (double)tasks * cpus * bytes > (double)opt.mem_mb * (1 << 20);
}

static double pct(double *v, unsigned int n, double q)
{
	double *s = malloc(n * sizeof(*s));
	unsigned int i, k;
	double r;

	if (!n || !s) {
		free(s);
		return 0;
	}
	memcpy(s, v, n * sizeof(*s));
	for (i = 1; i < n; i++) {	/* insertion sort: n is small */
		double x = s[i];

		for (k = i; k > 0 && s[k - 1] > x; k--)
			s[k] = s[k - 1];
		s[k] = x;
	}
	k = (unsigned int)(q * (n - 1) + 0.999999);
	r = s[k < n ? k : n - 1];
	free(s);
	return r;
}

/* @pages into @member in a few adds from random CPUs (uneven residuals). */
static void charge(struct mm_struct *mm, int member, long pages, struct rng *rs,
		   struct pcc4 *k)
{
	int i;

	for (i = 0; i < 4; i++) {
		long part = i < 3 ? pages / 4 : pages - 3 * (pages / 4);

		kc_set_cpu(rng_below(rs, nr_cpu_ids));
		oom_mm_add(mm, member, part);
		if (k)
			pcc_add(k, member, part, oom_model_batch());
	}
	kc_set_cpu(0);
}

/* Once per process: bench_set_cpus() refuses a second boot (run_point()). */
static int setup_cpus(unsigned int cpus, unsigned long batch)
{
	if (bench_set_cpus(cpus) || oom_model_init(batch)) {
		fprintf(stderr, "hpcc-report: cannot set up %u CPUs, batch %lu\n", cpus, batch);
		return -1;
	}
	return 0;
}

/* One measurement point: its CPU count, and tasks, batch or seed. */
struct point {
	int (*fn)(struct json *j, const struct point *pt);
	const char *what;
	unsigned int cpus;
	unsigned long n;
	unsigned int m;			/* repetitions or rounds */
};

static int point_child(struct json *j, void *arg)
{
	const struct point *pt = arg;
	int ret;

	kc_set_cpu(0);
	kc_rcu_register_thread();
	ret = pt->fn(j, pt);
	kc_rcu_unregister_thread();
	return ret ? CHILD_POINT_NO_VALUE : CHILD_POINT_OK;
}

/* @pt in a forked child that boots the counter once (setup_cpus()). */
static int run_point(struct json *j, const struct point *pt)
{
	return json_point_in_child(j, "hpcc-report", pt->what, pt->cpus, point_child,
				   (void *)pt) ? -1 : 0;
}

static void json_accuracy(struct json *j, unsigned int cpus, unsigned long batch)
{
	struct hpcc_shape s;
	unsigned long u = 0, o = 0;

	oom_badness_accuracy(&u, &o);
	hpcc_shape_compute(&s, cpus, batch);
	json_ku64(j, "window_pages", u + o);
	json_ku64(j, "under_pages", u);
	json_ku64(j, "over_pages", o);
	json_ku64(j, "shape_window_pages", NR_MM_COUNTERS * (s.under + s.over));
	json_kdouble(j, "window_mb", (u + o) * 4096.0 / (1 << 20));
}

/* Which code serves each algorithm: the model, or the KERNEL_SRC tree's own. */
static void json_impl(struct json *j)
{
	int a;

	json_kobj_begin(j, "implementation");
	for (a = 0; a < OOM_NR_ALGOS; a++)
		json_kstr(j, oom_algo_names[a], oom_impl_describe(oom_impl_of(a)));
	json_obj_end(j);
}

/* --- 1. latency --- */

#define LAT_TOTALPAGES	(16UL << 20)
#define COL_TWIN	OOM_NR_ALGOS		/* the model's twin of a tree's algo */
#define COL_PCPU	(OOM_NR_ALGOS + 1)	/* one pass over percpu_counter sums */
#define NR_COLS		(OOM_NR_ALGOS + 2)
/* Per-CPU bytes a task costs here: hpcc's four counters and four s32s. */
#define LAT_TASK_BYTES	64

static bool have_twin(void)
{
	return oom_kernel_algo() != OOM_NR_ALGOS;
}

/*
 * The task list of a latency point, in walk order: kernel threads first
 * (made at boot), then the processes. Each process has four
 * percpu_counters beside its hpcc counters, charged with the same adds.
 */
struct lat_set {
	struct task_struct **p;
	void *k;			/* pcc_size() bytes an entry; kthreads: unused */
	unsigned long n;
	long hog;
};

/*
 * The one-pass selection the posted series replaced: walk every process,
 * skip the kernel threads as oom_unkillable_task() does, sum the four
 * percpu_counters of each mm, keep the largest. Returns the victim's pid.
 */
static long pcpu_one_pass(const struct lat_set *ls, struct oom_select_stats *st)
{
	long best = LONG_MIN, pid = 0;
	unsigned long i;
	int m;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < ls->n; i++) {
		struct task_struct *p = ls->p[i];
		long pts = 0;

		if (p->flags & PF_KTHREAD)
			continue;
		for (m = 0; m < NR_MM_COUNTERS; m++)
			pts += pcc_sum(pcc_at(ls->k, i), m);
		st->precise_counter_sums += NR_MM_COUNTERS;
		st->precise_evals++;
		if (pts > best) {
			best = pts;
			pid = p->pid;
		}
	}
	return pid;
}

static long run_col(int col, const struct lat_set *ls, struct oom_select_stats *st)
{
	if (col == COL_PCPU)
		return pcpu_one_pass(ls, st);
	if (col == COL_TWIN)
		return oom_select_run(oom_kernel_algo(), true, LAT_TOTALPAGES, st);
	return oom_select_run(col, false, LAT_TOTALPAGES, st);
}

static const char *col_name(int col)
{
	if (col == COL_PCPU)
		return "percpu_counter";
	return col == COL_TWIN ? "model_twin" : oom_algo_names[col];
}

/* @pages into @member of process @i: hpcc and its percpu_counter alike. */
static void lat_charge(struct lat_set *ls, unsigned long i, int member, long pages,
		       struct rng *rs)
{
	charge(ls->p[i]->mm, member, pages, rs, pcc_at(ls->k, i));
}

/* The v16 benchmark's task set: one 1,000,000-page task among small ones. */
static int lat_populate(struct lat_set *ls, unsigned long tasks, unsigned int kthreads)
{
	struct oom_task_attr attr = { 0 }, kattr = { .kthread = true };
	struct rng rs;
	unsigned long i, nk = (unsigned long)kthreads * nr_cpu_ids;

	ls->n = 0;
	ls->p = calloc(nk + tasks, sizeof(*ls->p));
	ls->k = calloc(nk + tasks, pcc_size());
	if (!ls->p || !ls->k)
		return -1;
	for (i = 0; i < nk; i++) {
		ls->p[ls->n] = oom_task_create(&kattr);
		if (!ls->p[ls->n])
			return -1;
		ls->n++;
	}
	rng_init(&rs, opt.seeds[0] * 1000003 + tasks);
	for (i = 0; i < tasks; i++) {
		long pages = i == tasks / 2 ? 1000000 : 1000 + (long)rng_below(&rs, 20000);
		unsigned long x = ls->n;

		ls->p[x] = oom_task_create(&attr);
		if (!ls->p[x] || pcc_init(pcc_at(ls->k, x)))
			return -1;
		ls->n++;
		lat_charge(ls, x, MM_ANONPAGES, pages - pages / 4, &rs);
		lat_charge(ls, x, MM_FILEPAGES, pages / 4, &rs);
		if (i == tasks / 2)
			ls->hog = ls->p[x]->pid;
	}
	return 0;
}

static void lat_free(struct lat_set *ls)
{
	unsigned long i;

	for (i = 0; ls->k && i < ls->n; i++)
		pcc_destroy(pcc_at(ls->k, i));
	free(ls->k);
	free(ls->p);
}

/*
 * A writer: a thread on CPUs 1..N-1 (never the selecting CPU 0) that
 * charges a page to a random process and takes it back, on both counters,
 * until told to stop. Totals do not move, so every selection still has
 * the same victim; the selection reads lines the writer dirties.
 */
struct lat_writer {
	pthread_t th;
	struct lat_set *ls;
	unsigned long first;		/* index of the first process */
	atomic_bool stop;
	atomic_ulong ops;
};

static void *writer_fn(void *arg)
{
	struct lat_writer *w = arg;
	struct lat_set *ls = w->ls;
	unsigned long procs = ls->n - w->first;
	struct rng rs;

	rng_init(&rs, opt.seeds[0] * 7 + 1);
	while (!atomic_load_explicit(&w->stop, memory_order_relaxed)) {
		unsigned long i = w->first + rng_below(&rs, procs);
		int m = rng_below(&rs, 2) ? MM_ANONPAGES : MM_FILEPAGES, s;

		kc_set_cpu(1 + rng_below(&rs, nr_cpu_ids - 1));
		for (s = 1; s >= -1; s -= 2) {
			oom_mm_add(ls->p[i]->mm, m, s);
			pcc_add(pcc_at(ls->k, i), m, s, oom_model_batch());
		}
		atomic_fetch_add_explicit(&w->ops, 2, memory_order_relaxed);
	}
	return NULL;
}

static int latency_point(struct json *j, unsigned int cpus, unsigned long tasks,
			 unsigned int reps, unsigned int kthreads, bool writer)
{
	double lat[NR_COLS][BENCH_MAX_REPS], r[BENCH_MAX_REPS], wops[BENCH_MAX_REPS];
	struct oom_select_stats st[NR_COLS];
	struct lat_set ls = { .hog = -1 };
	struct lat_writer w = { .stop = false };
	long victim[NR_COLS];
	int cols[NR_COLS], ncols = 0, a, ret = 0;
	unsigned int rep, k;
	bool wrun = false;

	for (a = 0; a < OOM_NR_ALGOS; a++)
		cols[ncols++] = a;
	if (have_twin())
		cols[ncols++] = COL_TWIN;
	cols[ncols++] = COL_PCPU;
	json_obj_begin(j);
	json_ku64(j, "nr_cpus", cpus);
	json_ku64(j, "tasks", tasks);
	json_ku64(j, "kthreads", (unsigned long)kthreads * cpus);
	json_kbool(j, "writer", writer);
	json_kdouble(j, "per_cpu_mb", tasks * cpus * (double)LAT_TASK_BYTES / (1 << 20));
	if (too_big(tasks, cpus, LAT_TASK_BYTES)) {
		json_kstr(j, "skipped", "per-CPU footprint above --mem-mb");
		json_obj_end(j);
		return 0;
	}
	if (setup_cpus(cpus, 32) || lat_populate(&ls, tasks, kthreads)) {
		fprintf(stderr, "hpcc-report: cannot create %lu tasks at %u CPUs\n", tasks, cpus);
		ret = -1;
		goto out;
	}
	w.ls = &ls;
	w.first = (unsigned long)kthreads * cpus;
	if (writer) {
		if (cpus < 2 || pthread_create(&w.th, NULL, writer_fn, &w)) {
			fprintf(stderr, "hpcc-report: cannot start a writer at %u CPUs\n", cpus);
			ret = -1;
			goto out;
		}
		wrun = true;
		/* Time nothing before the writer has made its first adds. */
		for (k = 0; k < 100000000 && !atomic_load(&w.ops); k++)
			sched_yield();
	}
	for (rep = 0; rep < reps; rep++) {
		unsigned long ops0 = atomic_load(&w.ops);

		for (k = 0; k < (unsigned int)ncols; k++) {
			unsigned long long t0;

			a = cols[(rep + k) % ncols];
			if (tasks * cpus <= 4000000UL)	/* warm, where cheap */
				run_col(a, &ls, &st[a]);
			t0 = bench_thread_cpu_ns();
			victim[a] = run_col(a, &ls, &st[a]);
			lat[a][rep] = (bench_thread_cpu_ns() - t0) / 1e3;
		}
		wops[rep] = (double)(atomic_load(&w.ops) - ops0) / ncols;
	}
	json_kobj_begin(j, "latency_us");
	for (k = 0; k < (unsigned int)ncols; k++)
		bench_kstats(j, col_name(cols[k]), lat[cols[k]], reps);
	json_obj_end(j);
	if (writer)	/* how much writing a selection overlapped, not its cost */
		bench_kstats(j, "writer_ops_per_selection", wops, reps);
	json_kobj_begin(j, "ratios");
	for (rep = 0; rep < reps; rep++)
		r[rep] = lat[OOM_ALGO_PRECISE][rep] / lat[OOM_ALGO_V16][rep];
	bench_kstats(j, "precise_vs_v16", r, reps);
	for (rep = 0; rep < reps; rep++)
		r[rep] = lat[OOM_ALGO_PRECISE][rep] / lat[OOM_ALGO_BOUNDED][rep];
	bench_kstats(j, "precise_vs_bounded", r, reps);
	for (rep = 0; rep < reps; rep++)
		r[rep] = lat[COL_PCPU][rep] / lat[OOM_ALGO_V16][rep];
	bench_kstats(j, "percpu_counter_vs_v16", r, reps);
	if (have_twin()) {
		for (rep = 0; rep < reps; rep++)
			r[rep] = lat[oom_kernel_algo()][rep] / lat[COL_TWIN][rep];
		bench_kstats(j, "kernel_vs_model", r, reps);
		for (rep = 0; rep < reps; rep++)
			r[rep] = lat[COL_PCPU][rep] / lat[oom_kernel_algo()][rep];
		bench_kstats(j, "percpu_counter_vs_kernel", r, reps);
	}
	json_obj_end(j);
	json_kobj_begin(j, "reads");
	for (k = 0; k < (unsigned int)ncols; k++) {
		a = cols[k];
		json_kobj_begin(j, col_name(a));
		json_ku64(j, "precise_sums", st[a].precise_counter_sums);
		json_ku64(j, "approx_reads", st[a].approx_counter_reads);
		json_ku64(j, "percpu_words", st[a].precise_counter_sums * cpus);
		json_ku64(j, "precise_evals", st[a].precise_evals);
		json_ku64(j, "approx_evals", st[a].approx_evals);
		json_kbool(j, "chose_hog", victim[a] == ls.hog);
		json_obj_end(j);
		if ((a == OOM_ALGO_PRECISE || a == COL_PCPU) && victim[a] != ls.hog) {
			fprintf(stderr, "hpcc-report: the %s pass missed the hog\n", col_name(a));
			ret = -1;
		}
	}
	json_obj_end(j);
out:
	if (wrun) {
		atomic_store(&w.stop, true);
		pthread_join(w.th, NULL);
	}
	json_obj_end(j);
	lat_free(&ls);
	oom_model_reset();
	return ret;
}

static unsigned int lat_kthreads;
static bool lat_writer;

static int latency_fn(struct json *j, const struct point *pt)
{
	return latency_point(j, pt->cpus, pt->n, pt->m, lat_kthreads, lat_writer);
}

/*
 * Every point quiescent with processes only; then, at @ccpus, each of
 * @ctasks under the four conditions: kernel threads in the list (kthreads
 * per CPU, as a guest has), a writer, both, neither (the same run's base).
 */
static int sec_latency(struct json *j, const unsigned int *cpus, unsigned int nc,
		       const unsigned long *tasks, unsigned int nt, unsigned int ccpus,
		       const unsigned long *ctasks, unsigned int nct)
{
	unsigned int c, t, v;

	json_impl(j);
	if (have_twin())
		json_kstr(j, "model_twin", oom_algo_names[oom_kernel_algo()]);
	json_ku64(j, "kthreads_per_cpu", opt.kthreads);
	json_karr_begin(j, "points");
	for (c = 0; c < nc; c++)
		for (t = 0; t < nt; t++) {
			struct point pt = { latency_fn, "latency", cpus[c], tasks[t], opt.reps };

			if (run_point(j, &pt))
				return -1;
		}
	json_arr_end(j);
	json_karr_begin(j, "conditions");
	for (t = 0; t < nct; t++)
		for (v = 0; v < 4; v++) {
			struct point pt = { latency_fn, "latency", ccpus, ctasks[t], opt.reps };

			lat_kthreads = v & 1 ? opt.kthreads : 0;
			lat_writer = v & 2;
			if (run_point(j, &pt))
				return -1;
		}
	json_arr_end(j);
	lat_kthreads = 0;
	lat_writer = false;
	return 0;
}

/* --- 2. kill order --- */

#define ORD_TASKS	30
#define ORD_CPUS	256
#define ORD_TOTAL	(32UL << 20)	/* 128 GiB of 4 KiB pages */
#define ORD_RATE	20000L		/* pages per simulated second */
#define ORD_DT_MS	50

/* The three waves start at 0 s, 5 s and 7 s (5 s, then 2 s apart). */
static const int wave_start_ms[3] = { 0, 5000, 7000 };

/*
 * One configuration of the workload. The posted test: adj 0 everywhere
 * (spread 0), 20,000 pages/s, 256 CPUs; the others are its sensitivity.
 */
struct ord_cfg {
	long rate;			/* pages per simulated second */
	int adj_spread;			/* multiplies the adj pattern */
	unsigned int cpus;
	bool detail;			/* every kill's three victims in the JSON */
};

/* Spread s: index in wave -> s x { 0, 1, -1, 2, 0, 0, -2, 0, 0, 0 }. */
static short ord_adj(const struct ord_cfg *c, int i)
{
	static const short adj[10] = { 0, 1, -1, 2, 0, 0, -2, 0, 0, 0 };

	return (short)(adj[i % 10] * c->adj_spread);
}

struct ord_task {
	struct task_struct *p;
	long pid, rss;
	short adj;
	bool dead;
};

static long true_badness(const struct ord_task *t)
{
	return t->rss + t->adj * (long)(ORD_TOTAL / 1000);
}

static struct ord_task *ord_find(struct ord_task *t, long pid)
{
	int i;

	for (i = 0; i < ORD_TASKS; i++)
		if (t[i].pid == pid && !t[i].dead)
			return &t[i];
	return NULL;
}

/* A victim chosen over a live task of higher oom_score_adj and higher badness. */
static bool adj_inverted(struct ord_task *t, const struct ord_task *v)
{
	int i;

	for (i = 0; i < ORD_TASKS; i++)
		if (!t[i].dead && &t[i] != v && t[i].adj > v->adj &&
		    true_badness(&t[i]) > true_badness(v))
			return true;
	return false;
}

/* Live tasks whose true badness lies within @w pages of the largest, @top. */
static int ord_within(struct ord_task *t, long top, unsigned long w)
{
	int i, n = 0;

	for (i = 0; i < ORD_TASKS; i++)
		n += !t[i].dead && true_badness(&t[i]) >= top - (long)w;
	return n;
}

static int ord_run(struct json *j, const struct ord_cfg *c, unsigned long seed)
{
	struct ord_task t[ORD_TASKS];
	struct rng rs;
	int i, a, kills = 0, ms, first_div[OOM_NR_ALGOS], inv[OOM_NR_ALGOS] = { 0 };
	int differ[OOM_NR_ALGOS] = { 0 }, seq[OOM_NR_ALGOS][ORD_TASKS];
	long freed_short[OOM_NR_ALGOS][ORD_TASKS], fs_max[OOM_NR_ALGOS] = { 0 };
	long fs_sum[OOM_NR_ALGOS] = { 0 }, bad_short[OOM_NR_ALGOS] = { 0 };
	unsigned long u = 0, o = 0;

	for (a = 0; a < OOM_NR_ALGOS; a++)
		first_div[a] = -1;
	if (setup_cpus(c->cpus, 32))
		return -1;
	oom_badness_accuracy(&u, &o);
	rng_init(&rs, seed * 7919 + 29);
	for (i = 0; i < ORD_TASKS; i++) {
		struct oom_task_attr attr = { .oom_score_adj = ord_adj(c, i) };

		t[i].p = oom_task_create(&attr);
		if (!t[i].p)
			return -1;
		oom_set_score_adj(t[i].p, ord_adj(c, i));
		t[i].pid = t[i].p->pid;
		t[i].rss = 0;
		t[i].adj = ord_adj(c, i);
		t[i].dead = false;
	}
	json_obj_begin(j);
	json_ku64(j, "seed", seed);
	json_ku64(j, "window_pages", u + o);
	json_ku64(j, "over_pages", o);
	if (c->detail)
		json_karr_begin(j, "kills");
	for (ms = 0; kills < ORD_TASKS - 1 && ms < 600000; ms += ORD_DT_MS) {
		long used = 0, chosen[OOM_NR_ALGOS];
		struct ord_task *v[OOM_NR_ALGOS];
		struct oom_select_stats st[OOM_NR_ALGOS];

		for (i = 0; i < ORD_TASKS; i++) {
			long step = c->rate * ORD_DT_MS / 1000;

			if (t[i].dead || ms < wave_start_ms[i / 10])
				continue;
			/*
			 * The task runs on one to four CPUs within a tick (it
			 * migrates): each share of its faults is charged there.
			 */
			int k, nk = 1 + rng_below(&rs, 4);

			for (k = 0; k < nk; k++) {
				long part = k < nk - 1 ? step / nk : step - (nk - 1) * (step / nk);

				kc_set_cpu(rng_below(&rs, nr_cpu_ids));
				oom_mm_add(t[i].p->mm, MM_ANONPAGES, part);
			}
			t[i].rss += step;
		}
		kc_set_cpu(0);
		for (i = 0; i < ORD_TASKS; i++)
			used += t[i].dead ? 0 : t[i].rss;
		if (used <= (long)ORD_TOTAL)
			continue;
		for (a = 0; a < OOM_NR_ALGOS; a++) {
			memset(&st[a], 0, sizeof(st[a]));
			chosen[a] = oom_select_run(a, false, ORD_TOTAL, &st[a]);
			v[a] = ord_find(t, chosen[a]);
			if (!v[a]) {
				fprintf(stderr, "hpcc-report: %s chose no live task\n",
					oom_algo_names[a]);
				return -1;
			}
		}
		if (c->detail) {
			json_obj_begin(j);
			json_kdouble(j, "t_s", ms / 1000.0);
			/* How crowded the top was: what exhausts v16's 16 sums. */
			json_ku64(j, "within_window",
				  ord_within(t, true_badness(v[OOM_ALGO_PRECISE]), u + o));
			/* Those v16's filter lets through once it holds an exact max. */
			json_ku64(j, "within_over",
				  ord_within(t, true_badness(v[OOM_ALGO_PRECISE]), o));
		}
		for (a = 0; a < OOM_NR_ALGOS; a++) {
			int idx = v[a] - t;

			if (c->detail) {
				json_kobj_begin(j, oom_algo_names[a]);
				json_ku64(j, "task", idx);
				json_ku64(j, "wave", idx / 10 + 1);
				json_ki64(j, "adj", v[a]->adj);
				json_ki64(j, "rss", v[a]->rss);
				json_ki64(j, "badness", true_badness(v[a]));
				json_kbool(j, "adj_inverted", adj_inverted(t, v[a]));
				json_ku64(j, "budget_hits", st[a].budget_hits);
				json_ku64(j, "fallback_selects", st[a].fallback_selects);
				json_obj_end(j);
			}
			seq[a][kills] = idx;
			freed_short[a][kills] = v[OOM_ALGO_PRECISE]->rss - v[a]->rss;
			fs_sum[a] += freed_short[a][kills];
			if (freed_short[a][kills] > fs_max[a])
				fs_max[a] = freed_short[a][kills];
			inv[a] += adj_inverted(t, v[a]);
			bad_short[a] = max(bad_short[a], true_badness(v[OOM_ALGO_PRECISE]) -
						       true_badness(v[a]));
			if (v[a] != v[OOM_ALGO_PRECISE]) {
				differ[a]++;
				if (first_div[a] < 0)
					first_div[a] = kills;
			}
		}
		if (c->detail)
			json_obj_end(j);
		/* The timeline follows the precise choice: it exits, its memory is freed. */
		oom_task_exit(v[OOM_ALGO_PRECISE]->p);
		v[OOM_ALGO_PRECISE]->dead = true;
		kills++;
	}
	if (c->detail)
		json_arr_end(j);
	json_kobj_begin(j, "summary");
	for (a = 0; a < OOM_NR_ALGOS; a++) {
		json_kobj_begin(j, oom_algo_names[a]);
		json_ki64(j, "first_divergence", first_div[a]);
		json_ki64(j, "kills_differing", differ[a]);
		json_ki64(j, "adj_inversions", inv[a]);
		json_ki64(j, "freed_shortfall_max", fs_max[a]);
		json_ki64(j, "freed_shortfall_sum", fs_sum[a]);
		json_ki64(j, "badness_shortfall_max", bad_short[a]);
		/* The victims in kill order: identical runs are counted once. */
		json_karr_begin(j, "sequence");
		for (i = 0; i < kills; i++)
			json_u64(j, seq[a][i]);
		json_arr_end(j);
		json_obj_end(j);
	}
	json_obj_end(j);
	json_ki64(j, "nr_kills", kills);
	json_obj_end(j);
	oom_model_reset();
	return inv[OOM_ALGO_PRECISE] ? -1 : 0;
}

static const struct ord_cfg *ord_cur;

static int ord_fn(struct json *j, const struct point *pt)
{
	return ord_run(j, ord_cur, pt->n);
}

static int ord_accuracy_fn(struct json *j, const struct point *pt)
{
	if (setup_cpus(pt->cpus, pt->n))
		return -1;
	json_obj_begin(j);
	json_accuracy(j, pt->cpus, pt->n);
	json_obj_end(j);
	return 0;
}

/* Every seed of one configuration, under @key. */
static int ord_runs(struct json *j, const char *key, const struct ord_cfg *c)
{
	unsigned int s;

	ord_cur = c;
	json_karr_begin(j, key);
	for (s = 0; s < opt.nr_seeds; s++) {
		struct point pt = { ord_fn, "order", c->cpus, opt.seeds[s], 0 };

		if (run_point(j, &pt))
			return -1;
	}
	json_arr_end(j);
	return 0;
}

static void ord_cfg_json(struct json *j, const struct ord_cfg *c)
{
	json_ki64(j, "rate_pages_per_s", c->rate);
	json_ki64(j, "adj_spread", c->adj_spread);
	json_ku64(j, "nr_cpus", c->cpus);
}

static int sec_order(struct json *j)
{
	static const struct ord_cfg posted = { ORD_RATE, 0, ORD_CPUS, true };
	/* One knob at a time around the posted test: rate, adj spread, CPUs. */
	static const struct ord_cfg sens_full[] = {
		{ 5000, 0, ORD_CPUS, false }, { 262144, 0, ORD_CPUS, false },
		{ ORD_RATE, 1, ORD_CPUS, false }, { ORD_RATE, 4, ORD_CPUS, false },
		{ ORD_RATE, 0, 64, false }, { ORD_RATE, 0, 1024, false },
	};
	static const struct ord_cfg sens_tiny[] = { { ORD_RATE, 1, 16, false } };
	const struct ord_cfg *sens = opt.tiny ? sens_tiny : sens_full;
	unsigned int s, ns = opt.tiny ? ARRAY_SIZE(sens_tiny) : ARRAY_SIZE(sens_full);
	const struct point acc = { ord_accuracy_fn, "order accuracy", ORD_CPUS, 32, 0 };

	json_ku64(j, "nr_cpus", ORD_CPUS);
	json_ku64(j, "batch", 32);
	json_ku64(j, "tasks", ORD_TASKS);
	json_ku64(j, "totalpages", ORD_TOTAL);
	json_ku64(j, "rate_pages_per_s", ORD_RATE);
	json_ku64(j, "tick_ms", ORD_DT_MS);
	json_ku64(j, "max_precise_sums", OOM_MAX_PRECISE_BADNESS_SUMS);
	json_karr_begin(j, "adj_pattern");
	for (s = 0; s < 10; s++) {
		const struct ord_cfg one = { .adj_spread = 1 };

		json_i64(j, ord_adj(&one, s));
	}
	json_arr_end(j);
	json_impl(j);
	json_key(j, "accuracy");
	if (run_point(j, &acc))
		return -1;
	/* The posted workload as posted: oom_score_adj 0 everywhere. */
	if (ord_runs(j, "runs", &posted))
		return -1;
	json_karr_begin(j, "sensitivity");
	for (s = 0; s < ns; s++) {
		json_obj_begin(j);
		ord_cfg_json(j, &sens[s]);
		if (ord_runs(j, "runs", &sens[s]))
			return -1;
		json_obj_end(j);
	}
	json_arr_end(j);
	return 0;
}

/* --- 3. imprecision --- */

#define IMP_TASKS	48

struct imp_state {
	struct task_struct *p[IMP_TASKS];
	long rss[IMP_TASKS];
	struct rng rs;
	unsigned long window;
	unsigned int churn;		/* charges between the passes */
};
static struct imp_state *IS;

static void imp_charge_one(struct imp_state *S)
{
	int i = rng_below(&S->rs, IMP_TASKS);
	long d = (long)rng_below(&S->rs, 4 * oom_model_batch() + 1) -
		 (long)(2 * oom_model_batch());

	if (S->rss[i] + d < 0)
		d = -d;
	kc_set_cpu(rng_below(&S->rs, nr_cpu_ids));
	oom_mm_add(S->p[i]->mm, MM_ANONPAGES, d);
	S->rss[i] += d;
}

static void imp_between(struct oom_control *oc)
{
	unsigned int k;

	for (k = 0; IS && k < IS->churn; k++)
		imp_charge_one(IS);
	kc_set_cpu(0);
}

#define IMP_LAYOUTS	4
static const char *const imp_layout_names[IMP_LAYOUTS] = { "hog", "packed", "ties", "proc" };

/*
 * oom_race's layouts: one hog, a packed crowd, ties (docs/oom.md); "proc"
 * is --rss-file's distribution, its values repeated over the 48 tasks.
 */
static void imp_layout(struct imp_state *S, int layout)
{
	/* Tasks of a few GiB, at least four windows: no target goes negative. */
	long w = (long)S->window, base = 1000000 + 4 * w;
	int i;

	for (i = 0; i < IMP_TASKS; i++) {
		long target, d;

		if (layout == 3)
			target = opt.rss[i % opt.nr_rss];
		else if (layout == 0)
			target = i == 0 ? base + w / 2 : base - (long)rng_below(&S->rs, w + 1);
		else if (layout == 1)
			target = base - (long)rng_below(&S->rs, w + 1);
		else
			target = base - (long)(i % 6) * (w / 4);
		d = target - S->rss[i];
		/* Several charges from random CPUs: uneven per-CPU residuals. */
		charge(S->p[i]->mm, MM_ANONPAGES, d, &S->rs, NULL);
		S->rss[i] = target;
	}
}

static int imp_config(struct json *j, unsigned int cpus, unsigned long batch,
		      unsigned int rounds)
{
	struct imp_state *S = calloc(1, sizeof(*S));
	double *sh[2][2], *shp[2][2];
	unsigned int n[2][2] = { { 0 } }, miss[2][2] = { { 0 } }, over[2][2] = { { 0 } };
	/* Per layout and algorithm, both modes: which layout makes the misses. */
	unsigned int ln[IMP_LAYOUTS][2] = { { 0 } }, lmiss[IMP_LAYOUTS][2] = { { 0 } };
	unsigned int lover[IMP_LAYOUTS][2] = { { 0 } };
	long lmax[IMP_LAYOUTS][2] = { { 0 } };
	unsigned int extra = opt.nr_rss ? rounds / 3 : 0, nl = opt.nr_rss ? 4 : 3;
	struct oom_task_attr attr = { 0 };
	unsigned long u = 0, o = 0, s;
	unsigned int r, m, k;
	int i;

	if (!S || setup_cpus(cpus, batch))
		return -1;
	oom_badness_accuracy(&u, &o);
	S->window = u + o;
	for (m = 0; m < 2; m++)
		for (k = 0; k < 2; k++) {
			sh[m][k] = calloc(rounds * opt.nr_seeds, sizeof(double));
			shp[m][k] = calloc(rounds * opt.nr_seeds, sizeof(double));
			if (!sh[m][k] || !shp[m][k])
				return -1;
		}
	for (i = 0; i < IMP_TASKS; i++) {
		S->p[i] = oom_task_create(&attr);
		if (!S->p[i])
			return -1;
	}
	IS = S;
	for (s = 0; s < opt.nr_seeds; s++) {
		rng_init(&S->rs, opt.seeds[s] * 104729 + cpus * 31 + batch);
		for (r = 0; r < rounds + extra; r++) {
			int lay = r < rounds ? (int)(r % 3) : 3;

			imp_layout(S, lay);
			/* m = 0: quiescent; m = 1: charges between the two passes. */
			for (m = 0; m < 2; m++) {
				for (k = 0; k < 2; k++) {
					int a = k ? OOM_ALGO_BOUNDED : OOM_ALGO_V16;
					struct oom_select_stats st;
					long pid, best = LONG_MIN, got = LONG_MIN, x;

					S->churn = m ? 2 * IMP_TASKS : 0;
					oom_between_passes_hook = m ? imp_between : NULL;
					pid = oom_select_run(a, false, 1000 * 1000, &st);
					oom_between_passes_hook = NULL;
					for (i = 0; i < IMP_TASKS; i++) {
						best = max(best, S->rss[i]);
						if (S->p[i]->pid == pid)
							got = S->rss[i];
					}
					if (got == LONG_MIN) {
						fprintf(stderr, "hpcc-report: %s chose no task\n",
							oom_algo_names[a]);
						return -1;
					}
					x = best - got;
					ln[lay][k]++;
					lmiss[lay][k] += x != 0;
					lover[lay][k] += x > (long)S->window;
					lmax[lay][k] = max(lmax[lay][k], x);
					if (lay == 3)
						continue;	/* not in the mix */
					sh[m][k][n[m][k]] = x;
					shp[m][k][n[m][k]] = 100.0 * x / best;
					n[m][k]++;
					miss[m][k] += x != 0;
					over[m][k] += x > (long)S->window;
				}
			}
		}
	}
	IS = NULL;
	json_obj_begin(j);
	json_ku64(j, "nr_cpus", cpus);
	json_ku64(j, "batch", batch);
	json_accuracy(j, cpus, batch);
	for (m = 0; m < 2; m++) {
		json_kobj_begin(j, m ? "churn" : "quiescent");
		for (k = 0; k < 2; k++) {
			json_kobj_begin(j, k ? "bounded" : "v16");
			json_ku64(j, "selections", n[m][k]);
			json_ku64(j, "not_max", miss[m][k]);
			json_ku64(j, "beyond_window", over[m][k]);
			json_kdouble(j, "shortfall_pages_median", pct(sh[m][k], n[m][k], 0.5));
			json_kdouble(j, "shortfall_pages_p99", pct(sh[m][k], n[m][k], 0.99));
			json_kdouble(j, "shortfall_pages_max", pct(sh[m][k], n[m][k], 1));
			json_kdouble(j, "shortfall_pct_median", pct(shp[m][k], n[m][k], 0.5));
			json_kdouble(j, "shortfall_pct_p99", pct(shp[m][k], n[m][k], 0.99));
			json_kdouble(j, "shortfall_pct_max", pct(shp[m][k], n[m][k], 1));
			json_obj_end(j);
			free(sh[m][k]);
			free(shp[m][k]);
		}
		json_obj_end(j);
	}
	json_kobj_begin(j, "layouts");
	for (r = 0; r < nl; r++) {
		json_kobj_begin(j, imp_layout_names[r]);
		for (k = 0; k < 2; k++) {
			json_kobj_begin(j, k ? "bounded" : "v16");
			json_ku64(j, "selections", ln[r][k]);
			json_ku64(j, "not_max", lmiss[r][k]);
			json_ku64(j, "beyond_window", lover[r][k]);
			json_ki64(j, "shortfall_pages_max", lmax[r][k]);
			json_obj_end(j);
		}
		json_obj_end(j);
	}
	json_obj_end(j);
	json_obj_end(j);
	free(S);
	oom_model_reset();
	return 0;
}

static int imp_fn(struct json *j, const struct point *pt)
{
	return imp_config(j, pt->cpus, pt->n, pt->m);
}

static int sec_imprecision(struct json *j, const unsigned int *cpus, unsigned int nc,
			   const unsigned long *batch, unsigned int nb, unsigned int rounds)
{
	unsigned int c, b;

	json_impl(j);
	/* The window column: the counters' own accuracy ranges, one boot per point. */
	json_kobj_begin(j, "window_code");
	json_kstr(j, "counter", HPCC_SOURCE);
	json_kstr(j, "function", "percpu_counter_tree_approximate_accuracy_range()");
	json_kstr(j, "model", "lib/shape");
	json_kstr(j, "boot", "each point booted in a process of its own");
	json_obj_end(j);
	json_ku64(j, "tasks", IMP_TASKS);
	json_ku64(j, "rounds_per_seed", rounds);
	json_ku64(j, "churn_charges", 2 * IMP_TASKS);
	json_karr_begin(j, "rss_pages");
	for (c = 0; c < opt.nr_rss; c++)
		json_i64(j, opt.rss[c]);
	json_arr_end(j);
	json_karr_begin(j, "points");
	for (c = 0; c < nc; c++)
		for (b = 0; b < nb; b++) {
			struct point pt = { imp_fn, "imprecision", cpus[c], batch[b], rounds };

			if (run_point(j, &pt))
				return -1;
		}
	json_arr_end(j);
	return 0;
}

/* --- 4. exact: hpcc precise sums against percpu_counter_sum() --- */

/*
 * Two passes without the 16-sum cap, exact: pass 1 the approximate maximum,
 * pass 2 a precise sum of every task whose range reaches it (approx + over
 * >= max - under, the badness window W). Returns the maximum; *within: the
 * tasks pass 2 summed (its cost is within x 4 x CPUs words).
 */
static long two_pass_exact(struct task_struct **p, unsigned long tasks, unsigned long u,
			   unsigned long o, unsigned long *within)
{
	long amax = LONG_MIN, best = LONG_MIN;
	unsigned long i;
	int mm;

	for (i = 0; i < tasks; i++) {
		long a = 0;

		for (mm = 0; mm < NR_MM_COUNTERS; mm++)
			a += percpu_counter_tree_approximate_sum(&p[i]->mm->rss_stat[mm]);
		amax = a > amax ? a : amax;
	}
	*within = 0;
	for (i = 0; i < tasks; i++) {
		long a = 0, pts = 0;

		for (mm = 0; mm < NR_MM_COUNTERS; mm++)
			a += percpu_counter_tree_approximate_sum(&p[i]->mm->rss_stat[mm]);
		if (a + (long)o < amax - (long)u)
			continue;
		(*within)++;
		for (mm = 0; mm < NR_MM_COUNTERS; mm++)
			pts += percpu_counter_tree_precise_sum(&p[i]->mm->rss_stat[mm]);
		best = pts > best ? pts : best;
	}
	return best;
}

/* Does a per-CPU block of @size bytes at @ptr cross a cache line? */
static bool straddles(const void __percpu *ptr, size_t size)
{
	uintptr_t a = (uintptr_t)per_cpu_ptr((void __percpu *)ptr, 0);

	return a / 64 != (a + size - 1) / 64;
}

/*
 * One exact point. @aligned: after each task's percpu_counters, a per-CPU
 * pad up to the next 64-byte line, so that the next task's hpcc block
 * starts a line (the allocator places blocks one after the other).
 */
static int exact_point(struct json *j, unsigned int cpus, unsigned long tasks,
		       unsigned int reps, bool aligned)
{
	double lat[3][BENCH_MAX_REPS], r[BENCH_MAX_REPS];
	unsigned long u = 0, o = 0, within = 0, sh = 0, sk = 0;
	struct task_struct **p = NULL;
	void *k = NULL;
	void __percpu **pad = NULL;
	struct oom_task_attr attr = { 0 };
	struct rng rs;
	unsigned long i;
	unsigned int rep, c;
	long best[3] = { 0 };
	int ret = -1, mm;

	json_obj_begin(j);
	json_ku64(j, "nr_cpus", cpus);
	json_ku64(j, "tasks", tasks);
	json_kbool(j, "aligned", aligned);
	json_kdouble(j, "per_cpu_mb", tasks * cpus * 80.0 / (1 << 20));
	if (too_big(tasks, cpus, 80)) {
		json_kstr(j, "skipped", "per-CPU footprint above --mem-mb");
		json_obj_end(j);
		return 0;
	}
	p = calloc(tasks, sizeof(*p));
	k = calloc(tasks, pcc_size());
	pad = calloc(tasks, sizeof(*pad));
	if (!p || !k || !pad || setup_cpus(cpus, 32))
		goto out;
	rng_init(&rs, opt.seeds[0] * 15485863 + tasks);
	for (i = 0; i < tasks; i++) {
		long pages = 1000 + (long)rng_below(&rs, 20000);
		uintptr_t end;

		p[i] = oom_task_create(&attr);
		if (!p[i] || pcc_init(pcc_at(k, i)))
			goto out;
		end = (uintptr_t)per_cpu_ptr(pcc_block(pcc_at(k, i)), 0) +
		      NR_MM_COUNTERS * sizeof(s32);
		if (aligned && end % 64 && !(pad[i] = __alloc_percpu(64 - end % 64, 1)))
			goto out;
		sh += straddles(p[i]->mm->rss_stat[0].level0,
				NR_MM_COUNTERS * sizeof(*p[i]->mm->rss_stat[0].level0));
		sk += straddles(pcc_block(pcc_at(k, i)), NR_MM_COUNTERS * sizeof(s32));
		charge(p[i]->mm, MM_ANONPAGES, pages - pages / 4, &rs, pcc_at(k, i));
		charge(p[i]->mm, MM_FILEPAGES, pages / 4, &rs, pcc_at(k, i));
	}
	/* Tasks whose four per-CPU words take two cache lines on every CPU. */
	json_kdouble(j, "hpcc_straddle_pct", 100.0 * sh / tasks);
	json_kdouble(j, "pcp_straddle_pct", 100.0 * sk / tasks);
	oom_badness_accuracy(&u, &o);
	/* The same loop twice, only the counter's sum differs; then two passes. */
	for (rep = 0; rep < reps; rep++) {
		for (c = 0; c < 3; c++) {
			unsigned int col = (rep + c) % 3;
			unsigned long long t0 = bench_thread_cpu_ns();
			long b = LONG_MIN;

			if (col == 2) {
				best[2] = two_pass_exact(p, tasks, u, o, &within);
				lat[2][rep] = (bench_thread_cpu_ns() - t0) / 1e3;
				continue;
			}
			for (i = 0; i < tasks; i++) {
				long pts = 0;

				for (mm = 0; mm < NR_MM_COUNTERS; mm++)
					pts += col ? pcc_sum(pcc_at(k, i), mm) :
						percpu_counter_tree_precise_sum(&p[i]->mm->rss_stat[mm]);
				b = pts > b ? pts : b;
			}
			lat[col][rep] = (bench_thread_cpu_ns() - t0) / 1e3;
			best[col] = b;
		}
	}
	if (best[0] != best[1] || best[0] != best[2]) {
		fprintf(stderr, "hpcc-report: hpcc, percpu_counter and two-pass maxima disagree (%ld, %ld, %ld)\n",
			best[0], best[1], best[2]);
		goto out;
	}
	json_kobj_begin(j, "latency_us");
	bench_kstats(j, "hpcc_precise_sum", lat[0], reps);
	bench_kstats(j, "percpu_counter_sum", lat[1], reps);
	bench_kstats(j, "two_pass_exact", lat[2], reps);
	json_obj_end(j);
	for (rep = 0; rep < reps; rep++)
		r[rep] = lat[0][rep] / lat[1][rep];
	bench_kstats(j, "hpcc_vs_percpu_counter", r, reps);
	for (rep = 0; rep < reps; rep++)
		r[rep] = lat[0][rep] / lat[2][rep];
	bench_kstats(j, "precise_vs_two_pass_exact", r, reps);
	json_ku64(j, "window_pages", u + o);
	json_ku64(j, "two_pass_within_window", within);
	json_ku64(j, "sums", tasks * NR_MM_COUNTERS);
	json_ku64(j, "percpu_words", tasks * NR_MM_COUNTERS * cpus);
	ret = 0;
out:
	json_obj_end(j);
	if (ret)
		fprintf(stderr, "hpcc-report: exact point %lu tasks at %u CPUs failed\n",
			tasks, cpus);
	for (i = 0; k && p && i < tasks && p[i]; i++) {
		pcc_destroy(pcc_at(k, i));
		if (pad[i])
			free_percpu(pad[i]);
	}
	free(pad);
	free(k);
	free(p);
	oom_model_reset();
	return ret;
}

static bool exact_aligned;

static int exact_fn(struct json *j, const struct point *pt)
{
	return exact_point(j, pt->cpus, pt->n, pt->m, exact_aligned);
}

/*
 * Every point as the allocator lays the blocks out; then, at each of
 * @lcpus, @ltasks again with every hpcc block starting a cache line.
 */
static int sec_exact(struct json *j, const unsigned int *cpus, unsigned int nc,
		     const unsigned long *tasks, unsigned int nt, const unsigned int *lcpus,
		     unsigned int nl, unsigned long ltasks)
{
	unsigned int c, t;

	json_kstr(j, "hpcc", HPCC_SOURCE);
	json_karr_begin(j, "points");
	for (c = 0; c < nc; c++)
		for (t = 0; t < nt; t++) {
			struct point pt = { exact_fn, "exact", cpus[c], tasks[t], opt.reps };

			if (run_point(j, &pt))
				return -1;
		}
	json_arr_end(j);
	json_karr_begin(j, "aligned");
	exact_aligned = true;
	for (c = 0; c < nl; c++) {
		struct point pt = { exact_fn, "exact", lcpus[c], ltasks, opt.reps };

		if (run_point(j, &pt))
			return -1;
	}
	exact_aligned = false;
	json_arr_end(j);
	return 0;
}

/* --- command line --- */

static void usage(FILE *f)
{
	fprintf(f,
"usage: hpcc-report --section S [options]\n"
"  --section S   latency, order, imprecision or exact (docs/report.md)\n"
"  --tiny        tiny sizes: checks the machinery, no claims\n"
"  --reps N      repetitions of a timed point, 3..%d (5; tiny 3)\n"
"  --seeds LIST  comma list of seeds (1,2,3,4,5; tiny 1)\n"
"  --mem-mb N    largest per-CPU footprint of a point in MiB (2048)\n"
"  --out FILE    write the JSON there (default stdout)\n"
"  --rss-file F  imprecision: one more layout, up to 48 RSS values in pages\n"
"                (one a line), e.g. this host's processes scaled\n"
"  --kthreads-per-cpu K  latency: kernel threads per CPU in the task list\n"
"                of the conditions runs, 1..64 (5)\n"
"  --help\n", BENCH_MAX_REPS);
}

static void parse_seeds(const char *val)
{
	char buf[256], *tok, *save = NULL;

	if (strlen(val) >= sizeof(buf))
		die("--seeds", val, "too long");
	strcpy(buf, val);
	opt.nr_seeds = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (opt.nr_seeds == MAX_SEEDS)
			die("--seeds", val, "more than 16 seeds");
		opt.seeds[opt.nr_seeds++] = parse_num("--seeds", tok, 1, 1UL << 40);
	}
	if (!opt.nr_seeds)
		die("--seeds", val, "empty");
}

/* Up to 48 page counts, one a line; the largest window is below 2^40. */
static void parse_rss(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[64];

	if (!f)
		die("--rss-file", path, strerror(errno));
	opt.nr_rss = 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (opt.nr_rss == ARRAY_SIZE(opt.rss))
			die("--rss-file", path, "more than 48 values");
		opt.rss[opt.nr_rss++] = (long)parse_num("--rss-file value", line, 0, 1UL << 40);
	}
	fclose(f);
	if (!opt.nr_rss)
		die("--rss-file", path, "no values");
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "section", required_argument, NULL, 's' },
		{ "tiny", no_argument, NULL, 't' },
		{ "reps", required_argument, NULL, 'r' },
		{ "seeds", required_argument, NULL, 'S' },
		{ "mem-mb", required_argument, NULL, 'm' },
		{ "out", required_argument, NULL, 'o' },
		{ "rss-file", required_argument, NULL, 'R' },
		{ "kthreads-per-cpu", required_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static const unsigned int cpus_full[] = { 64, 256, 1024 }, cpus_tiny[] = { 8, 16 };
	static const unsigned int imp_full[] = { 8, 64, 256, 1024 };
	static const unsigned long tasks_full[] = { 40, 1000, 10000, 100000 };
	static const unsigned long tasks_tiny[] = { 10, 40 }, tasks_cond[] = { 40, 10000 };
	static const unsigned long batch_full[] = { 32, 128 }, batch_tiny[] = { 32 };
	const char *section = NULL, *out = NULL;
	struct json j;
	FILE *f = stdout;
	int c, ret;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 's':
			if (strcmp(optarg, "latency") && strcmp(optarg, "order") &&
			    strcmp(optarg, "imprecision") && strcmp(optarg, "exact"))
				die("--section", optarg, "not latency, order, imprecision or exact");
			section = optarg;
			break;
		case 't':
			opt.tiny = true;
			break;
		case 'r':
			opt.reps = parse_num("--reps", optarg, 3, BENCH_MAX_REPS);
			break;
		case 'S':
			parse_seeds(optarg);
			break;
		case 'm':
			opt.mem_mb = parse_num("--mem-mb", optarg, 1, 1UL << 20);
			break;
		case 'o':
			out = optarg;
			break;
		case 'R':
			parse_rss(optarg);
			break;
		case 'k':
			opt.kthreads = parse_num("--kthreads-per-cpu", optarg, 1, 64);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			fprintf(stderr, "hpcc-report: bad option '%s' (see --help)\n",
				argv[optind - 1]);
			return 2;
		}
	}
	if (optind < argc)
		die("argument", argv[optind], "no arguments are taken");
	if (!section) {
		fprintf(stderr, "hpcc-report: --section is required (see --help)\n");
		return 2;
	}
	if (!opt.reps)
		opt.reps = opt.tiny ? 3 : 5;
	if (!opt.nr_seeds) {
		unsigned int n = opt.tiny ? 1 : 5;

		for (opt.nr_seeds = 0; opt.nr_seeds < n; opt.nr_seeds++)
			opt.seeds[opt.nr_seeds] = opt.nr_seeds + 1;
	}
	if (out && !(f = fopen(out, "w"))) {
		fprintf(stderr, "hpcc-report: cannot write %s: %s\n", out, strerror(errno));
		return 2;
	}
	kc_set_cpu(0);
	json_init(&j, f);
	json_obj_begin(&j);
	json_ku64(&j, "schema_version", 1);
	json_kstr(&j, "generator", "hpcc-report");
	json_kstr(&j, "section", section);
	json_kbool(&j, "tiny", opt.tiny);
	json_ku64(&j, "reps", opt.reps);
	json_karr_begin(&j, "seeds");
	for (c = 0; c < (int)opt.nr_seeds; c++)
		json_u64(&j, opt.seeds[c]);
	json_arr_end(&j);
	json_kstr(&j, "hpcc_source", HPCC_SOURCE);
	json_kstr(&j, "pcpu_source", pcc_source);
	if (!strcmp(section, "latency"))
		ret = opt.tiny ? sec_latency(&j, cpus_tiny, 2, tasks_tiny, 2, 16, tasks_tiny, 2) :
				 sec_latency(&j, cpus_full, 3, tasks_full, 4, 256, tasks_cond, 2);
	else if (!strcmp(section, "order"))
		ret = sec_order(&j);
	else if (!strcmp(section, "imprecision"))
		ret = opt.tiny ? sec_imprecision(&j, cpus_tiny, 2, batch_tiny, 1, 6) :
				 sec_imprecision(&j, imp_full, 4, batch_full, 2, 120);
	else
		ret = opt.tiny ? sec_exact(&j, cpus_tiny, 2, tasks_tiny, 2, cpus_tiny, 2, 40) :
				 sec_exact(&j, cpus_full, 3, tasks_full, 4, cpus_full, 2, 10000);
	json_obj_end(&j);
	json_finish(&j);
	if (f != stdout && fclose(f))
		ret = -1;
	if (ret)
		fprintf(stderr, "hpcc-report: %s: results are not valid\n", section);
	return ret ? 1 : 0;
}
