// SPDX-License-Identifier: GPL-2.0
/*
 * counter_storm: virtual CPUs hammer a few hpcc counters with seeded
 * patterns (small +-, large deltas crossing several levels, oscillation
 * around carry thresholds, long negative runs, a few hot CPUs, runs made
 * as another CPU); checkers verify them against the ground truth of
 * truth.h, exactly, with no fudge factor:
 *  (a) conservation: precise sum == exact total, and every level-0 word
 *      == the adds made as that CPU, at quiescent points;
 *  (b) at any instant, approximate and precise sums inside the window
 *      that the settled bound T and the updates in flight allow
 *      (docs/spec/hpcc.md#hpcc-residual): precise in [lo, hi], approximate in
 *      [lo - T - pending, hi + pending];
 *  (c) 0 <= precise - approximate <= T at quiescent points (and the
 *      declared under/over contract);
 *  (d) approximate_min_max contains the precise value (quiescent) and
 *      follows its formula (always);
 *  (e) comparisons agree with the truth: continuously on counters with
 *      nothing in flight during the call, always at quiescent points;
 *  (f) no WARN (checked here continuously, and by the engine at the end).
 * Counters: two made with init(), four with init_many(); three hot, one
 * warm, two cold (updated rarely by one CPU each, so that continuous
 * comparisons often find them settled).
 */
#include <stdlib.h>
#include <string.h>
#include <kcompat/kcompat.h>
#include "util/json.h"
#include "storm.h"

static const char *const pattern_names[NR_PATTERNS] = {
	"small", "large", "osc", "negrun", "hop",
};

/* Options (set before setup). */
static struct storm_cfg {
	int pattern;	/* -1: mixed */
	int skip;	/* -1: the library's default */
} cfg = { .pattern = -1, .skip = -1 };

const char *const key_names[NR_KEYS] = {
	"hot", "group0", "group1", "group2-warm", "group3-cold", "cold",
	"edge0", "edge1", "edge2",
};

/* --- options --- */

static const char *const pattern_choices[] = {
	"mixed", "small", "large", "osc", "negrun", "hop", NULL,
};
static const int pattern_values[] = { -1, P_SMALL, P_LARGE, P_OSC, P_NEGRUN, P_HOP };
static const char *const skip_choices[] = { "off", "on", NULL };

static const struct stress_opt storm_opts[] = {
	{ "storm-pattern", .arg = "NAME", .type = OPT_CHOICE, OPT_FIELD(struct storm_cfg, pattern),
	  .choices = pattern_choices, .values = pattern_values, .deflt = "mixed",
	  .help = "only this update pattern." },
	{ "storm-skip-levels", .arg = "on|off", .type = OPT_CHOICE,
	  OPT_FIELD(struct storm_cfg, skip), .choices = skip_choices,
#ifndef PERCPU_COUNTER_TREE_HAS_SKIP_SWITCH
	  .unavailable = "this hpcc build has no level-skip switch",
#endif
	  .help = "the library's level-skip optimisation (default: the library's)." },
	{ .name = NULL }
};

/* --- the update side --- */

static unsigned long top_threshold(const struct storm *st)
{
	return st->shape->m_top ? st->shape->m_top : st->shape->batch;
}

/*
 * The update side draws from the vCPU thread's stream, which the step
 * loop keeps in a local (a register): no load and store per draw.
 */
#define below(n)	stress_rng_below(r, (n))

static __always_inline long big_delta(struct storm *st, struct cs_cpu *c, struct stress_rng *r)
{
	unsigned int top_bits = 3, bits;
	unsigned long top = top_threshold(st), mag;

	while ((1UL << top_bits) <= top)
		top_bits++;
	top_bits += 3;				/* up to 8 x M_top and more */
	bits = 1 + below(top_bits);
	mag = 1 + below(1UL << bits);
	/* Now and then a huge one: carries beyond 2^31, sums that wrap. */
	if (!below(256))
		mag = (1UL << 31) + below(1UL << 40);
	return below(2) ? (long)mag : -(long)mag;
}

static long small_delta(struct cs_cpu *c, struct stress_rng *r)
{
	return (long)below(7) - 3;
}

/* 40% hot, 30% group0, 20% group1, 10% group2-warm; by a table, not branches. */
static const unsigned char key_of_tenth[10] = {
	K_HOT, K_HOT, K_HOT, K_HOT, K_G0, K_G0, K_G0, K_G1, K_G1, K_G2_WARM,
};

