/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The adapter's range plumbing (lib/hpcc_adapt/hpcc_adapt.h) on the
 * fixture header beside this file: which end of the accuracy range is
 * which, the values and batches at the shape's ends and one step outside
 * (taken and passed unchanged / refused with -ERANGE and no call), and the
 * order of a pair. Included once by each shape's test program, with
 * ADAPT_FIXTURE_INT defined (0: long, 1: int-items).
 */
#include <limits.h>
#include "ktap.h"
#include "hpcc_adapt.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* hpcc_a_accuracy_range(): under and over as the API's pointers gave them. */
static void range_under_over(struct kt *t)
{
	unsigned long under = 0, over = 0;
	struct hpcc_a a;

	KT_EXPECT_EQ(t, hpcc_a_init(&a, 4), 0);
	hpcc_a_accuracy_range(&a, &under, &over);
	KT_EXPECT(t, under == ADAPT_FIXTURE_UNDER && over == ADAPT_FIXTURE_OVER,
		  "under %lu over %lu, the API says under %d over %d", under, over,
		  ADAPT_FIXTURE_UNDER, ADAPT_FIXTURE_OVER);
	hpcc_a_destroy(&a);
}

/* @op at @v: 0 and @v passed unchanged, or -ERANGE and no call. */
static void value_at(struct kt *t, struct hpcc_a *a, const char *name,
		     int (*op)(struct hpcc_a *, long), long v, bool fits)
{
	int calls = a->c.calls, ret = op(a, v);

	if (fits)
		KT_EXPECT(t, ret != -ERANGE && a->c.calls == calls + 1 && a->c.last == v,
			  "%s(%ld): %d, passed %ld", name, v, ret, (long)a->c.last);
	else
		KT_EXPECT(t, ret == -ERANGE && a->c.calls == calls,
			  "%s(%ld) outside the API's values: %d, %d calls", name, v, ret,
			  a->c.calls - calls);
}

/* Each value-taking operation at the shape's ends and one step outside. */
static void values_at_bounds(struct kt *t)
{
	static const struct {
		const char *name;
		int (*op)(struct hpcc_a *, long);
	} ops[] = {
		{ "add", hpcc_a_add }, { "set", hpcc_a_set },
		{ "approximate_compare_value", hpcc_a_approximate_compare_value },
		{ "precise_compare_value", hpcc_a_precise_compare_value },
	};
	struct hpcc_a a;
	unsigned int i;

	KT_EXPECT_EQ(t, hpcc_a_init(&a, 4), 0);
	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		value_at(t, &a, ops[i].name, ops[i].op, HPCC_A_VAL_MIN, true);
		value_at(t, &a, ops[i].name, ops[i].op, HPCC_A_VAL_MAX, true);
#if HPCC_A_VAL_MAX < LONG_MAX
		value_at(t, &a, ops[i].name, ops[i].op, (long)HPCC_A_VAL_MIN - 1, false);
		value_at(t, &a, ops[i].name, ops[i].op, (long)HPCC_A_VAL_MAX + 1, false);
#endif
	}
	hpcc_a_destroy(&a);
}

/* init() at the largest batch the shape holds, and one more; items and gfp passed. */
static void batch_at_bound(struct kt *t)
{
	struct hpcc_a a;

	KT_EXPECT_EQ(t, hpcc_a_init(&a, HPCC_A_BATCH_MAX), 0);
	KT_EXPECT(t, fx_seen.c == &a.c && a.c.batch == HPCC_A_BATCH_MAX && a.c.items &&
		  a.c.items == a.items && fx_seen.gfp == GFP_KERNEL,
		  "batch %lu items %p gfp %#x", a.c.batch, a.c.items, fx_seen.gfp);
	hpcc_a_destroy(&a);
#if HPCC_A_BATCH_MAX < ULONG_MAX
	KT_EXPECT_EQ(t, hpcc_a_init(&a, (unsigned long)HPCC_A_BATCH_MAX + 1), -ERANGE);
#endif
}

/* compare(a, b) asks about a against b, not b against a. */
static void pair_in_order(struct kt *t)
{
	struct hpcc_a a, b;

	KT_EXPECT_EQ(t, hpcc_a_init(&a, 4), 0);
	KT_EXPECT_EQ(t, hpcc_a_init(&b, 4), 0);
	KT_EXPECT_EQ(t, hpcc_a_set(&a, 5), 0);
	KT_EXPECT_EQ(t, hpcc_a_set(&b, 2), 0);
	KT_EXPECT_EQ(t, hpcc_a_approximate_compare(&a, &b), 1);
	KT_EXPECT_EQ(t, hpcc_a_precise_compare(&a, &b), 1);
	KT_EXPECT_EQ(t, hpcc_a_precise_compare(&b, &a), -1);
	hpcc_a_destroy(&a);
	hpcc_a_destroy(&b);
}

static const struct kt_case cases[] = {
	KT_CASE(range_under_over),
	KT_CASE(values_at_bounds),
	KT_CASE(batch_at_bound),
	KT_CASE(pair_in_order),
};
