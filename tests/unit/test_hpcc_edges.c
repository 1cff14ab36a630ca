// SPDX-License-Identifier: GPL-2.0
/*
 * Every comparison at the worst reachable states, exhaustively over the small
 * configurations: 1..16 CPUs (every shape of the table up to order 4), batches
 * 2, 4 and 8, every pair of batches for the two-counter functions. Each counter
 * is driven by the residual constructor (hpcc_state.h: public add API only,
 * state proven with the precise sum) to the extremes of its reachable residual
 * R = precise - approximate: 0, 1, over - 1, over, over + 1, T - 1 and T,
 * inside [0, T]; then placed by set() so that the approximations, the values
 * and the precise truth sit on and around every boundary the functions test
 * (outer and both inner re-tests of precise_compare, in both argument orders).
 * Expected answers come from the spec (docs/spec/hpcc.md#hpcc-compare), never
 * from the library.
 *
 * A wrong result on a reachable state is a `wrong-answer`. The contract
 * (precise in [approx - over, approx + under]) also admits states no
 * settled counter reaches (R < 0, T < R <= under): they are made by
 * moving the root (white box), and a wrong result there, or a result
 * that differs from the documented formula without contradicting the
 * truth, is a `contract` failure.
 *
 * Each CPU count runs in a process of its own (kt_run_config(): subsystem
 * init runs once per process).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <kcompat/kcompat.h>
#include <linux/kernel.h>
#include "hpcc_state.h"
#include "hpcc_util.h"

#define MAX_CPUS	16
#define NR_BATCHES	3
#define MAX_STATES	(HPCC_EDGE_MAX_EXTREMES + 4)

static const unsigned long batches[NR_BATCHES] = { 2, 4, 8 };

/*
 * Failures are counted per class in each configuration's process and the
 * first few of each kept, so that the wrong answers are printed first,
 * then the contract failures (tests/lib/ktap.h prints the first ten of a
 * case), then a count of each.
 */
#define KEEP_MSGS	5
static unsigned long class_count[KT_NR_CLASSES];
static struct {
	int line;
	char fn[64];
	char msg[512];
} kept[KT_NR_CLASSES][KEEP_MSGS];

static void __attribute__((format(printf, 5, 6)))
edge_fail(struct kt *t, int line, enum kt_class cls, const char *fn, const char *fmt, ...)
{
	unsigned long k = class_count[cls]++;
	va_list ap;

	if (k >= KEEP_MSGS)
		return;
	kept[cls][k].line = line;
	snprintf(kept[cls][k].fn, sizeof(kept[cls][k].fn), "%s", fn);
	va_start(ap, fmt);
	vsnprintf(kept[cls][k].msg, sizeof(kept[cls][k].msg), fmt, ap);
	va_end(ap);
}

/* Report this configuration's failures, wrong answers first. */
static void edge_report(struct kt *t)
{
	static const enum kt_class order[] = { KT_WRONG_ANSWER, KT_CONTRACT };
	unsigned int i;
	unsigned long k, extra;

	for (i = 0; i < ARRAY_SIZE(order); i++) {
		enum kt_class cls = order[i];

		for (k = 0; k < class_count[cls] && k < KEEP_MSGS; k++)
			kt_fail_class(t, cls, kept[cls][k].fn, __FILE__, kept[cls][k].line, "%s",
				      kept[cls][k].msg);
		/* The rest are counted, not printed. */
		extra = class_count[cls] > KEEP_MSGS ? class_count[cls] - KEEP_MSGS : 0;
		t->class_failures[cls] += extra;
		t->failures += extra;
	}
	if (class_count[KT_WRONG_ANSWER] + class_count[KT_CONTRACT])
		kt_diag(t, "%s: %u CPUs: %lu wrong-answer, %lu contract failures", t->name,
			nr_cpu_ids, class_count[KT_WRONG_ANSWER], class_count[KT_CONTRACT]);
}

typedef void (*config_fn)(struct kt *t, void *arg);

struct config_run {
	config_fn fn;
};

static void config_child(struct kt *t, void *arg)
{
	((struct config_run *)arg)->fn(t, NULL);
	edge_report(t);
}

/* Every CPU count 1..16, each in a process of its own (kt_run_config). */
static void run_all_configs(struct kt *t, config_fn fn)
{
	struct config_run cr = { fn };
	unsigned int n;

	for (n = 1; n <= MAX_CPUS; n++)
		kt_run_config(t, n, config_child, &cr);
}