/* @x: a draw in [0, 1000). */
static __always_inline unsigned int key_of(struct storm *st, unsigned int cpu, unsigned long x)
{
	/* The cold counters: 1 in 1000 adds of their one CPU. */
	if (unlikely(x < 2)) {
		if (x == 0 && cpu == st->cold_owner[K_G3_COLD])
			return K_G3_COLD;
		if (x == 1 && cpu == st->cold_owner[K_COLD])
			return K_COLD;
	}
	return key_of_tenth[x / 100];
}

static unsigned int pick_key(struct storm *st, unsigned int cpu, struct stress_rng *r)
{
	return key_of(st, cpu, below(1000));
}

/*
 * --storm-pattern small: the key and the increment from one draw, one
 * generator step per add rather than two. draw x 1000 is a 128-bit
 * product: its high word is below(1000)'s value, its low word nearly
 * uniform over 2^64 whatever the high word, so low x 7 >> 64 is uniform
 * in [0, 7) as below(7) is. (The mixed pattern draws the key by
 * pick_key() and then each pattern's values.)
 */
static __always_inline unsigned int small_key_delta(struct storm *st, unsigned int cpu,
						    struct stress_rng *r, long *inc)
{
	unsigned __int128 p = (unsigned __int128)stress_rng_next(r) * 1000;

	*inc = (long)(((unsigned __int128)(unsigned long)p * 7) >> 64) - 3;
	return key_of(st, cpu, (unsigned long)(p >> 64));
}

/*
 * What the step loop keeps in locals over a burst: the thread's truth
 * cells and flight recorder ring, read once rather than again after
 * every add's call, and its add counts, written back at the burst's end.
 */
struct storm_burst {
	struct truth *truth;
	struct truth_cell *cells;	/* this thread's, by key; NULL: checking off */
	struct stress_trace_ring *ring;
	unsigned long adds, other_adds;
};

static __always_inline struct storm_burst burst_begin(const struct storm *st,
						      const struct cs_cpu *c)
{
	return (struct storm_burst){ .truth = st->truth, .cells = c->truth, .ring = c->ring };
}

static __always_inline void burst_end(struct cs_cpu *c, const struct storm_burst *b)
{
	c->adds += b->adds;
	c->other_adds += b->other_adds;
}

/*
 * Inline in one_op(), the hot loop; storm_add() for the edge plans. The
 * caller counts @inc in c->home[key] when a pattern may read it.
 */
static __always_inline void add_one(struct storm *st, struct cs_cpu *c, struct storm_burst *b,
				    unsigned int cpu, unsigned int key, long inc)
{
	unsigned int ident = kc_get_cpu();	/* the level-0 word the add lands on */
	struct truth_op op = { 0 };

	if (b->cells)
		op = truth_begin_at(&b->cells[key], inc);
	percpu_counter_tree_add(st->ctr[key], inc);
	if (b->cells) {
		truth_end_at(b->truth, &b->cells[key], &op, cpu, key, inc, ident);
		if (b->ring)
			stress_trace_to(b->ring, ident == cpu ? "add key|cpu<<8 inc" :
					"add-as-other-cpu key|cpu<<8 inc",
					key | ((long)ident << 8), inc);
	}
	b->other_adds += ident != cpu;
	b->adds++;
}

void storm_add(struct stress *s, struct storm *st, unsigned int cpu, unsigned int key, long inc)
{
	struct cs_cpu *c = &st->cpus[cpu];
	struct storm_burst b = burst_begin(st, c);

	add_one(st, c, &b, cpu, key, inc);
	c->home[key] += inc;
	burst_end(c, &b);
}

static __always_inline void new_run(struct storm *st, struct cs_cpu *c, struct stress_rng *r)
{
	const struct hpcc_shape *sh = st->shape;
	unsigned int l;

	c->pattern = cfg.pattern >= 0 ? cfg.pattern : (int)below(NR_PATTERNS);
	c->left = 16 + below(512);
	c->osc_key = below(K_G2_WARM + 1);
	c->hop_target = below(st->nr_cpus);
	/* Oscillate by 1, by a batch or by a level threshold. */
	l = below(sh->nr_levels + 2);
	if (l == 0 || !sh->nr_levels)
		c->osc_unit = 1;
	else if (l > sh->nr_levels)
		c->osc_unit = sh->batch;
	else
		c->osc_unit = sh->threshold[l - 1];
}

