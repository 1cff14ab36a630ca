// SPDX-License-Identifier: GPL-2.0
/*
 * example: the smallest complete scenario (docs/writing-a-scenario.md).
 * Every vCPU adds values in [-N, N] to one hpcc counter and keeps the
 * exact total of what it added; whenever every vCPU is parked, and at the
 * end, the precise sum must equal the sum of those totals and lie within
 * the approximate sum's accuracy range. Registered only when
 * STRESS_EXAMPLE is set, so a default run never includes it.
 */
#include <stdlib.h>
#include <linux/percpu_counter_tree.h>
#include "scenario.h"

static struct example_cfg {
	unsigned long max_add;
} cfg;

static const struct stress_opt example_opts[] = {
	{ "example-max-add", .arg = "N", .type = OPT_UINT,
	  OPT_FIELD(struct example_cfg, max_add), .min = 1, .max = 1000000, .deflt = "100",
	  .help = "each step adds a value in [-N, N]." },
	{ .name = NULL }
};

/* What it may fail with: name, meaning, the specification it checks. */
static const struct stress_invariant example_invariants[] = {
	STRESS_INVARIANT("example_precise",
			 "quiescent: the precise sum equals what was added",
			 "docs/spec/hpcc.md#hpcc-precise"),
	STRESS_INVARIANT("example_accuracy",
			 "quiescent: what was added lies in approximate_min_max()'s range",
			 "docs/spec/hpcc.md#hpcc-accuracy"),
	{ .name = NULL }
};

struct example {
	struct percpu_counter_tree counter;
	void *items;
	atomic_long *added;		/* per vCPU: the exact total it added */
};

static int example_setup(struct stress *s)
{
	struct example *ex = calloc(1, sizeof(*ex));
	size_t isz = percpu_counter_tree_items_size();

	if (!ex)
		return -1;
	ex->items = aligned_alloc(64, isz ? isz : 64);
	ex->added = calloc(stress_nr_cpus(s), sizeof(*ex->added));
	if (!ex->items || !ex->added ||
	    percpu_counter_tree_init(&ex->counter, ex->items, stress_batch(s), GFP_KERNEL)) {
		free(ex->added);
		free(ex->items);
		free(ex);
		return -1;
	}
	stress_set_priv(s, ex);
	return 0;
}

static void example_cpu_step(struct stress *s, unsigned int cpu, struct stress_rng *rng)
{
	struct example *ex = stress_priv(s);
	long v = (long)stress_rng_below(rng, 2 * cfg.max_add + 1) - (long)cfg.max_add;

	percpu_counter_tree_add(&ex->counter, v);
	atomic_fetch_add_explicit(&ex->added[cpu], v, memory_order_relaxed);
	stress_trace(s, cpu, "add", v, 0);
}

/* Every vCPU is parked: the counter holds exactly what was added. */
static void example_quiescent(struct stress *s)
{
	struct example *ex = stress_priv(s);
	long truth = 0, precise, approx, min, max;
	unsigned int i;

	for (i = 0; i < stress_nr_cpus(s); i++)
		truth += atomic_load_explicit(&ex->added[i], memory_order_relaxed);
	precise = percpu_counter_tree_precise_sum(&ex->counter);
	percpu_counter_tree_approximate_min_max(&ex->counter, &approx, &min, &max);
	stress_count_checks(s, 2);
	if (precise != truth)
		stress_fail(s, "example_precise", -1, "precise sum %ld, added %ld", precise, truth);
	else if (truth < min || truth > max)
		stress_fail(s, "example_accuracy", -1, "approximate %ld: added %ld outside [%ld, %ld]",
			    approx, truth, min, max);
	stress_margin(s, "example_accuracy", labs(approx - truth), max - min + 1);
}

static void example_teardown(struct stress *s)
{
	struct example *ex = stress_priv(s);

	if (!stress_failed(s))
		example_quiescent(s);
	percpu_counter_tree_destroy(&ex->counter);
	free(ex->added);
	free(ex->items);
	free(ex);
	stress_set_priv(s, NULL);
}

static const struct scenario example = {
	.name = "example",
	.summary = "the documented minimal scenario (only with STRESS_EXAMPLE=1)",
	.invariants = example_invariants,
	.opts = example_opts,
	.opt_cfg = &cfg,
	.setup = example_setup,
	.cpu_step = example_cpu_step,
	.quiescent = example_quiescent,
	.teardown = example_teardown,
};

static void __attribute__((constructor)) example_register(void)
{
	if (getenv("STRESS_EXAMPLE"))
		scenario_register(&example);
	else
		scenario_declare(&example);
}