/* --- the residual constructor, checked on its own --- */

/* Every R in [0, T], both fill orders, both signs, chained; random states; T + 1 refused. */
static void constructor_config(struct kt *t, void *arg)
{
	static const unsigned long cb[] = { 2, 4, 8, 32 };
	unsigned int b, above, how, k;
	struct kt_rng rng;

	kt_rng_seed(&rng, nr_cpu_ids);
	for (b = 0; b < ARRAY_SIZE(cb); b++)
	for (above = 0; above < 2; above++) {
		struct hu_state st, fresh;
		unsigned long r, n, i, *to;
		char what[96];

		if (!hu_state_init(t, &st, cb[b]))
			return;
		n = hpcc_residual_cells(&st.s);
		to = calloc(n + 1, sizeof(*to));
		KT_ASSERT(t, to, "out of memory");
		KT_EXPECT(t, hpcc_residual_fill(&st.s, st.s.settled_max + 1, HPCC_FILL_TOP, to),
			  "%u CPUs batch %lu: residual T + 1 = %lu accepted", nr_cpu_ids, cb[b],
			  st.s.settled_max + 1);
		for (how = 0; how < 2; how++) {
			for (r = 0; r <= st.s.settled_max; r++) {
				snprintf(what, sizeof(what), "R %lu, fill %s, %s", r,
					 how ? "bottom" : "top", above ? "from above" : "from below");
				KT_ASSERT(t, !hpcc_residual_fill(&st.s, r, how, to) &&
					  !hpcc_residual_valid(&st.s, to) &&
					  hpcc_residual_sum(&st.s, to) == r,
					  "%u CPUs batch %lu: no valid state for %s", nr_cpu_ids,
					  cb[b], what);
				hu_state_move(&st, to, above, r);
				if (!hu_state_prove(t, &st, what))
					break;
			}
		}
		/* Random states: every cell anywhere in its range. */
		for (k = 0; k < 64; k++) {
			for (i = 0; i < n; i++) {
				unsigned long step = hpcc_residual_cell_step(&st.s, i);

				to[i] = step * kt_rng_below(&rng, hpcc_residual_cell_max(&st.s, i) /
							     step + 1);
			}
			hu_state_move(&st, to, above ^ (k & 1), k);
			snprintf(what, sizeof(what), "random state %u", k);
			if (!hu_state_prove(t, &st, what))
				break;
		}
		/*
		 * The residual model the stress scenario replays: random adds,
		 * migrating between the level-0 add and the carry.
		 */
		for (k = 0; k < 200; k++) {
			unsigned int c0 = kt_rng_below(&rng, nr_cpu_ids);
			unsigned int cp = kt_rng_below(&rng, 3) ? c0 : kt_rng_below(&rng, nr_cpu_ids);
			long inc = hu_rand_inc(&rng, st.s.m_top ? st.s.m_top : 2);

			hu_add_migrating(&st.c, c0, cp, inc);
			hpcc_residual_apply(&st.s, st.cell, c0, cp, inc);
			snprintf(what, sizeof(what), "model: add %ld as CPU %u, carry via CPU %u",
				 inc, c0, cp);
			if (!hu_state_prove(t, &st, what))
				break;
		}
		kc_set_cpu(0);
		/* The extreme T straight from a fresh counter. */
		if (hu_state_init(t, &fresh, cb[b])) {
			KT_EXPECT(t, !hpcc_residual_fill(&fresh.s, fresh.s.settled_max,
							 HPCC_FILL_TOP, to), "fill T");
			hu_state_move(&fresh, to, above, 0);
			hu_state_prove(t, &fresh, "T from a fresh counter");
			hu_state_destroy(&fresh);
		}
		free(to);
		hu_state_destroy(&st);
	}
}

static void residual_constructor(struct kt *t)
{
	run_all_configs(t, constructor_config);
}

/* --- the states the comparisons are checked on --- */

struct edge_ctr {
	struct hu_state st;
	long r;			/* precise - approximate */
	bool reachable;		/* false: a contract-only state (root moved) */
	unsigned long under, over;
};

struct edge_set {
	struct edge_ctr c[NR_BATCHES][MAX_STATES];
	unsigned int n[NR_BATCHES];
	unsigned long beyond_over;	/* reachable states with over < R */
};