/*
 * @only: the one pattern every run takes (--storm-pattern), a constant
 * the switch folds away; -1: c->pattern's.
 */
static __always_inline void one_op(struct stress *s, struct storm *st, struct cs_cpu *c,
				   struct storm_burst *b, unsigned int cpu, struct stress_rng *r,
				   const int only)
{
	unsigned int key;
	unsigned long m;
	long inc = 0;

	if (only == P_SMALL)
		key = small_key_delta(st, cpu, r, &inc);
	else
		key = pick_key(st, cpu, r);

	if (!c->left--) {
		new_run(st, c, r);
		/*
		 * A hop run migrates once, at its start (owned model: a holder
		 * moved away by a swap stays where it is, see below), and goes
		 * back when it ends, unless the next run hops too.
		 */
		if (c->pattern == P_HOP) {
			if (kc_get_cpu() != c->hop_target)	/* not to an offline CPU */
				kc_set_cpu(kc_cpu_online_fallback(c->hop_target));
			c->hopped = true;
		} else if (c->hopped) {
			c->hopped = false;
			if (kc_get_cpu() != cpu)
				kc_set_cpu(cpu);
		}
	}
	switch (only >= 0 ? only : c->pattern) {
	case P_SMALL:
		if (only != P_SMALL)
			inc = small_delta(c, r);
		break;
	case P_LARGE:
		inc = big_delta(st, c, r);
		break;
	case P_OSC:
		/* Park our word just below a multiple of the unit's threshold, then +-unit. */
		key = c->osc_key;
		m = c->osc_unit > 1 ? (unsigned long)c->osc_unit * 2 : st->shape->batch;
		if ((c->home[key] & (m - 1)) != m - 1 && (c->left & 7) == 0)
			inc = (long)((m - 1) - (c->home[key] & (m - 1)));
		else
			inc = (c->left & 1) ? c->osc_unit : -c->osc_unit;
		break;
	case P_NEGRUN:
		inc = -(long)(1 + below(2 * st->shape->batch));
		break;
	default:	/* P_HOP */
		/*
		 * The run as another CPU (migrated when it started): the updates
		 * land on its word and carry along its path. Owned per-CPU
		 * model: that CPU's thread moves to the CPU we left (a swap at
		 * its next preemption point, after its level-0 add: its carry
		 * may still be in flight) and stays there until a migration
		 * moves it again; the engine does not bring it back, so any
		 * run may be made as another CPU (add_one() accounts each
		 * add to the CPU it ran as). Atomic model: that CPU's thread
		 * keeps running on the same word.
		 */
		inc = below(4) ? small_delta(c, r) : big_delta(st, c, r);
		break;
	}
	add_one(st, c, b, cpu, key, inc);
	/* Only the osc pattern reads it: --storm-pattern small has none. */
	if (only != P_SMALL)
		c->home[key] += inc;
}

#undef below

/*
 * @n steps (the engine's burst; one for a lone cpu_step()), the thread's
 * stream kept in a register across them. A step does the CPU's next
 * edge-plan add, if any, as this CPU (a hop below may change the identity
 * until the step ends), then one op, or HOT_BURST on a hot CPU.
 */
static __always_inline void run_steps(struct stress *s, struct storm *st, unsigned int cpu,
				      struct stress_rng *r, unsigned long n, const int only)
{
	struct cs_cpu *c = &st->cpus[cpu];
	struct storm_burst b = burst_begin(st, c);
	unsigned int i, ops = c->hot ? HOT_BURST : 1;

	while (n--) {
		stress_step_home(cpu);
		if (c->edge_pos < c->edge_end)
			storm_edge_step(s, st, cpu);
		for (i = 0; i < ops; i++)
			one_op(s, st, c, &b, cpu, r, only);
	}
	burst_end(c, &b);
}

