/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The suite's hpcc operations (struct hpcc_a, hpcc_a_*()) on top of each
 * API shape a kernel tree may have, chosen by the probes in
 * mk/probes/adapt/ ($(BUILD)/kinc/hpcc_adapt_api.h; docs/kernel-trees.md):
 *
 *   long   caller-provided items, long values, subsystem_init(),
 *          approximate_accuracy_range(c, &under, &over): every operation
 *   int-items  caller-provided items and subsystem_init(), but int
 *          values, an unsigned int batch and an accuracy range assigned
 *          through unsigned int pointers
 *   rfc    int values, items allocated by init(counter, batch, gfp),
 *          one symmetric percpu_counter_tree_inaccuracy(): under == over;
 *          the boot is subsystem_init() when declared, else the tree's
 *          module_init (kcompat's initcalls)
 *   rfc1   the first posted RFC: as rfc, but init(counter, batch) without
 *          a gfp, approx_sum(), and precise_compare()/approximate_compare()
 *          take a value (the later compare_value()): no compare of two
 *          counters (hpcc_a_limit_pair())
 *
 * What a shape cannot express is named by hpcc_a_limit_*(): NULL when the
 * operation exists, else the reason a check SKIPs with. Values outside
 * the shape's range are refused (hpcc_a_fits(); -ERANGE from add, set and
 * the compare_value calls), never truncated.
 */
#ifndef _HPCC_ADAPT_H
#define _HPCC_ADAPT_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <linux/percpu_counter_tree.h>
#include "hpcc_adapt_api.h"

#if HPCC_ADAPT_LONG
typedef long hpcc_a_val;
#define HPCC_A_VAL_MIN	LONG_MIN
#define HPCC_A_VAL_MAX	LONG_MAX
#define HPCC_A_BATCH_MAX	ULONG_MAX
#define HPCC_A_ITEMS	1
#elif HPCC_ADAPT_INT_ITEMS
typedef int hpcc_a_val;
#define HPCC_A_VAL_MIN	INT_MIN
#define HPCC_A_VAL_MAX	INT_MAX
#define HPCC_A_BATCH_MAX	UINT_MAX
#define HPCC_A_ITEMS	1
#elif HPCC_ADAPT_RFC
typedef int hpcc_a_val;
#define HPCC_A_VAL_MIN	INT_MIN
#define HPCC_A_VAL_MAX	INT_MAX
#define HPCC_A_BATCH_MAX	UINT_MAX
#define HPCC_A_ITEMS	0
#elif HPCC_ADAPT_RFC1
typedef int hpcc_a_val;
#define HPCC_A_VAL_MIN	INT_MIN
#define HPCC_A_VAL_MAX	INT_MAX
#define HPCC_A_BATCH_MAX	UINT_MAX
#define HPCC_A_ITEMS	0
#define HPCC_A_NO_PAIR	1
#else
#error "hpcc_adapt: the probes found no API shape this adapter knows (why each failed: hpcc_adapt_api.h)"
#endif
#ifndef HPCC_A_NO_PAIR
#define HPCC_A_NO_PAIR	0
#endif

struct hpcc_a {
	struct percpu_counter_tree c;
	void *items;		/* caller-provided items (long, int-items) */
};

/* True when @v is a value (or increment) the API can hold. */
static inline bool hpcc_a_fits(long v)
{
	return v >= HPCC_A_VAL_MIN && v <= HPCC_A_VAL_MAX;
}

static inline const char *hpcc_a_limit_long(void)
{
	return HPCC_ADAPT_LONG ? NULL : "API limit: values are int (no long counters)";
}

static inline const char *hpcc_a_limit_items(void)
{
	return HPCC_A_ITEMS ? NULL :
		"API limit: init() allocates its own items (no caller-provided items, no init_many())";
}

static inline const char *hpcc_a_limit_pair(void)
{
	return HPCC_A_NO_PAIR ? "API limit: no compare of two counters "
		"(precise_compare()/approximate_compare() take a value)" : NULL;
}

#if (HPCC_ADAPT_RFC || HPCC_ADAPT_RFC1) && !HPCC_ADAPT_SUBSYS
int kc_do_initcalls(void);
#endif

static inline int hpcc_a_subsystem_init(void)
{
#if HPCC_ADAPT_SUBSYS
	return percpu_counter_tree_subsystem_init();
#else
	/* The early RFC boots from module_init(): an initcall. */
	return kc_do_initcalls();
#endif
}