static void add_residual(long *rs, unsigned int *n, long r)
{
	unsigned int i;

	for (i = 0; i < *n; i++)
		if (rs[i] == r)
			return;
	rs[(*n)++] = r;
}

/* Build the reachable extremes and the contract-only edges for one batch. */
static bool build_states(struct kt *t, struct edge_set *es, unsigned int bi)
{
	struct hpcc_shape s;
	long rs[MAX_STATES], T, o, u;
	unsigned int nr, i;
	unsigned long *to;

	if (hpcc_shape_compute(&s, nr_cpu_ids, batches[bi]))
		return false;
	T = s.settled_max;
	o = s.over;
	u = s.under;
	nr = hpcc_edge_extremes(&s, rs);
	es->n[bi] = 0;
	to = calloc(hpcc_residual_cells(&s) + 1, sizeof(*to));
	if (!to)
		return false;
	for (i = 0; i < nr; i++) {
		struct edge_ctr *ec = &es->c[bi][es->n[bi]];

		if (!hu_state_init(t, &ec->st, batches[bi]))
			break;
		ec->under = hu_under(&ec->st.c);
		ec->over = hu_over(&ec->st.c);
		ec->r = rs[i];
		ec->reachable = true;
		KT_EXPECT(t, !hpcc_residual_fill(&s, rs[i], i & 1, to), "fill %ld", rs[i]);
		/* Half the states are reached with borrowing (negative) adds. */
		hu_state_move(&ec->st, to, i & 1, i);
		es->n[bi]++;
		if (!hu_state_prove(t, &ec->st, "comparison state"))
			break;
		es->beyond_over += rs[i] > o;
	}
	free(to);
	if (!s.nr_levels)
		return !t->failures;
	/* Contract-only: R < 0 or T < R <= under, made by moving the root. */
	nr = 0;
	add_residual(rs, &nr, -o);
	add_residual(rs, &nr, -1);
	if (T < u) {
		add_residual(rs, &nr, T + 1);
		add_residual(rs, &nr, u);
	}
	for (i = 0; i < nr && es->n[bi] < MAX_STATES; i++) {
		struct edge_ctr *ec = &es->c[bi][es->n[bi]];
		unsigned long root = s.nr_items - 1;

		if (!hu_state_init(t, &ec->st, batches[bi]))
			break;
		ec->under = hu_under(&ec->st.c);
		ec->over = hu_over(&ec->st.c);
		ec->r = rs[i];
		ec->reachable = false;
		hu_set_item(&ec->st.c, root, hu_item(&ec->st.c, root) - rs[i]);
		es->n[bi]++;
		KT_EXPECT(t, hu_state_residual(&ec->st) == rs[i], "contract state R %ld: %ld",
			  rs[i], hu_state_residual(&ec->st));
	}
	return !t->failures;
}

static void free_states(struct edge_set *es)
{
	unsigned int b, i;

	for (b = 0; b < NR_BATCHES; b++)
		for (i = 0; i < es->n[b]; i++)
			hu_state_destroy(&es->c[b][i].st);
}

/* set() so that the approximation is @approx; the state's R is kept. */
static bool place(struct kt *t, struct edge_ctr *ec, long approx)
{
	long p = (long)((unsigned long)approx + ec->r);

	percpu_counter_tree_set(&ec->st.c, p);
	t->checks++;
	if (percpu_counter_tree_approximate_sum(&ec->st.c) != approx ||
	    percpu_counter_tree_precise_sum(&ec->st.c) != p) {
		kt_fail(t, __FILE__, __LINE__, "%u CPUs batch %lu R %ld: set(%ld) gave approximate "
			"%ld precise %ld, want %ld and %ld", nr_cpu_ids, ec->st.s.batch, ec->r, p,
			percpu_counter_tree_approximate_sum(&ec->st.c),
			percpu_counter_tree_precise_sum(&ec->st.c), approx, p);
		return false;
	}
	return true;
}

static const long bases[] = { 0, -1000003 };

/* --- counter vs value, and min/max --- */

