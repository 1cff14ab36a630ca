// SPDX-License-Identifier: GPL-2.0
/*
 * counter_storm's edge plans: three counters, of batch 2, 4
 * and the run's batch, that only these plans move. At 256 CPUs the small
 * batches have a settled bound T above `over` (batch below a level's
 * fan-in), the states where a comparison that mixes up its tolerances
 * gives a wrong answer; the third makes the pairs mixed-batch.
 *
 * Between two quiescent points every vCPU makes, as its first operation
 * of a step, its share of the adds that take each counter to a chosen
 * residual state (lib/shape/hpcc_residual.h; docs/residual-states.md):
 * T first, then extremes (0, 1, over - 1, over, over + 1, T - 1, T) and
 * random states. The adds run concurrently with everything else; a
 * migration injected between an add's level-0 step and its carry is
 * recorded (the CPU the carry travelled as). At each quiescent point the
 * residual model replays the adds that were made, along the paths they
 * took, in any order (the result does not depend on it), and checks:
 *  - edge_state: every level-0 word and item holds the model's residual,
 *    and precise_sum - approximate_sum equals their sum;
 *  - compare: set() places the approximations on and around every
 *    boundary of docs/spec/hpcc.md#hpcc-compare (outer window, both inner re-tests of
 *    precise_compare, equal values; both argument orders; every pair of
 *    the three batches) and every answer is checked against the exact
 *    values and the documented formula. The values are restored after.
 * The next plan starts from the state the model says was reached.
 */
#include <stdlib.h>
#include <string.h>
#include <kcompat/kcompat.h>
#include "shape/hpcc_residual.h"
#include "util/json.h"
#include "storm.h"

struct edge_op {
	long inc;
	unsigned int cell;
	unsigned int cpu_path;	/* written by the vCPU: the CPU its carry travelled as */
	unsigned char e;	/* edge counter */
};

struct storm_edge {
	unsigned long *cell[NR_EDGE];	/* the model's state when the plan was made */
	unsigned long *to;		/* scratch */
	long target[NR_EDGE];		/* the plan's residual sums */
	struct edge_op *ops;		/* grouped by CPU */
	unsigned int *start;		/* CPU c's adds: ops[start[c] .. start[c + 1]) */
	unsigned int nr_cpus;
	struct stress_rng rng;
	bool initialised[NR_EDGE];
	unsigned long plans, checked, migrated, sweeps;
};

static unsigned long edge_batch(struct stress *s, unsigned int e)
{
	static const unsigned long small[] = { 2, 4 };

	return e < ARRAY_SIZE(small) ? small[e] : stress_batch(s);
}

static const struct hpcc_shape *eshape(struct storm *st, unsigned int e)
{
	return &st->kshape[K_EDGE0 + e];
}

