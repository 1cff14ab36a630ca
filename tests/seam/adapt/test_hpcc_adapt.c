// SPDX-License-Identifier: GPL-2.0
/*
 * The checks every API shape can express, through lib/hpcc_adapt
 * (docs/kernel-trees.md#older-apis): conservation, the accuracy range,
 * both comparisons against a value and against another counter, set().
 * What a shape cannot express SKIPs naming the API limit. The promises
 * are the ones every version documents: the precise sum is the sum of
 * the increments; a settled approximation is within [-over, +under] of it
 * (the RFC's "± inaccuracy": under == over); approximate_compare_value()
 * is 0 within that range and otherwise the sign of v - counter, as is
 * precise_compare_value(); precise_compare(a, b) is the sign of a - b. Failures at an exact
 * range edge are class contract, any other wrong result wrong-answer.
 */
#include <limits.h>
#include <stdlib.h>
#include <kcompat/kcompat.h>
#include "hpcc_adapt.h"
#include "ktap.h"

static const unsigned int cpus_list[] = { 1, 2, 3, 4, 8, 64 };
static const unsigned long batches[] = { 2, 32 };
#define NR_OPS	600

/*
 * init() of a valid batch must succeed: a failure is a finding in init
 * (the first RFC's allocation size fails it on every CPU count below 64).
 */
#define INIT_OR_RETURN(t, a, batch) do {					\
	int __r = hpcc_a_init(a, batch);					\
									\
	(t)->checks++;							\
	if (__r) {							\
		KT_FAIL_CLASS(t, KT_WRONG_ANSWER, "percpu_counter_tree_init",	\
			      "cpus=%u batch=%lu: init returns %d",		\
			      kt_booted_cpus(), (unsigned long)(batch), __r);	\
		return;							\
	}								\
} while (0)

static int sign(long d)
{
	return d < 0 ? -1 : d > 0;
}

/* Adds from random CPUs, each increment within a few batches; @truth follows. */
static bool churn(struct kt *t, struct hpcc_a *a, unsigned long batch, struct kt_rng *r,
		  long *truth)
{
	unsigned int nr_cpus = kt_booted_cpus(), i;
	long span = 3 * (long)batch + 1;

	for (i = 0; i < NR_OPS; i++) {
		long inc = (long)kt_rng_below(r, 2 * span + 1) - span;

		kc_set_cpu((unsigned int)kt_rng_below(r, nr_cpus));
		if (hpcc_a_add(a, inc)) {
			KT_FAIL_CLASS(t, KT_WRONG_ANSWER, "percpu_counter_tree_add",
				      "add(%ld) refused", inc);
			return false;
		}
		*truth += inc;
	}
	kc_set_cpu(0);
	return true;
}

static void conservation_one(struct kt *t, void *arg)
{
	unsigned int k, n = kt_booted_cpus();
	struct kt_rng r;

	(void)arg;
	kt_rng_seed(&r, n);
	for (k = 0; k < ARRAY_SIZE(batches); k++) {
		unsigned long under, over;
		struct hpcc_a a;
		long truth = 0, p, ap;

		INIT_OR_RETURN(t, &a, batches[k]);
		if (churn(t, &a, batches[k], &r, &truth)) {
			p = hpcc_a_precise_sum(&a);
			ap = hpcc_a_approximate_sum(&a);
			hpcc_a_accuracy_range(&a, &under, &over);
			t->checks += 2;
			if (p != truth)
				KT_FAIL_CLASS(t, KT_WRONG_ANSWER, "percpu_counter_tree_precise_sum",
					      "cpus=%u batch=%lu: precise %ld, increments add to %ld",
					      n, batches[k], p, truth);
			if (p - ap > (long)under || ap - p > (long)over)
				KT_FAIL_CLASS(t, KT_WRONG_ANSWER,
					      "percpu_counter_tree_approximate_sum",
					      "cpus=%u batch=%lu: precise - approx = %ld, outside [-%lu, +%lu]",
					      n, batches[k], p - ap, over, under);
		}
		hpcc_a_destroy(&a);
	}
}