static void storm_cpu_steps(struct stress *s, unsigned int cpu, struct stress_rng *r,
			    unsigned long n)
{
	struct storm *st = stress_priv(s);
	struct cs_cpu *c = &st->cpus[cpu];
	struct stress_rng lr = *r;

	/* With --storm-pattern small every run is small: new_run() sets nothing else. */
	if (cfg.pattern == P_SMALL)
		run_steps(s, st, cpu, &lr, n, P_SMALL);
	else
		run_steps(s, st, cpu, &lr, n, -1);
	*r = lr;
	if (unlikely(st->set_race) && !(++c->sr_bursts & 31))
		storm_set_race_step(s, st, cpu, c->sr_bursts >> 5);
}

/* Serial replays and slowed runs step one at a time (stress_step_home() is a no-op there). */
static void storm_cpu_step(struct stress *s, unsigned int cpu, struct stress_rng *r)
{
	storm_cpu_steps(s, cpu, r, 1);
}

/* --- life cycle --- */

static void storm_free(struct storm *st)
{
	unsigned int i;

	storm_edge_free(st);
	storm_set_race_free(st);
	truth_free(st->truth);
	free(st->cpus);
	for (i = 0; i < ARRAY_SIZE(st->items); i++)
		free(st->items[i]);
	free(st);
}

static int storm_setup(struct stress *s)
{
	struct storm *st = calloc(1, sizeof(*st));
	size_t isz = percpu_counter_tree_items_size();
	unsigned long batch = stress_batch(s);
	unsigned int i;

	if (!st)
		return -1;
	st->shape = stress_shape(s);
	st->nr_cpus = stress_nr_cpus(s);
	st->checking = stress_checking(s);
	/* At least one cache line: a zero-size buffer would be a NULL pointer. */
	st->items[0] = aligned_alloc(64, isz ? isz : 64);
	st->items[1] = aligned_alloc(64, isz ? isz : 64);
	st->items[2] = aligned_alloc(64, isz ? NR_GROUP * isz : 64);
	st->cpus = aligned_alloc(64, sizeof(*st->cpus) * st->nr_cpus);
	st->truth = st->checking ? truth_new(st->nr_cpus, NR_KEYS, stress_nr_selectors(s)) : NULL;
	if (!st->items[0] || !st->items[1] || !st->items[2] || !st->cpus ||
	    (st->checking && !st->truth)) {
		storm_free(st);
		return -1;
	}
	memset(st->cpus, 0, sizeof(*st->cpus) * st->nr_cpus);
#ifdef PERCPU_COUNTER_TREE_HAS_SKIP_SWITCH
	st->saved_skip = percpu_counter_tree_skip_levels;
	if (cfg.skip >= 0)
		percpu_counter_tree_skip_levels = cfg.skip;
#endif
	if (percpu_counter_tree_init(&st->solo[0], st->items[0], batch, GFP_KERNEL))
		goto fail;
	if (percpu_counter_tree_init(&st->solo[1], st->items[1], batch, GFP_KERNEL)) {
		percpu_counter_tree_destroy(&st->solo[0]);
		goto fail;
	}
	if (percpu_counter_tree_init_many(st->group, st->items[2], NR_GROUP, batch, GFP_KERNEL)) {
		percpu_counter_tree_destroy(&st->solo[0]);
		percpu_counter_tree_destroy(&st->solo[1]);
		goto fail;
	}
	st->ctr[K_HOT] = &st->solo[0];
	st->ctr[K_COLD] = &st->solo[1];
	for (i = 0; i < NR_GROUP; i++)
		st->ctr[K_G0 + i] = &st->group[i];
	for (i = 0; i < K_EDGE0; i++)
		st->kshape[i] = *st->shape;
	if (storm_edge_setup(s, st)) {
		percpu_counter_tree_destroy_many(st->group, NR_GROUP);
		percpu_counter_tree_destroy(&st->solo[0]);
		percpu_counter_tree_destroy(&st->solo[1]);
		goto fail;
	}
	if (storm_set_race_setup(s, st)) {
		storm_edge_free(st);
		percpu_counter_tree_destroy_many(st->group, NR_GROUP);
		percpu_counter_tree_destroy(&st->solo[0]);
		percpu_counter_tree_destroy(&st->solo[1]);
		goto fail;
	}
	for (i = 0; i < NR_KEYS; i++)
		percpu_counter_tree_approximate_accuracy_range(st->ctr[i], &st->under[i],
							       &st->over[i]);
	st->cold_owner[K_COLD] = 0;
	st->cold_owner[K_G3_COLD] = st->nr_cpus - 1;
	for (i = 0; i < st->nr_cpus; i++) {
		st->cpus[i].truth = st->truth ? truth_cell(st->truth, i, 0) : NULL;
		st->cpus[i].ring = stress_trace_ring(s, i);
	}
	for (i = 0; i < st->nr_cpus; i++)
		st->cpus[i].hot = !(stress_mix(stress_seed(s) ^ i) & 31) ||
				  i == stress_seed(s) % st->nr_cpus;
	stress_rng_seed(&st->qrng, stress_seed(s), "counter_storm/quiescent", 0);
	stress_set_priv(s, st);
	return 0;
fail:
	storm_free(st);
	return -1;
}