/* A new plan from the model's state E->cell (every thread parked, or none started). */
static void edge_plan(struct storm *st, bool first)
{
	struct storm_edge *E = st->edge_plan;
	unsigned int e, c, nops = 0, *count;
	unsigned long i, n;

	count = calloc(E->nr_cpus + 1, sizeof(*count));
	if (!count)
		return;
	memset(E->start, 0, (E->nr_cpus + 1) * sizeof(*E->start));
	/* Two passes: count each CPU's adds, then lay them out. */
	for (e = 0; e < NR_EDGE; e++) {
		const struct hpcc_shape *sh = eshape(st, e);
		long ext[HPCC_EDGE_MAX_EXTREMES];
		unsigned int next = hpcc_edge_extremes(sh, ext);
		long r;
		bool above = stress_rng_below(&E->rng, 2);

		if (first)	/* T for all but batch 4, which starts just above over */
			r = e == 1 && ext[next - 1] > (long)sh->over ? (long)sh->over + 1 :
			    (long)sh->settled_max;
		else if (stress_rng_below(&E->rng, 4))
			r = ext[stress_rng_below(&E->rng, next)];
		else
			r = stress_rng_below(&E->rng, sh->settled_max + 1);
		E->target[e] = r;
		n = hpcc_residual_cells(sh);
		hpcc_residual_fill(sh, r, stress_rng_below(&E->rng, 2), E->to);
		for (i = 0; i < n; i++) {
			long inc = hpcc_residual_inc(sh, i, E->cell[e][i], E->to[i], above);
			unsigned int k;

			if (!inc)
				continue;
			k = stress_rng_below(&E->rng, hpcc_residual_cell_nr_cpus(sh, i));
			c = hpcc_residual_cell_cpu(sh, i, k);
			E->ops[nops++] = (struct edge_op){ .inc = inc, .cell = i, .cpu_path = c,
							   .e = e };
			E->start[c + 1]++;
		}
	}
	/* Counting sort by CPU (cpu_path holds the planned CPU until the add is made). */
	for (c = 0; c < E->nr_cpus; c++)
		E->start[c + 1] += E->start[c];
	{
		struct edge_op *sorted = malloc((nops ? nops : 1) * sizeof(*sorted));

		if (sorted) {
			for (i = 0; i < nops; i++) {
				c = E->ops[i].cpu_path;
				sorted[E->start[c] + count[c]++] = E->ops[i];
			}
			memcpy(E->ops, sorted, nops * sizeof(*sorted));
			free(sorted);
		} else {
			memset(E->start, 0, (E->nr_cpus + 1) * sizeof(*E->start));
		}
	}
	for (c = 0; c < E->nr_cpus; c++) {
		st->cpus[c].edge_pos = E->start[c];
		st->cpus[c].edge_end = E->start[c + 1];
	}
	E->plans++;
	free(count);
}

int storm_edge_setup(struct stress *s, struct storm *st)
{
	size_t isz = percpu_counter_tree_items_size();
	struct storm_edge *E = calloc(1, sizeof(*E));
	unsigned long max_cells = 1, total = 0;
	unsigned int e;

	if (!E)
		return -1;
	st->edge_plan = E;
	E->nr_cpus = st->nr_cpus;
	for (e = 0; e < NR_EDGE; e++) {
		unsigned int key = K_EDGE0 + e;
		unsigned long n;

		if (hpcc_shape_compute(&st->kshape[key], st->nr_cpus, edge_batch(s, e)))
			return -1;
		st->items[3 + e] = aligned_alloc(64, isz ? isz : 64);
		if (!st->items[3 + e] ||
		    percpu_counter_tree_init(&st->edge[e], st->items[3 + e], edge_batch(s, e),
					     GFP_KERNEL))
			return -1;
		E->initialised[e] = true;
		st->ctr[key] = &st->edge[e];
		n = hpcc_residual_cells(&st->kshape[key]);
		E->cell[e] = calloc(n + 1, sizeof(*E->cell[e]));
		if (!E->cell[e])
			return -1;
		max_cells = n > max_cells ? n : max_cells;
		total += n;
	}
	E->to = calloc(max_cells, sizeof(*E->to));
	E->ops = calloc(total + 1, sizeof(*E->ops));
	E->start = calloc(E->nr_cpus + 1, sizeof(*E->start));
	if (!E->to || !E->ops || !E->start)
		return -1;
	stress_rng_seed(&E->rng, stress_seed(s), "counter_storm/edge", 0);
	if (st->checking)
		edge_plan(st, true);
	return 0;
}

void storm_edge_free(struct storm *st)
{
	struct storm_edge *E = st->edge_plan;
	unsigned int e;

	if (!E)
		return;
	for (e = 0; e < NR_EDGE; e++) {
		if (E->initialised[e])
			percpu_counter_tree_destroy(&st->edge[e]);
		free(E->cell[e]);
	}
	free(E->to);
	free(E->ops);
	free(E->start);
	free(E);
	st->edge_plan = NULL;
}