static void adapt_conservation(struct kt *t)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cpus_list); i++)
		kt_run_config(t, cpus_list[i], conservation_one, NULL);
}

/* approximate_compare_value at and beyond both range edges, and at approx. */
static void compare_value_one(struct kt *t, void *arg)
{
	unsigned int k, n = kt_booted_cpus();
	struct kt_rng r;

	(void)arg;
	kt_rng_seed(&r, 100 + n);
	for (k = 0; k < ARRAY_SIZE(batches); k++) {
		unsigned long under, over;
		struct hpcc_a a;
		long truth = 0, ap;
		unsigned int j;

		INIT_OR_RETURN(t, &a, batches[k]);
		churn(t, &a, batches[k], &r, &truth);
		ap = hpcc_a_approximate_sum(&a);
		hpcc_a_accuracy_range(&a, &under, &over);
		{
			const long d[] = { -(long)over - 1, -(long)over, 0, (long)under,
					   (long)under + 1 };
			const int want[] = { -1, 0, 0, 0, 1 };

			for (j = 0; j < ARRAY_SIZE(d); j++) {
				int got = hpcc_a_approximate_compare_value(&a, ap + d[j]);
				bool edge = j == 1 || j == 3;

				t->checks++;
				if (got != want[j])
					KT_FAIL_CLASS(t, edge ? KT_CONTRACT : KT_WRONG_ANSWER,
						      "percpu_counter_tree_approximate_compare_value",
						      "cpus=%u batch=%lu: v - approx = %+ld returns %d; the documented range is [-over, +under] = [-%lu, +%lu], so the answer must be %d",
						      n, batches[k], d[j], got, over, under, want[j]);
			}
		}
		hpcc_a_destroy(&a);
	}
}

static void adapt_compare_value(struct kt *t)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cpus_list); i++)
		kt_run_config(t, cpus_list[i], compare_value_one, NULL);
}

static void precise_compare_value_one(struct kt *t, void *arg)
{
	unsigned int k, n = kt_booted_cpus();
	struct kt_rng r;

	(void)arg;
	kt_rng_seed(&r, 200 + n);
	for (k = 0; k < ARRAY_SIZE(batches); k++) {
		unsigned long under, over;
		struct hpcc_a a;
		long truth = 0, far;
		unsigned int j;

		INIT_OR_RETURN(t, &a, batches[k]);
		churn(t, &a, batches[k], &r, &truth);
		hpcc_a_accuracy_range(&a, &under, &over);
		far = (long)(under + over) + 1;
		{
			const long d[] = { -far, -1, 0, 1, far };

			for (j = 0; j < ARRAY_SIZE(d); j++) {
				int got = hpcc_a_precise_compare_value(&a, truth + d[j]);

				t->checks++;
				if (got != sign(d[j]))
					KT_FAIL_CLASS(t, KT_WRONG_ANSWER,
						      "percpu_counter_tree_precise_compare_value",
						      "cpus=%u batch=%lu: counter %ld, v %ld: returns %d, want %d",
						      n, batches[k], truth, truth + d[j], got, sign(d[j]));
			}
		}
		hpcc_a_destroy(&a);
	}
}

static void adapt_precise_compare_value(struct kt *t)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cpus_list); i++)
		kt_run_config(t, cpus_list[i], precise_compare_value_one, NULL);
}

/*
 * Two counters: b is set to a's value + d. precise_compare() is the sign
 * of a - b; approximate_compare() is 0 or that sign, never the other one.
 */