static void check_value(struct kt *t, struct edge_ctr *ec, long a, long v)
{
	struct percpu_counter_tree *c = &ec->st.c;
	long p = (long)((unsigned long)a + ec->r);
	int truth = hu_sign((long)((unsigned long)v - p));
	int doc = hu_compare_delta((long)((unsigned long)v - a), ec->over, ec->under);
	int ra = percpu_counter_tree_approximate_compare_value(c, v);
	int rp = percpu_counter_tree_precise_compare_value(c, v);
	enum kt_class cls = ec->reachable ? KT_WRONG_ANSWER : KT_CONTRACT;

	t->checks += 3;
	if (ra && ra != truth)
		edge_fail(t, __LINE__, cls, "percpu_counter_tree_approximate_compare_value",
			  "cpus=%u batch=%lu R=%ld%s: v=%ld approx=%ld precise=%ld got=%d truth=%d",
			  nr_cpu_ids, ec->st.s.batch, ec->r, ec->reachable ? "" : " (contract edge)",
			  v, a, p, ra, truth);
	else if (ra != doc)
		edge_fail(t, __LINE__, KT_CONTRACT, "percpu_counter_tree_approximate_compare_value",
			  "cpus=%u batch=%lu R=%ld: v=%ld approx=%ld under=%lu over=%lu got=%d "
			  "documented=%d", nr_cpu_ids, ec->st.s.batch, ec->r, v, a, ec->under,
			  ec->over, ra, doc);
	if (rp != truth)
		edge_fail(t, __LINE__, cls, "percpu_counter_tree_precise_compare_value",
			  "cpus=%u batch=%lu R=%ld%s: v=%ld approx=%ld precise=%ld got=%d truth=%d",
			  nr_cpu_ids, ec->st.s.batch, ec->r, ec->reachable ? "" : " (contract edge)",
			  v, a, p, rp, truth);
}

static void check_min_max(struct kt *t, struct edge_ctr *ec, long a)
{
	long p = (long)((unsigned long)a + ec->r), ga, mn, mx;
	enum kt_class cls = ec->reachable ? KT_WRONG_ANSWER : KT_CONTRACT;

	percpu_counter_tree_approximate_min_max(&ec->st.c, &ga, &mn, &mx);
	t->checks += 2;
	if (ga != a || (long)((unsigned long)p - mn) < 0 || (long)((unsigned long)mx - p) < 0)
		edge_fail(t, __LINE__, cls, "percpu_counter_tree_approximate_min_max",
			  "cpus=%u batch=%lu R=%ld: approx %ld precise %ld, got approx %ld range "
			  "[%ld, %ld]", nr_cpu_ids, ec->st.s.batch, ec->r, a, p, ga, mn, mx);
	else if ((unsigned long)mn != (unsigned long)a - ec->over ||
		 (unsigned long)mx != (unsigned long)a + ec->under)
		edge_fail(t, __LINE__, KT_CONTRACT, "percpu_counter_tree_approximate_min_max",
			  "cpus=%u batch=%lu R=%ld: approx %ld gave [%ld, %ld], documented [approx "
			  "- over, approx + under] = [%ld, %ld]", nr_cpu_ids, ec->st.s.batch, ec->r,
			  a, mn, mx, (long)((unsigned long)a - ec->over),
			  (long)((unsigned long)a + ec->under));
}

static void value_config(struct kt *t, void *arg)
{
	struct edge_set *es = calloc(1, sizeof(*es));
	unsigned int b, i, k, e, n;

	KT_ASSERT(t, es, "out of memory");
	for (b = 0; b < NR_BATCHES; b++) {
		if (!build_states(t, es, b))
			goto out;
		for (i = 0; i < es->n[b]; i++) {
			struct edge_ctr *ec = &es->c[b][i];
			long d[HPCC_EDGE_MAX_OFFSETS];

			n = hpcc_edge_value_offsets(ec->under, ec->over, ec->st.s.settled_max,
						    ec->r, d);
			for (k = 0; k < ARRAY_SIZE(bases); k++) {
				if (!place(t, ec, bases[k]))
					goto out;
				check_min_max(t, ec, bases[k]);
				for (e = 0; e < n; e++)
					check_value(t, ec, bases[k],
						    (long)((unsigned long)bases[k] + d[e]));
			}
		}
	}
	/* Power: T > over is reachable at 16 CPUs with batch 2 (T = 56, over = 48). */
	if (nr_cpu_ids == 16)
		KT_EXPECT(t, es->beyond_over >= 2, "16 CPUs: %lu reachable states beyond over",
			  es->beyond_over);
out:
	free_states(es);
	free(es);
}