void storm_edge_step(struct stress *s, struct storm *st, unsigned int cpu)
{
	struct storm_edge *E = st->edge_plan;
	unsigned int pos = st->cpus[cpu].edge_pos;
	struct edge_op *op;

	/*
	 * Until the plan is done, every add as this CPU: back here after an
	 * injected hop or a swap (kcompat.h), but not during a hop run of
	 * our own (the plan waits for its end).
	 */
	while (pos < E->start[cpu + 1]) {
		if (kc_get_cpu() != cpu) {
			if (st->cpus[cpu].hopped)
				break;
			kc_set_cpu(cpu);
		}
		op = &E->ops[pos];
		storm_add(s, st, cpu, K_EDGE0 + op->e, op->inc);
		/* An injected migration after the level-0 add moved the carry. */
		op->cpu_path = kc_get_cpu();
		st->cpus[cpu].edge_pos = ++pos;
	}
}

/* edge_state: the counter's cells against the model, then R through the public API. */
static bool check_state(struct stress *s, struct storm *st, unsigned int e)
{
	const struct hpcc_shape *sh = eshape(st, e);
	struct percpu_counter_tree *c = &st->edge[e];
	unsigned long i, n = hpcc_residual_cells(sh), got, want = 0;
	long r;

	for (i = 0; i < n; i++) {
		unsigned int l = hpcc_residual_cell_level(sh, i);

		if (!l)
			got = READ_ONCE(*per_cpu_ptr(c->level0, i)) & (sh->batch - 1);
		else
			got = (unsigned long)atomic_long_read(&c->items[hpcc_residual_cell_item(sh, i)].count) &
			      (sh->threshold[l] - 1);
		want += st->edge_plan->cell[e][i];
		if (got != st->edge_plan->cell[e][i]) {
			stress_fail(s, "edge_state", -1, "counter %s (batch %lu): cell %lu (level %u) "
				    "holds residual %lu, the residual model of the adds made says %lu "
				    "(plan %lu: R %ld)", key_names[K_EDGE0 + e], sh->batch, i, l, got,
				    st->edge_plan->cell[e][i], st->edge_plan->plans,
				    st->edge_plan->target[e]);
			return false;
		}
	}
	r = (long)((unsigned long)percpu_counter_tree_precise_sum(c) -
		   (unsigned long)percpu_counter_tree_approximate_sum(c));
	stress_count_checks(s, n + 1);
	if (r != (long)want) {
		stress_fail(s, "edge_state", -1, "counter %s (batch %lu): precise - approximate = %ld, "
			    "the residuals sum to %lu", key_names[K_EDGE0 + e], sh->batch, r, want);
		return false;
	}
	return true;
}

/* set() so that the approximation is @approx (R is kept); false after a failure. */
static bool place(struct stress *s, struct storm *st, unsigned int e, long approx, long r)
{
	struct percpu_counter_tree *c = &st->edge[e];
	long p = (long)((unsigned long)approx + r), gp, ga;

	percpu_counter_tree_set(c, p);
	gp = percpu_counter_tree_precise_sum(c);
	ga = percpu_counter_tree_approximate_sum(c);
	stress_count_checks(s, 2);
	if (gp != p)
		stress_fail(s, "set", -1, "set(%s, %ld): precise sum %ld", key_names[K_EDGE0 + e], p,
			    gp);
	else if (ga != approx)
		stress_fail(s, "edge_state", -1, "set(%s, %ld) with residual %ld: approximate sum "
			    "%ld, expected %ld", key_names[K_EDGE0 + e], p, r, ga, approx);
	return gp == p && ga == approx;
}

/* A base value for the approximations, away from the wrap-around. */
static long sweep_base(struct storm_edge *E)
{
	static const long bases[] = { 0, -1000003, 1L << 40 };

	return bases[stress_rng_below(&E->rng, ARRAY_SIZE(bases))];
}