static void compare_pair_one(struct kt *t, void *arg)
{
	unsigned int k, n = kt_booted_cpus();
	struct kt_rng r;

	(void)arg;
	kt_rng_seed(&r, 300 + n);
	for (k = 0; k < ARRAY_SIZE(batches); k++) {
		unsigned long under, over;
		struct hpcc_a a, b;
		long truth = 0, far, tb = 0;
		unsigned int j;

		INIT_OR_RETURN(t, &a, batches[k]);
		if (hpcc_a_init(&b, batches[k])) {
			hpcc_a_destroy(&a);
			KT_ASSERT(t, false, "init b batch %lu", batches[k]);
		}
		churn(t, &a, batches[k], &r, &truth);
		churn(t, &b, batches[k], &r, &tb);
		hpcc_a_accuracy_range(&a, &under, &over);
		far = 2 * (long)(under + over) + 1;
		{
			const long d[] = { -far, -1, 0, 1, far };

			for (j = 0; j < ARRAY_SIZE(d); j++) {
				int want = sign(-d[j]), pc, ac;

				hpcc_a_set(&b, truth + d[j]);
				pc = hpcc_a_precise_compare(&a, &b);
				ac = hpcc_a_approximate_compare(&a, &b);
				t->checks += 2;
				if (pc != want)
					KT_FAIL_CLASS(t, KT_WRONG_ANSWER,
						      "percpu_counter_tree_precise_compare",
						      "cpus=%u batch=%lu: a %ld, b %ld: precise_compare(a, b) returns %d, want %d",
						      n, batches[k], truth, truth + d[j], pc, want);
				if (ac != 0 && ac != want)
					KT_FAIL_CLASS(t, KT_WRONG_ANSWER,
						      "percpu_counter_tree_approximate_compare",
						      "cpus=%u batch=%lu: a %ld, b %ld: approximate_compare(a, b) returns %d, want 0 or %d",
						      n, batches[k], truth, truth + d[j], ac, want);
			}
		}
		hpcc_a_destroy(&b);
		hpcc_a_destroy(&a);
	}
}

static void adapt_compare_pair(struct kt *t)
{
	unsigned int i;

	if (hpcc_a_limit_pair()) {
		kt_skip(t, "%s", hpcc_a_limit_pair());
		return;
	}
	for (i = 0; i < ARRAY_SIZE(cpus_list); i++)
		kt_run_config(t, cpus_list[i], compare_pair_one, NULL);
}

/* set(v): precise == v, the approximation within range, adds count on from v. */
static void set_one(struct kt *t, void *arg)
{
	static const long vals[] = { 0, 1, -1, 31, -33, 1000000, -1000000, 1L << 30,
				     -(1L << 30) };
	unsigned int k, j, n = kt_booted_cpus();
	struct kt_rng r;

	(void)arg;
	kt_rng_seed(&r, 400 + n);
	for (k = 0; k < ARRAY_SIZE(batches); k++) {
		for (j = 0; j < ARRAY_SIZE(vals); j++) {
			unsigned long under, over;
			struct hpcc_a a;
			long truth = 0, p, ap;

			INIT_OR_RETURN(t, &a, batches[k]);
			churn(t, &a, batches[k], &r, &truth);
			KT_EXPECT(t, !hpcc_a_set(&a, vals[j]), "set(%ld) refused", vals[j]);
			p = hpcc_a_precise_sum(&a);
			t->checks++;
			if (p != vals[j])
				KT_FAIL_CLASS(t, KT_WRONG_ANSWER, "percpu_counter_tree_set",
					      "cpus=%u batch=%lu: set(%ld), precise %ld",
					      n, batches[k], vals[j], p);
			truth = vals[j];
			churn(t, &a, batches[k], &r, &truth);
			p = hpcc_a_precise_sum(&a);
			ap = hpcc_a_approximate_sum(&a);
			hpcc_a_accuracy_range(&a, &under, &over);
			t->checks += 2;
			if (p != truth)
				KT_FAIL_CLASS(t, KT_WRONG_ANSWER, "percpu_counter_tree_set",
					      "cpus=%u batch=%lu: set(%ld) then adds: precise %ld, want %ld",
					      n, batches[k], vals[j], p, truth);
			if (p - ap > (long)under || ap - p > (long)over)
				KT_FAIL_CLASS(t, KT_WRONG_ANSWER, "percpu_counter_tree_set",
					      "cpus=%u batch=%lu: set(%ld) then adds: precise - approx = %ld, outside [-%lu, +%lu]",
					      n, batches[k], vals[j], p - ap, over, under);
			hpcc_a_destroy(&a);
		}
	}
}

