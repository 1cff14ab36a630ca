// SPDX-License-Identifier: GPL-2.0
/*
 * OOM selection latency against the number of tasks (lib/mm's model,
 * docs/spec/oom.md#oom-v16 to #oom-imprecision): the precise one-pass
 * selection, the v16 two-pass and the bounded two-pass, interleaved in every
 * repetition, at 256 virtual CPUs and batch 32 as in the v16 measurements. Two
 * task sets: one memory hog among small tasks (the v16 benchmark), and a
 * crowded set where every task lies within one accuracy window of the maximum
 * (the precise-sum budget runs out). Latency is the selecting thread's CPU time
 * (see b_add.c).
 */
#include <stdlib.h>
#include <kcompat/kcompat.h>
#include "util/child.h"
#include "util/rng.h"
#include "bench.h"

#if __has_include(<mm/oom_select.h>)
#include <mm/oom_select.h>

#define OOM_BENCH_CPUS		256
#define OOM_TOTALPAGES		(16UL << 20)	/* 64 GiB of 4 KiB pages */
#define OOM_HOG_PAGES		1000000L

enum { W_HOG, W_CROWDED, W_NR };
static const char *const workload_name[W_NR] = { "one_hog", "crowded" };

/*
 * Timed columns: the three algorithms through the interface (a KERNEL_SRC
 * tree's code where it serves one), and the model's own version of the
 * tree's algorithm (MODEL_TWIN) so that the two compare within one run.
 */
#define MODEL_TWIN	OOM_NR_ALGOS
#define NR_COLS		(OOM_NR_ALGOS + 1)

/* One table row per point, printed by the table mode (make bench-oom). */
struct oom_row {
	int w;
	unsigned long tasks;
	double med[NR_COLS];
	double kernel_vs_model;		/* median of the per-rep ratios */
	double precise_vs_v16;
	long shortfall[NR_COLS];
};
static struct oom_row rows[2 * 16];
static unsigned int nr_rows;

static bool have_twin(void)
{
	return oom_kernel_algo() != OOM_NR_ALGOS;
}

static long select_col(int col, struct oom_select_stats *st)
{
	if (col == MODEL_TWIN)
		return oom_select_run(oom_kernel_algo(), true, OOM_TOTALPAGES, st);
	return oom_select_run(col, false, OOM_TOTALPAGES, st);
}

static const char *col_name(int col)
{
	return col == MODEL_TWIN ? "model_twin" : oom_algo_names[col];
}

struct oom_truth {
	long pid;
	long pages;	/* exact badness: RSS, adj 0, no page tables */
};


/* @pages into @member, in a few adds from random CPUs (uneven residuals). */
static void rss_add(struct mm_struct *mm, int member, long pages, struct rng *rs)
{
	int k;

	for (k = 0; k < 4; k++) {
		long part = k < 3 ? pages / 4 : pages - 3 * (pages / 4);

		kc_set_cpu(rng_below(rs, nr_cpu_ids));
		oom_mm_add(mm, member, part);
	}
	kc_set_cpu(0);
}

static int populate(int w, unsigned long tasks, unsigned long window,
		    struct oom_truth *truth)
{
	struct rng rs;
	struct oom_task_attr attr = { 0 };
	unsigned long i;

	rng_init(&rs, tasks * 2 + w);	/* the task sets are the same in every run */
	for (i = 0; i < tasks; i++) {
		struct task_struct *p = oom_task_create(&attr);
		long pages;

		if (!p)
			return -1;
		if (w == W_HOG)
			pages = i == tasks / 2 ? OOM_HOG_PAGES : 1000 + rng_below(&rs, 20000);
		else
			pages = 500000 + rng_below(&rs, window);
		rss_add(p->mm, MM_ANONPAGES, pages - pages / 4, &rs);
		rss_add(p->mm, MM_FILEPAGES, pages / 4, &rs);
		truth[i] = (struct oom_truth){ .pid = p->pid, .pages = pages };
	}
	return 0;
}

static long truth_of(const struct oom_truth *truth, unsigned long n, long pid)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		if (truth[i].pid == pid)
			return truth[i].pages;
	return -1;
}