/* compare: every boundary, every function, both orders, every pair of batches. */
static void edge_sweep(struct stress *s, struct storm *st, const long *r)
{
	struct storm_edge *E = st->edge_plan;
	unsigned long exact[NR_EDGE];
	long d[HPCC_EDGE_MAX_OFFSETS], base = sweep_base(E);
	unsigned int e, f, k, n;

	for (e = 0; e < NR_EDGE; e++) {
		struct truth_window w;

		truth_read_done(st->truth, K_EDGE0 + e, &w);
		truth_read_started(st->truth, K_EDGE0 + e, &w);
		exact[e] = truth_exact(&w);
	}
	for (e = 0; e < NR_EDGE && !stress_failed(s); e++) {
		struct percpu_counter_tree *c = &st->edge[e];
		unsigned int key = K_EDGE0 + e;

		n = hpcc_edge_value_offsets(st->under[key], st->over[key],
					    eshape(st, e)->settled_max, r[e], d);
		if (!place(s, st, e, base, r[e]))
			break;
		for (k = 0; k < n && !stress_failed(s); k++) {
			long v = (long)((unsigned long)base + d[k]);

			storm_compare_value_verdict(s, st, key, v, (unsigned long)base + r[e], base,
				percpu_counter_tree_approximate_compare_value(c, v),
				percpu_counter_tree_precise_compare_value(c, v));
		}
	}
	for (e = 0; e < NR_EDGE && !stress_failed(s); e++)
	for (f = 0; f < NR_EDGE && !stress_failed(s); f++) {
		unsigned int ka = K_EDGE0 + e, kb = K_EDGE0 + f;
		struct percpu_counter_tree *a = &st->edge[e], *b = &st->edge[f];

		if (e == f)
			continue;
		n = hpcc_edge_pair_offsets(st->under[ka], st->over[ka], r[e], st->under[kb],
					   st->over[kb], r[f], d);
		for (k = 0; k < n && !stress_failed(s); k++) {
			long aa = (long)((unsigned long)base + d[k]);

			if (!place(s, st, e, aa, r[e]) || !place(s, st, f, base, r[f]))
				break;
			storm_compare_pair_verdict(s, st, ka, kb, (unsigned long)aa + r[e],
				(unsigned long)base + r[f], aa, base,
				percpu_counter_tree_approximate_compare(a, b),
				percpu_counter_tree_precise_compare(a, b));
		}
	}
	/* Back to the values the ground truth holds. */
	for (e = 0; e < NR_EDGE; e++)
		percpu_counter_tree_set(&st->edge[e], (long)exact[e]);
	E->sweeps++;
}

void storm_edge_quiescent(struct stress *s, struct storm *st)
{
	struct storm_edge *E = st->edge_plan;
	long r[NR_EDGE];
	unsigned int c, pos, e;

	/* The model replays the adds made since the plan, along their paths. */
	for (c = 0; c < E->nr_cpus; c++)
		for (pos = E->start[c]; pos < st->cpus[c].edge_pos; pos++) {
			struct edge_op *op = &E->ops[pos];

			hpcc_residual_apply(eshape(st, op->e), E->cell[op->e], c, op->cpu_path,
					    op->inc);
			E->migrated += op->cpu_path != c;
		}
	for (e = 0; e < NR_EDGE; e++) {
		if (!check_state(s, st, e))
			return;
		r[e] = hpcc_residual_sum(eshape(st, e), E->cell[e]);
	}
	E->checked++;
	edge_sweep(s, st, r);
	if (!stress_failed(s))
		edge_plan(st, false);
}

void storm_edge_report_json(struct storm *st, struct json *j)
{
	struct storm_edge *E = st->edge_plan;

	json_kobj_begin(j, "edge");
	json_ku64(j, "plans", E->plans);
	json_ku64(j, "states_checked", E->checked);
	json_ku64(j, "sweeps", E->sweeps);
	json_ku64(j, "migrated_adds", E->migrated);
	json_obj_end(j);
}

void storm_edge_report(struct storm *st, FILE *out)
{
	struct storm_edge *E = st->edge_plan;

	fprintf(out, "# counter_storm edge plans=%lu states_checked=%lu sweeps=%lu "
		"migrated_adds=%lu (batches %lu, %lu, %lu)\n", E->plans, E->checked,
		E->sweeps, E->migrated, eshape(st, 0)->batch, eshape(st, 1)->batch,
		eshape(st, 2)->batch);
}