static void adapt_set(struct kt *t)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cpus_list); i++)
		kt_run_config(t, cpus_list[i], set_one, NULL);
}

/* Values beyond int: set and count across 2^31 and 2^32. */
static void long_one(struct kt *t, void *arg)
{
	static const long vals[] = { 1L << 31, -(1L << 31) - 1, 1L << 40, LONG_MAX / 2 };
	struct hpcc_a a;
	unsigned int j;

	(void)arg;
	for (j = 0; j < ARRAY_SIZE(vals); j++) {
		INIT_OR_RETURN(t, &a, 32);
		KT_EXPECT(t, !hpcc_a_set(&a, vals[j]), "set(%ld) refused", vals[j]);
		hpcc_a_add(&a, 1);
		t->checks++;
		if (hpcc_a_precise_sum(&a) != vals[j] + 1)
			KT_FAIL_CLASS(t, KT_WRONG_ANSWER, "percpu_counter_tree_precise_sum",
				      "set(%ld), add(1): precise %ld", vals[j],
				      hpcc_a_precise_sum(&a));
		hpcc_a_destroy(&a);
	}
}

static void adapt_long_values(struct kt *t)
{
	const char *why = hpcc_a_limit_long();

	if (why) {
		/* The adapter refuses what the API cannot hold. */
		KT_EXPECT(t, !hpcc_a_fits(1L << 40) && hpcc_a_fits(-(1L << 30)),
			  "value range of an int API");
		kt_skip(t, "%s", why);
		return;
	}
	kt_run_config(t, 4, long_one, NULL);
}

#if HPCC_A_ITEMS
/* Four counters on one caller-provided block: each keeps its own count. */
static void items_one(struct kt *t, void *arg)
{
	struct percpu_counter_tree c[4];
	size_t size = percpu_counter_tree_items_size();
	size_t align = __alignof__(struct percpu_counter_tree_level_item);
	size_t total = (4 * size + align) & ~(align - 1);
	void *items = aligned_alloc(align, total);
	unsigned int i;

	(void)arg;
	KT_ASSERT(t, items, "alloc");
	memset(items, 0, total);
	KT_ASSERT(t, !percpu_counter_tree_init_many(c, items, 4, 8, GFP_KERNEL), "init_many");
	for (i = 0; i < 4; i++) {
		kc_set_cpu(i % kt_booted_cpus());
		percpu_counter_tree_add(&c[i], 100 * (i + 1));
	}
	kc_set_cpu(0);
	for (i = 0; i < 4; i++) {
		long p = percpu_counter_tree_precise_sum(&c[i]);

		t->checks++;
		if (p != 100 * (long)(i + 1))
			KT_FAIL_CLASS(t, KT_WRONG_ANSWER, "percpu_counter_tree_init_many",
				      "counter %u: precise %ld, want %u", i, p, 100 * (i + 1));
	}
	percpu_counter_tree_destroy_many(c, 4);
	free(items);
}
#endif

static void adapt_caller_items(struct kt *t)
{
	const char *why = hpcc_a_limit_items();

	if (why) {
		kt_skip(t, "%s", why);
		return;
	}
#if HPCC_A_ITEMS
	kt_run_config(t, 8, items_one, NULL);
#endif
}

static const struct kt_case cases[] = {
	KT_CASE(adapt_conservation),
	KT_CASE(adapt_compare_value),
	KT_CASE(adapt_precise_compare_value),
	KT_CASE(adapt_compare_pair),
	KT_CASE(adapt_set),
	KT_CASE(adapt_long_values),
	KT_CASE(adapt_caller_items),
};

KT_MAIN("hpcc_adapt", cases)