static int oom_point(const struct bench_cfg *cfg, struct json *j, int w,
		     unsigned long tasks, unsigned long window)
{
	double lat[NR_COLS][BENCH_MAX_REPS], r[BENCH_MAX_REPS];
	struct oom_truth *truth = calloc(tasks, sizeof(*truth));
	struct oom_select_stats st[NR_COLS];
	int ncols = have_twin() ? NR_COLS : OOM_NR_ALGOS;
	struct oom_row *row = nr_rows < ARRAY_SIZE(rows) ? &rows[nr_rows++] : NULL;
	long victim[NR_COLS], best = 0;
	unsigned long i, rep, k;
	int a, ret = 0;

	if (!truth || populate(w, tasks, window, truth)) {
		fprintf(stderr, "hpcc-bench: cannot create %lu tasks\n", tasks);
		free(truth);
		oom_model_reset();
		return -1;
	}
	for (i = 0; i < tasks; i++)
		best = truth[i].pages > best ? truth[i].pages : best;
	for (rep = 0; rep < cfg->reps; rep++) {
		for (k = 0; k < (unsigned long)ncols; k++) {
			unsigned long long t0;

			a = (rep + k) % ncols;
			/* Untimed first: every timed run finds the caches warm. */
			select_col(a, &st[a]);
			t0 = bench_thread_cpu_ns();
			victim[a] = select_col(a, &st[a]);
			lat[a][rep] = (bench_thread_cpu_ns() - t0) / 1e3;
		}
	}
	json_obj_begin(j);
	json_kstr(j, "workload", workload_name[w]);
	json_ku64(j, "tasks", tasks);
	json_ku64(j, "nr_cpus", nr_cpu_ids);
	json_ku64(j, "true_max_pages", best);
	json_key(j, "latency_us");
	json_obj_begin(j);
	for (a = 0; a < ncols; a++)
		bench_kstats(j, col_name(a), lat[a], cfg->reps);
	json_obj_end(j);
	json_key(j, "ratios");
	json_obj_begin(j);
	for (i = 0; i < cfg->reps; i++)
		r[i] = lat[OOM_ALGO_PRECISE][i] / lat[OOM_ALGO_V16][i];
	bench_kstats(j, "precise_vs_v16", r, cfg->reps);
	for (i = 0; i < cfg->reps; i++)
		r[i] = lat[OOM_ALGO_PRECISE][i] / lat[OOM_ALGO_BOUNDED][i];
	bench_kstats(j, "precise_vs_bounded", r, cfg->reps);
	if (have_twin()) {
		for (i = 0; i < cfg->reps; i++)
			r[i] = lat[oom_kernel_algo()][i] / lat[MODEL_TWIN][i];
		bench_kstats(j, "kernel_vs_model", r, cfg->reps);
		if (row)
			row->kernel_vs_model = bench_median(r, cfg->reps);
	}
	json_obj_end(j);
	if (row) {
		for (i = 0; i < cfg->reps; i++)
			r[i] = lat[OOM_ALGO_PRECISE][i] / lat[OOM_ALGO_V16][i];
		row->precise_vs_v16 = bench_median(r, cfg->reps);
		row->w = w;
		row->tasks = tasks;
		for (a = 0; a < ncols; a++)
			row->med[a] = bench_median(lat[a], cfg->reps);
	}
	json_key(j, "per_selection");
	json_obj_begin(j);
	for (a = 0; a < ncols; a++) {
		long got = truth_of(truth, tasks, victim[a]);

		if (row)
			row->shortfall[a] = got < 0 ? -1 : best - got;
		json_key(j, col_name(a));
		json_obj_begin(j);
		json_ku64(j, "precise_counter_sums", st[a].precise_counter_sums);
		json_ku64(j, "precise_evals", st[a].precise_evals);
		json_ku64(j, "approx_evals", st[a].approx_evals);
		json_ku64(j, "budget_hits", st[a].budget_hits);
		json_ku64(j, "fallback_selects", st[a].fallback_selects);
		json_kdouble(j, "victim_shortfall_pages", got < 0 ? -1 : best - got);
		json_obj_end(j);
		/* The exact selection must find the exact maximum. */
		if ((a == OOM_ALGO_PRECISE ||
		     (a == MODEL_TWIN && oom_kernel_algo() == OOM_ALGO_PRECISE)) && got != best) {
			fprintf(stderr, "hpcc-bench: precise OOM selection chose %ld pages,"
				" max is %ld\n", got, best);
			ret = -1;
		}
	}
	json_obj_end(j);
	json_obj_end(j);
	fprintf(stderr, "# oom %s tasks=%lu precise=%.0f us v16=%.0f us bounded=%.0f us"
		" sums=%lu/%lu/%lu\n", workload_name[w], tasks,
		bench_median(lat[0], cfg->reps), bench_median(lat[1], cfg->reps),
		bench_median(lat[2], cfg->reps), st[0].precise_counter_sums,
		st[1].precise_counter_sums, st[2].precise_counter_sums);
	free(truth);
	oom_model_reset();
	return ret;
}