static void compare_value_extremes(struct kt *t)
{
	run_all_configs(t, value_config);
}

/* --- counter vs counter --- */

static void check_pair_order(struct kt *t, struct edge_ctr *x, struct edge_ctr *y, long ax,
			     long ay)
{
	long px = (long)((unsigned long)ax + x->r), py = (long)((unsigned long)ay + y->r);
	long d = (long)((unsigned long)ax - ay);
	int truth = hu_sign((long)((unsigned long)px - py));
	int doc = hu_compare_delta(d, x->under + y->over, x->over + y->under);
	int ra = percpu_counter_tree_approximate_compare(&x->st.c, &y->st.c);
	int rp = percpu_counter_tree_precise_compare(&x->st.c, &y->st.c);
	enum kt_class cls = x->reachable && y->reachable ? KT_WRONG_ANSWER : KT_CONTRACT;

	t->checks += 3;
	/* The function was called as f(x, y). */
#define PAIR_FMT "cpus=%u call=f(x,y) x=[batch %lu R %ld approx %ld precise %ld] y=[batch %lu R %ld " \
		 "approx %ld precise %ld]%s got=%d"
#define PAIR_ARGS(got) nr_cpu_ids, x->st.s.batch, x->r, ax, px, y->st.s.batch, y->r, ay, py, \
		 cls == KT_CONTRACT ? " (contract edge)" : "", got
	if (rp != truth)
		edge_fail(t, __LINE__, cls, "percpu_counter_tree_precise_compare",
			  PAIR_FMT " truth=%d", PAIR_ARGS(rp), truth);
	if (ra && ra != truth)
		edge_fail(t, __LINE__, cls, "percpu_counter_tree_approximate_compare",
			  PAIR_FMT " truth=%d", PAIR_ARGS(ra), truth);
	else if (ra != doc)
		edge_fail(t, __LINE__, KT_CONTRACT, "percpu_counter_tree_approximate_compare",
			  PAIR_FMT " documented=%d", PAIR_ARGS(ra), doc);
#undef PAIR_FMT
#undef PAIR_ARGS
}

static void pair_config(struct kt *t, void *arg)
{
	struct edge_set *es = calloc(1, sizeof(*es));
	unsigned int ba, bb, i, j, k, n, nb = 0, pass;
	long d[HPCC_EDGE_MAX_OFFSETS];

	KT_ASSERT(t, es, "out of memory");
	for (ba = 0; ba < NR_BATCHES; ba++)
		if (!build_states(t, es, ba))
			goto out;
	/* Pairs of reachable states first: their failures are the wrong answers. */
	for (pass = 0; pass < 2; pass++)
	for (ba = 0; ba < NR_BATCHES; ba++)
	for (bb = 0; bb < NR_BATCHES; bb++)
	for (i = 0; i < es->n[ba]; i++)
	for (j = 0; j < es->n[bb]; j++) {
		struct edge_ctr *a = &es->c[ba][i], *b = &es->c[bb][j];
		long base = bases[nb++ % ARRAY_SIZE(bases)];

		if (a == b || (a->reachable && b->reachable) == pass)
			continue;
		n = hpcc_edge_pair_offsets(a->under, a->over, a->r, b->under, b->over, b->r, d);
		for (k = 0; k < n; k++) {
			long aa = (long)((unsigned long)base + d[k]);

			if (!place(t, a, aa) || !place(t, b, base))
				goto out;
			check_pair_order(t, a, b, aa, base);
			check_pair_order(t, b, a, base, aa);
		}
		if (class_count[KT_WRONG_ANSWER] + class_count[KT_CONTRACT] > 100000)
			goto out;
	}
	if (nr_cpu_ids == 16)
		KT_EXPECT(t, es->beyond_over >= 2, "16 CPUs: %lu reachable states beyond over",
			  es->beyond_over);
out:
	free_states(es);
	free(es);
}

static void compare_pair_extremes(struct kt *t)
{
	run_all_configs(t, pair_config);
}

static const struct kt_case cases[] = {
	KT_CASE(residual_constructor),
	KT_CASE(compare_value_extremes),
	KT_CASE(compare_pair_extremes),
};

KT_MAIN("hpcc_edges", cases)
