/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A stand-in for a tree's percpu_counter_tree.h, of the long shape or
 * (ADAPT_FIXTURE_INT) the int-items shape (lib/hpcc_adapt/hpcc_adapt.h):
 * no counter behind it, only what the adapter passed and a range whose two
 * ends differ (under ADAPT_FIXTURE_UNDER, over ADAPT_FIXTURE_OVER), so that
 * an adapter that swaps, truncates or drops an argument is seen.
 * tests/unit/test_hpcc_adapt_range*.c compile lib/hpcc_adapt against it.
 */
#ifndef _ADAPT_FIXTURE_PERCPU_COUNTER_TREE_H
#define _ADAPT_FIXTURE_PERCPU_COUNTER_TREE_H

#include <stddef.h>

#if ADAPT_FIXTURE_INT
typedef int fx_val;
typedef unsigned int fx_range;
#else
typedef long fx_val;
typedef unsigned long fx_range;
#endif

#define ADAPT_FIXTURE_UNDER	7
#define ADAPT_FIXTURE_OVER	3

typedef unsigned int gfp_t;
#define GFP_KERNEL	0x1u

struct percpu_counter_tree_level_item {
	long pad;
};

struct percpu_counter_tree {
	void *items;
	unsigned long batch;
	fx_val last;		/* the last value or increment passed */
	int calls;		/* how many calls passed one */
};

/* What the fixture saw, for the tests. */
static struct fx_seen {
	struct percpu_counter_tree *c;
	gfp_t gfp;
} fx_seen;

static inline int percpu_counter_tree_subsystem_init(void)
{
	return 0;
}

static inline size_t percpu_counter_tree_items_size(void)
{
	return 3 * sizeof(struct percpu_counter_tree_level_item);
}

static inline int percpu_counter_tree_init(struct percpu_counter_tree *c,
					   struct percpu_counter_tree_level_item *items,
#if ADAPT_FIXTURE_INT
					   unsigned int batch,
#else
					   unsigned long batch,
#endif
					   gfp_t gfp)
{
	c->items = items;
	c->batch = batch;
	fx_seen.c = c;
	fx_seen.gfp = gfp;
	return 0;
}

static inline void percpu_counter_tree_destroy(struct percpu_counter_tree *c)
{
	c->items = NULL;
}

static inline void fx_pass(struct percpu_counter_tree *c, fx_val v)
{
	c->last = v;
	c->calls++;
}

static inline void percpu_counter_tree_add(struct percpu_counter_tree *c, fx_val inc)
{
	fx_pass(c, inc);
}

static inline void percpu_counter_tree_set(struct percpu_counter_tree *c, fx_val v)
{
	fx_pass(c, v);
}

static inline fx_val percpu_counter_tree_precise_sum(struct percpu_counter_tree *c)
{
	return c->last;
}

static inline fx_val percpu_counter_tree_approximate_sum(struct percpu_counter_tree *c)
{
	return c->last - 1;
}

static inline long percpu_counter_tree_approximate_sum_positive(struct percpu_counter_tree *c)
{
	return c->last > 1 ? c->last - 1 : 0;
}

/* precise - approx in [-over, +under]: the first pointer is under. */
static inline void percpu_counter_tree_approximate_accuracy_range(struct percpu_counter_tree *c,
								  fx_range *under, fx_range *over)
{
	*under = ADAPT_FIXTURE_UNDER;
	*over = ADAPT_FIXTURE_OVER;
}

static inline int percpu_counter_tree_approximate_compare_value(struct percpu_counter_tree *c,
								fx_val v)
{
	fx_pass(c, v);
	return 1;
}

static inline int percpu_counter_tree_precise_compare_value(struct percpu_counter_tree *c,
							    fx_val v)
{
	fx_pass(c, v);
	return -1;
}

/* Two counters: a's last value against b's, so that a swap shows. */
static inline int percpu_counter_tree_approximate_compare(struct percpu_counter_tree *a,
							  struct percpu_counter_tree *b)
{
	return (a->last > b->last) - (a->last < b->last);
}

static inline int percpu_counter_tree_precise_compare(struct percpu_counter_tree *a,
						      struct percpu_counter_tree *b)
{
	return (a->last > b->last) - (a->last < b->last);
}

#endif /* _ADAPT_FIXTURE_PERCPU_COUNTER_TREE_H */