/* The table of make bench-oom: medians in microseconds, ratios within one run. */
static void print_table(const struct bench_cfg *cfg)
{
	int a, ka = oom_kernel_algo();
	unsigned int i;

	printf("OOM victim selection latency: %u CPUs, batch %lu, medians of %u repetitions "
	       "(thread CPU time, us); ratios are medians of per-repetition ratios\n",
	       OOM_BENCH_CPUS, cfg->batch, cfg->reps);
	for (a = 0; a < OOM_NR_ALGOS; a++)
		printf("  %-8s %s\n", oom_algo_names[a], oom_impl_describe(oom_impl_of(a)));
	if (have_twin())
		printf("  %-8s the model's %s, for kernel/model\n", "model", oom_algo_names[ka]);
	printf("\n%-8s %8s %12s %12s %12s", "workload", "tasks", "precise", "v16", "bounded");
	if (have_twin())
		printf(" %12s %13s", "model", "kernel/model");
	printf(" %13s %s\n", "precise/v16", "shortfall precise/v16/bounded (pages)");
	for (i = 0; i < nr_rows; i++) {
		const struct oom_row *r = &rows[i];

		printf("%-8s %8lu %12.1f %12.1f %12.1f", workload_name[r->w], r->tasks,
		       r->med[OOM_ALGO_PRECISE], r->med[OOM_ALGO_V16], r->med[OOM_ALGO_BOUNDED]);
		if (have_twin())
			printf(" %12.1f %13.3f", r->med[MODEL_TWIN], r->kernel_vs_model);
		printf(" %13.2f %ld/%ld/%ld\n", r->precise_vs_v16, r->shortfall[OOM_ALGO_PRECISE],
		       r->shortfall[OOM_ALGO_V16], r->shortfall[OOM_ALGO_BOUNDED]);
	}
}

/* The section in a process of its own: it boots once, at OOM_BENCH_CPUS. */
static int oom_section(struct json *j, void *arg)
{
	const struct bench_cfg *cfg = arg;
	static const unsigned long full[] = { 40, 100, 300, 1000, 3000, 5000, 7000, 10000 };
	static const unsigned long quick[] = { 40, 400 };
	/* The v16 measurements' sizes, and one beyond (docs/spec/oom.md#oom-v16). */
	static const unsigned long table[] = { 40, 1000, 10000, 100000 };
	const unsigned long *n = cfg->oom_table ? table : cfg->quick ? quick : full;
	unsigned int nn = cfg->oom_table ? ARRAY_SIZE(table) :
			  cfg->quick ? ARRAY_SIZE(quick) : ARRAY_SIZE(full), i;
	unsigned long under = 0, over = 0;
	int w, a, ret = 0;

	if (bench_set_cpus(OOM_BENCH_CPUS) || oom_model_init(cfg->batch))
		return CHILD_POINT_NO_VALUE;
	kc_rcu_register_thread();
	oom_badness_accuracy(&under, &over);
	json_key(j, "oom");
	json_obj_begin(j);
	json_ku64(j, "badness_under", under);
	json_ku64(j, "badness_over", over);
	json_key(j, "implementation");
	json_obj_begin(j);
	for (a = 0; a < OOM_NR_ALGOS; a++)
		json_kstr(j, oom_algo_names[a], oom_impl_describe(oom_impl_of(a)));
	json_obj_end(j);
	json_key(j, "points");
	json_arr_begin(j);
	for (w = 0; w < W_NR && !ret; w++)
		for (i = 0; i < nn && n[i] <= cfg->oom_tasks_max && !ret; i++)
			ret = oom_point(cfg, j, w, n[i], under);
	json_arr_end(j);
	json_obj_end(j);
	kc_rcu_unregister_thread();
	if (cfg->oom_table && !ret)
		print_table(cfg);
	return ret ? CHILD_POINT_CHECK_FAILED : CHILD_POINT_OK;
}

int bench_oom(const struct bench_cfg *cfg, struct json *j)
{
	return json_point_in_child(j, "hpcc-bench", "oom", OOM_BENCH_CPUS, oom_section,
				   (void *)cfg) ? -1 : 0;
}

#else /* no lib/mm OOM model in this tree */

int bench_oom(const struct bench_cfg *cfg, struct json *j)
{
	json_key(j, "oom");
	json_null(j);
	fprintf(stderr, "# oom: lib/mm/oom_select.h not present, table skipped\n");
	return 0;
}

#endif