static void storm_teardown(struct stress *s)
{
	struct storm *st = stress_priv(s);

	if (!st)
		return;
	percpu_counter_tree_destroy_many(st->group, NR_GROUP);
	percpu_counter_tree_destroy(&st->solo[0]);
	percpu_counter_tree_destroy(&st->solo[1]);
#ifdef PERCPU_COUNTER_TREE_HAS_SKIP_SWITCH
	percpu_counter_tree_skip_levels = st->saved_skip;
#endif
	storm_free(st);
	stress_set_priv(s, NULL);
}

struct storm_totals {
	unsigned long adds, other_adds;
};

/* Called once every thread has stopped. */
static struct storm_totals storm_sums(struct storm *st)
{
	struct storm_totals t = { 0, 0 };
	unsigned int i;

	for (i = 0; i < st->nr_cpus; i++) {
		t.adds += st->cpus[i].adds;
		t.other_adds += st->cpus[i].other_adds;
	}
	return t;
}

static void storm_report_text(struct stress *s, FILE *out)
{
	struct storm *st = stress_priv(s);
	struct storm_totals totals = storm_sums(st);
	unsigned int key;

	storm_edge_report(st, out);
	storm_set_race_report(st, out);
	/* Every thread has stopped: the final values (same seed and --steps, same values). */
	fprintf(out, "# counter_storm final");
	for (key = 0; key < NR_KEYS; key++)
		fprintf(out, " %s=%ld", key_names[key],
			percpu_counter_tree_precise_sum(st->ctr[key]));
	fprintf(out, "\n");
	fprintf(out, "# counter_storm adds=%lu adds_as_other_cpu=%lu compares=%lu "
		"unsettled_skips=%lu far_pairs=%lu sets=%lu pattern=%s skip_levels=%s\n",
		totals.adds, totals.other_adds, atomic_load(&st->compares),
		atomic_load(&st->unsettled), atomic_load(&st->far_pairs), atomic_load(&st->sets),
		cfg.pattern < 0 ? "mixed" : pattern_names[cfg.pattern],
		cfg.skip < 0 ? "default" : cfg.skip ? "on" : "off");
}

static void storm_report_json(struct stress *s, struct json *j)
{
	struct storm *st = stress_priv(s);
	struct storm_totals totals = storm_sums(st);

	json_ku64(j, "adds", totals.adds);
	json_ku64(j, "adds_as_other_cpu", totals.other_adds);
	json_ku64(j, "compares", atomic_load(&st->compares));
	json_ku64(j, "unsettled_skips", atomic_load(&st->unsettled));
	json_ku64(j, "far_pairs", atomic_load(&st->far_pairs));
	json_ku64(j, "sets", atomic_load(&st->sets));
	json_kstr(j, "pattern", cfg.pattern < 0 ? "mixed" : pattern_names[cfg.pattern]);
	json_kstr(j, "skip_levels", cfg.skip < 0 ? "default" : cfg.skip ? "on" : "off");
	storm_edge_report_json(st, j);
}

static const struct scenario counter_storm = {
	.name = "counter_storm",
	.summary = "hpcc counters under seeded update patterns, checked exactly against "
		   "ground truth (docs/spec/hpcc.md#hpcc-residual)",
	.invariants = storm_invariants,
	.opts = storm_opts,
	.opt_cfg = &cfg,
	.setup = storm_setup,
	.cpu_step = storm_cpu_step,
	.cpu_steps = storm_cpu_steps,
	.select_step = storm_select_step,
	.quiescent = storm_quiescent,
	.teardown = storm_teardown,
	.report_text = storm_report_text,
	.report_json = storm_report_json,
};
SCENARIO_REGISTER(counter_storm)