static inline int hpcc_a_init(struct hpcc_a *a, unsigned long batch)
{
	memset(a, 0, sizeof(*a));
	if (batch > HPCC_A_BATCH_MAX)
		return -ERANGE;
#if HPCC_A_ITEMS
	{
		size_t align = __alignof__(struct percpu_counter_tree_level_item);
		/* At least one item: the size is 0 with a single CPU. */
		size_t size = (percpu_counter_tree_items_size() + align) & ~(align - 1);
		int ret;

		a->items = aligned_alloc(align, size);
		if (!a->items)
			return -ENOMEM;
		memset(a->items, 0, size);
		ret = percpu_counter_tree_init(&a->c, a->items, batch, GFP_KERNEL);
		if (ret) {
			free(a->items);
			a->items = NULL;
		}
		return ret;
	}
#elif HPCC_ADAPT_RFC1
	return percpu_counter_tree_init(&a->c, (unsigned int)batch);
#else
	return percpu_counter_tree_init(&a->c, (unsigned int)batch, GFP_KERNEL);
#endif
}

static inline void hpcc_a_destroy(struct hpcc_a *a)
{
	percpu_counter_tree_destroy(&a->c);
	free(a->items);
	a->items = NULL;
}

/* -ERANGE (and no add) when @inc is outside the API's values. */
static inline int hpcc_a_add(struct hpcc_a *a, long inc)
{
	if (!hpcc_a_fits(inc))
		return -ERANGE;
	percpu_counter_tree_add(&a->c, (hpcc_a_val)inc);
	return 0;
}

static inline int hpcc_a_set(struct hpcc_a *a, long v)
{
	if (!hpcc_a_fits(v))
		return -ERANGE;
	percpu_counter_tree_set(&a->c, (hpcc_a_val)v);
	return 0;
}

static inline long hpcc_a_precise_sum(struct hpcc_a *a)
{
	return percpu_counter_tree_precise_sum(&a->c);
}

#if HPCC_ADAPT_RFC1
static inline long hpcc_a_approximate_sum(struct hpcc_a *a)
{
	return percpu_counter_tree_approx_sum(&a->c);
}
#else
static inline long hpcc_a_approximate_sum(struct hpcc_a *a)
{
	return percpu_counter_tree_approximate_sum(&a->c);
}

static inline long hpcc_a_approximate_sum_positive(struct hpcc_a *a)
{
	return percpu_counter_tree_approximate_sum_positive(&a->c);
}
#endif

/* Assigns the documented range: precise - approx in [-over, +under]. */
static inline void hpcc_a_accuracy_range(struct hpcc_a *a, unsigned long *under,
					 unsigned long *over)
{
#if HPCC_ADAPT_LONG
	*under = 0;
	*over = 0;
	percpu_counter_tree_approximate_accuracy_range(&a->c, under, over);
#elif HPCC_ADAPT_INT_ITEMS
	unsigned int u = 0, o = 0;

	percpu_counter_tree_approximate_accuracy_range(&a->c, &u, &o);
	*under = u;
	*over = o;
#else
	*under = percpu_counter_tree_inaccuracy(&a->c);
	*over = *under;
#endif
}

/* -ERANGE (no call) when @v is outside the API's values: never truncated. */
static inline int hpcc_a_approximate_compare_value(struct hpcc_a *a, long v)
{
	if (!hpcc_a_fits(v))
		return -ERANGE;
#if HPCC_ADAPT_RFC1
	return percpu_counter_tree_approximate_compare(&a->c, (hpcc_a_val)v);
#else
	return percpu_counter_tree_approximate_compare_value(&a->c, (hpcc_a_val)v);
#endif
}

static inline int hpcc_a_precise_compare_value(struct hpcc_a *a, long v)
{
	if (!hpcc_a_fits(v))
		return -ERANGE;
#if HPCC_ADAPT_RFC1
	return percpu_counter_tree_precise_compare(&a->c, (hpcc_a_val)v);
#else
	return percpu_counter_tree_precise_compare_value(&a->c, (hpcc_a_val)v);
#endif
}

/* Two counters; callers check hpcc_a_limit_pair() first (-EOPNOTSUPP). */
static inline int hpcc_a_approximate_compare(struct hpcc_a *a, struct hpcc_a *b)
{
#if HPCC_A_NO_PAIR
	(void)a;
	(void)b;
	return -EOPNOTSUPP;
#else
	return percpu_counter_tree_approximate_compare(&a->c, &b->c);
#endif
}

static inline int hpcc_a_precise_compare(struct hpcc_a *a, struct hpcc_a *b)
{
#if HPCC_A_NO_PAIR
	(void)a;
	(void)b;
	return -EOPNOTSUPP;
#else
	return percpu_counter_tree_precise_compare(&a->c, &b->c);
#endif
}

/* The suite's boot (tests/lib/ktap.c) on a tree without subsystem_init(). */
#if !HPCC_ADAPT_SUBSYS
#define percpu_counter_tree_subsystem_init hpcc_a_subsystem_init
#endif

#endif /* _HPCC_ADAPT_H */
