// SPDX-License-Identifier: GPL-2.0+ OR MIT
/*
 * Hierarchical per-CPU counters (percpu_counter_tree).
 *
 * Level 0 holds one unsigned long per possible CPU; the bits of a CPU's
 * word at and above the batch are carried into a tree of atomic items
 * whose fan-in comes from a table indexed by ceil(log2(nr_cpu_ids)). The
 * root is the approximate sum; the sum of level-0 words is the precise
 * sum. Every cell keeps a non-negative residual below its threshold, so
 * for a settled counter:
 *
 *	precise - under <= approximate <= precise + over
 *
 * with under = batch * nr_levels * 2^order, over = (batch - 1) * same.
 */

#include <linux/percpu_counter_tree.h>
#include <linux/cpumask.h>
#include <linux/atomic.h>
#include <linux/percpu.h>
#include <linux/errno.h>
#include <linux/slab.h>
#include <linux/math.h>

#define MAX_NR_LEVELS 5

/*
 * Tree shape per CPU-count order: number of levels below the root (level
 * 0 included), and log2 of the fan-in from each level into the next. At
 * most 5 levels up to 2^20 CPUs.
 */
struct counter_config {
	unsigned int nr_items;
	unsigned char nr_levels;
	unsigned char n_arity_order[MAX_NR_LEVELS];
};

static const struct counter_config per_nr_cpu_order_config[] = {
	[0] =	{ .nr_items = 0,	.nr_levels = 0,	.n_arity_order = { 0 } },
	[1] =	{ .nr_items = 1,	.nr_levels = 1,	.n_arity_order = { 1 } },
	[2] =	{ .nr_items = 3,	.nr_levels = 2,	.n_arity_order = { 1, 1 } },
	[3] =	{ .nr_items = 7,	.nr_levels = 3,	.n_arity_order = { 1, 1, 1 } },
	[4] =	{ .nr_items = 7,	.nr_levels = 3,	.n_arity_order = { 2, 1, 1 } },
	[5] =	{ .nr_items = 11,	.nr_levels = 3,	.n_arity_order = { 2, 2, 1 } },
	[6] =	{ .nr_items = 21,	.nr_levels = 3,	.n_arity_order = { 2, 2, 2 } },
	[7] =	{ .nr_items = 21,	.nr_levels = 3,	.n_arity_order = { 3, 2, 2 } },
	[8] =	{ .nr_items = 37,	.nr_levels = 3,	.n_arity_order = { 3, 3, 2 } },
	[9] =	{ .nr_items = 73,	.nr_levels = 3,	.n_arity_order = { 3, 3, 3 } },
	[10] =	{ .nr_items = 149,	.nr_levels = 4,	.n_arity_order = { 3, 3, 2, 2 } },
	[11] =	{ .nr_items = 293,	.nr_levels = 4,	.n_arity_order = { 3, 3, 3, 2 } },
	[12] =	{ .nr_items = 585,	.nr_levels = 4,	.n_arity_order = { 3, 3, 3, 3 } },
	[13] =	{ .nr_items = 1173,	.nr_levels = 5,	.n_arity_order = { 3, 3, 3, 2, 2 } },
	[14] =	{ .nr_items = 2341,	.nr_levels = 5,	.n_arity_order = { 3, 3, 3, 3, 2 } },
	[15] =	{ .nr_items = 4681,	.nr_levels = 5,	.n_arity_order = { 3, 3, 3, 3, 3 } },
	[16] =	{ .nr_items = 4681,	.nr_levels = 5,	.n_arity_order = { 4, 3, 3, 3, 3 } },
	[17] =	{ .nr_items = 8777,	.nr_levels = 5,	.n_arity_order = { 4, 4, 3, 3, 3 } },
	[18] =	{ .nr_items = 17481,	.nr_levels = 5,	.n_arity_order = { 4, 4, 4, 3, 3 } },
	[19] =	{ .nr_items = 34953,	.nr_levels = 5,	.n_arity_order = { 4, 4, 4, 4, 3 } },
	[20] =	{ .nr_items = 69905,	.nr_levels = 5,	.n_arity_order = { 4, 4, 4, 4, 4 } },
};

static const struct counter_config *counter_config __ro_after_init;
static unsigned int nr_cpus_order __ro_after_init;
static unsigned long accuracy_multiplier __ro_after_init;

/* SIZE_MAX until subsystem init: use before init is reported. */
size_t __percpu_counter_tree_items_size __ro_after_init = SIZE_MAX;
EXPORT_SYMBOL_GPL(__percpu_counter_tree_items_size);

bool percpu_counter_tree_skip_levels = true;

/*
 * Amount to carry into the parent when a cell goes from @orig to @res by
 * adding @inc: the change of the bits at and above @bit_mask, i.e.
 * (res & ~(bit_mask - 1)) - (orig & ~(bit_mask - 1)). The bits of |inc|
 * above the threshold carry as they are; one more bit_mask is carried
 * (or borrowed) when the add carried (or borrowed) into bit @bit_mask.
 * A zero @bit_mask (single CPU) yields 0.
 */
static inline unsigned long percpu_counter_tree_carry(unsigned long orig,
						      unsigned long res,
						      unsigned long inc,
						      unsigned long bit_mask)
{
	unsigned long carry, abs_inc;

	/* The common case, in a few instructions: those bits did not change. */
	if (likely(!((orig ^ res) & ~(bit_mask - 1))))
		return 0;
	if ((long)inc < 0) {
		abs_inc = -inc;
		carry = -(abs_inc & ~(bit_mask - 1));
		if ((orig ^ abs_inc ^ res) & bit_mask)
			carry -= bit_mask;
	} else {
		carry = inc & ~(bit_mask - 1);
		if ((orig ^ inc ^ res) & bit_mask)
			carry += bit_mask;
	}
	return carry;
}

/*
 * Propagate a level-0 carry up the tree along the current CPU's path. The
 * CPU may have changed since the level-0 add: only locality depends on it.
 * Out of line, so that the fast path saves no registers for it.
 */
static noinline void percpu_counter_tree_add_slowpath(struct percpu_counter_tree *counter,
					     long inc)
{
	struct percpu_counter_tree_level_item *item = counter->items;
	unsigned int level, nr_levels = counter_config->nr_levels;
	unsigned int n_arity_order = counter_config->n_arity_order[0];
	unsigned long bit_mask = counter->level0_bit_mask << n_arity_order;
	unsigned int level_items = 1U << (nr_cpus_order - n_arity_order);
	unsigned int cpu = raw_smp_processor_id();

	for (level = 1; level < nr_levels; level++) {
		atomic_long_t *count = &item[cpu & (level_items - 1)].count;
		unsigned long orig, res;

		/*
		 * A carry with no bits below this level's threshold passes
		 * through unchanged: skip the item.
		 */
		if (!percpu_counter_tree_skip_levels ||
		    (abs(inc) & (bit_mask - 1))) {
			res = atomic_long_add_return_relaxed(inc, count);
			orig = res - inc;
			inc = percpu_counter_tree_carry(orig, res, inc, bit_mask);
			if (likely(!inc))
				return;
		}
		item += level_items;
		n_arity_order = counter_config->n_arity_order[level];
		level_items >>= n_arity_order;
		bit_mask <<= n_arity_order;
	}
	atomic_long_add(inc, counter->approx_sum.a);
}

/**
 * percpu_counter_tree_add() - Add to a counter.
 * @counter: The counter.
 * @inc: Signed increment.
 *
 * A per-CPU add; the tree is touched only when the bits at and above the
 * batch change.
 */
void percpu_counter_tree_add(struct percpu_counter_tree *counter, long inc)
{
	unsigned long bit_mask = counter->level0_bit_mask, orig, res;

	res = this_cpu_add_return(*counter->level0, inc);
	orig = res - inc;
	inc = percpu_counter_tree_carry(orig, res, inc, bit_mask);
	if (likely(!inc))
		return;
	percpu_counter_tree_add_slowpath(counter, inc);
}
EXPORT_SYMBOL_GPL(percpu_counter_tree_add);

static unsigned long percpu_counter_tree_precise_sum_unbiased(struct percpu_counter_tree *counter)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(*per_cpu_ptr(counter->level0, cpu));
	return sum;
}

/**
 * percpu_counter_tree_precise_sum() - Sum every CPU's level-0 word.
 * @counter: The counter.
 *
 * Not a snapshot: concurrent updates may or may not be included.
 */
long percpu_counter_tree_precise_sum(struct percpu_counter_tree *counter)
{
	return (long)(percpu_counter_tree_precise_sum_unbiased(counter) +
		      (unsigned long)READ_ONCE(counter->bias));
}
EXPORT_SYMBOL_GPL(percpu_counter_tree_precise_sum);

/*
 * 0 when @delta lies within [-accuracy_neg, accuracy_pos], else its sign.
 */
static int compare_delta(long delta, unsigned long accuracy_neg,
			 unsigned long accuracy_pos)
{
	if (delta >= 0) {
		if ((unsigned long)delta <= accuracy_pos)
			return 0;
		return 1;
	}
	if (-(unsigned long)delta <= accuracy_neg)
		return 0;
	return -1;
}

/**
 * percpu_counter_tree_approximate_compare() - Compare two counters approximately.
 * @a: First counter.
 * @b: Second counter.
 *
 * Return: 1 if a is certainly greater than b, -1 if certainly smaller,
 * 0 if their possible ranges overlap.
 */
int percpu_counter_tree_approximate_compare(struct percpu_counter_tree *a,
					    struct percpu_counter_tree *b)
{
	long delta = (long)((unsigned long)percpu_counter_tree_approximate_sum(a) -
			    (unsigned long)percpu_counter_tree_approximate_sum(b));

	return compare_delta(delta,
			     a->approx_accuracy_range.under + b->approx_accuracy_range.over,
			     a->approx_accuracy_range.over + b->approx_accuracy_range.under);
}
EXPORT_SYMBOL_GPL(percpu_counter_tree_approximate_compare);

/**
 * percpu_counter_tree_approximate_compare_value() - Compare a value with a counter.
 * @counter: The counter.
 * @v: The value.
 *
 * Return: 1 if v is certainly greater than the counter, -1 if certainly
 * smaller, 0 if v lies within the counter's possible range.
 */
int percpu_counter_tree_approximate_compare_value(struct percpu_counter_tree *counter,
						  long v)
{
	long delta = (long)((unsigned long)v -
			    (unsigned long)percpu_counter_tree_approximate_sum(counter));

	return compare_delta(delta, counter->approx_accuracy_range.over,
			     counter->approx_accuracy_range.under);
}
EXPORT_SYMBOL_GPL(percpu_counter_tree_approximate_compare_value);

/**
 * percpu_counter_tree_precise_compare() - Compare two counters precisely.
 * @a: First counter.
 * @b: Second counter.
 *
 * Precise sums are taken only when the approximations are inconclusive.
 *
 * Return: the sign of a - b (0 when equal).
 */
int percpu_counter_tree_precise_compare(struct percpu_counter_tree *a,
					struct percpu_counter_tree *b)
{
	long count_a = percpu_counter_tree_approximate_sum(a),
	     count_b = percpu_counter_tree_approximate_sum(b);
	unsigned long accuracy_a, accuracy_b;
	long delta = (long)((unsigned long)count_a - (unsigned long)count_b);
	int res;

	res = compare_delta(delta,
			    a->approx_accuracy_range.under + b->approx_accuracy_range.over,
			    a->approx_accuracy_range.over + b->approx_accuracy_range.under);
	if (res)
		return res;

	/* Sum first the counter whose relevant uncertainty is larger. */
	if (delta >= 0) {
		accuracy_a = a->approx_accuracy_range.over;
		accuracy_b = b->approx_accuracy_range.under;
	} else {
		accuracy_a = a->approx_accuracy_range.under;
		accuracy_b = b->approx_accuracy_range.over;
	}
	if (accuracy_b < accuracy_a) {
		count_a = percpu_counter_tree_precise_sum(a);
		res = compare_delta((long)((unsigned long)count_a - (unsigned long)count_b),
				    b->approx_accuracy_range.over,
				    b->approx_accuracy_range.under);
		if (res)
			return res;
		count_b = percpu_counter_tree_precise_sum(b);
	} else {
		count_b = percpu_counter_tree_precise_sum(b);
		res = compare_delta((long)((unsigned long)count_a - (unsigned long)count_b),
				    a->approx_accuracy_range.under,
				    a->approx_accuracy_range.over);
		if (res)
			return res;
		count_a = percpu_counter_tree_precise_sum(a);
	}
	return compare_delta((long)((unsigned long)count_a - (unsigned long)count_b), 0, 0);
}
EXPORT_SYMBOL_GPL(percpu_counter_tree_precise_compare);

/**
 * percpu_counter_tree_precise_compare_value() - Compare a value with a counter precisely.
 * @counter: The counter.
 * @v: The value.
 *
 * Return: the sign of v - counter (0 when equal).
 */
int percpu_counter_tree_precise_compare_value(struct percpu_counter_tree *counter,
					      long v)
{
	int res = percpu_counter_tree_approximate_compare_value(counter, v);

	if (res)
		return res;
	return compare_delta((long)((unsigned long)v -
				    (unsigned long)percpu_counter_tree_precise_sum(counter)),
			     0, 0);
}
EXPORT_SYMBOL_GPL(percpu_counter_tree_precise_compare_value);

static void percpu_counter_tree_set_bias(struct percpu_counter_tree *counter,
					 long bias)
{
	WRITE_ONCE(counter->bias, bias);
}

/**
 * percpu_counter_tree_set() - Set the counter's precise value.
 * @counter: The counter.
 * @v: The new value.
 *
 * Not atomic with respect to concurrent adds: for init and reset.
 */
void percpu_counter_tree_set(struct percpu_counter_tree *counter, long v)
{
	percpu_counter_tree_set_bias(counter,
		(long)((unsigned long)v - percpu_counter_tree_precise_sum_unbiased(counter)));
}
EXPORT_SYMBOL_GPL(percpu_counter_tree_set);

/**
 * percpu_counter_tree_approximate_accuracy_range() - Accuracy of the approximation.
 * @counter: The counter.
 * @under: Incremented by how far the precise sum may lie above the approximation.
 * @over: Incremented by how far the precise sum may lie below it.
 *
 * Adds into the outputs so that a caller can accumulate several counters.
 */
void percpu_counter_tree_approximate_accuracy_range(struct percpu_counter_tree *counter,
						    unsigned long *under,
						    unsigned long *over)
{
	*under += counter->approx_accuracy_range.under;
	*over += counter->approx_accuracy_range.over;
}
EXPORT_SYMBOL_GPL(percpu_counter_tree_approximate_accuracy_range);

/**
 * percpu_counter_tree_items_size() - Bytes of item memory one counter needs.
 *
 * Warns once when called before percpu_counter_tree_subsystem_init().
 */
size_t percpu_counter_tree_items_size(void)
{
	WARN_ON_ONCE(__percpu_counter_tree_items_size == SIZE_MAX);
	return __percpu_counter_tree_items_size;
}
EXPORT_SYMBOL_GPL(percpu_counter_tree_items_size);

/**
 * percpu_counter_tree_init_many() - Initialise a group of counters.
 * @counters: Array of @nr_counters counters.
 * @items: Item memory, @nr_counters * percpu_counter_tree_items_size() bytes.
 * @nr_counters: Number of counters.
 * @batch_size: Level-0 threshold, a power of two greater than 1.
 * @gfp_flags: Allocation flags for the per-CPU words.
 *
 * One per-CPU allocation holds the level-0 words of the whole group, side
 * by side in every CPU's area.
 *
 * Return: 0, -EINVAL for a bad batch or use before subsystem init,
 * -ENOMEM.
 */
int percpu_counter_tree_init_many(struct percpu_counter_tree *counters,
				  struct percpu_counter_tree_level_item *items,
				  unsigned int nr_counters, unsigned long batch_size,
				  gfp_t gfp_flags)
{
	void __percpu *level0, *level0_iter;
	size_t counter_size = sizeof(*counters->level0),
	       items_size = percpu_counter_tree_items_size();
	void *items_iter;
	unsigned int i;

	if (WARN_ON(batch_size <= 1 || (batch_size & (batch_size - 1))))
		return -EINVAL;
	if (items_size == SIZE_MAX)
		return -EINVAL;
	if (items_size)
		memset(items, 0, items_size * nr_counters);
	level0 = __alloc_percpu_gfp(nr_counters * counter_size,
				    __alignof__(*counters->level0), gfp_flags);
	if (!level0)
		return -ENOMEM;
	level0_iter = level0;
	items_iter = items;
	for (i = 0; i < nr_counters; i++) {
		struct percpu_counter_tree *counter = &counters[i];

		counter->level0 = level0_iter;
		level0_iter += counter_size;
		counter->batch_size = batch_size;
		counter->bias = 0;
		if (nr_cpus_order) {
			/* _long: the int form truncates a batch >= 2^32 to 0. */
			counter->level0_bit_mask = 1UL << get_count_order_long(batch_size);
			counter->items = items_iter;
			items_iter += items_size;
			counter->approx_sum.a = &counter->items[counter_config->nr_items - 1].count;
		} else {
			counter->level0_bit_mask = 0;
			counter->items = NULL;
			counter->approx_sum.i = per_cpu_ptr(counter->level0, 0);
		}
		counter->approx_accuracy_range.under = batch_size * accuracy_multiplier;
		counter->approx_accuracy_range.over = (batch_size - 1) * accuracy_multiplier;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(percpu_counter_tree_init_many);

int percpu_counter_tree_init(struct percpu_counter_tree *counter,
			     struct percpu_counter_tree_level_item *items,
			     unsigned long batch_size, gfp_t gfp_flags)
{
	return percpu_counter_tree_init_many(counter, items, 1, batch_size, gfp_flags);
}
EXPORT_SYMBOL_GPL(percpu_counter_tree_init);

/**
 * percpu_counter_tree_destroy_many() - Free a group's per-CPU words.
 * @counters: The group, as passed to init_many.
 * @nr_counters: Unused: one allocation backs the whole group.
 *
 * Item memory belongs to the caller.
 */
void percpu_counter_tree_destroy_many(struct percpu_counter_tree *counters,
				      unsigned int nr_counters)
{
	free_percpu(counters->level0);
}
EXPORT_SYMBOL_GPL(percpu_counter_tree_destroy_many);

void percpu_counter_tree_destroy(struct percpu_counter_tree *counter)
{
	percpu_counter_tree_destroy_many(counter, 1);
}
EXPORT_SYMBOL_GPL(percpu_counter_tree_destroy);

/*
 * Every level contributes the same 2^order to the multiplier: a level-l
 * item holds up to its threshold, batch << (a_0 + ... + a_{l-1}), and
 * there are 2^order >> (a_0 + ... + a_{l-1}) of them.
 */
static unsigned long __init calculate_accuracy_multiplier(void)
{
	unsigned int nr_levels = counter_config->nr_levels, level;
	unsigned int level_items = 1U << nr_cpus_order;
	unsigned long multiplier = 0, batch = 1;

	for (level = 0; level < nr_levels; level++) {
		unsigned int n_arity_order = counter_config->n_arity_order[level];

		multiplier += level_items * batch;
		level_items >>= n_arity_order;
		batch <<= n_arity_order;
	}
	return multiplier;
}

/**
 * percpu_counter_tree_subsystem_init() - Select the tree shape for nr_cpu_ids.
 *
 * Must run before any counter is initialised.
 *
 * Return: 0, or -1 when the number of CPUs is not supported.
 */
int __init percpu_counter_tree_subsystem_init(void)
{
	nr_cpus_order = get_count_order(nr_cpu_ids);
	if (WARN_ON_ONCE(nr_cpus_order >= ARRAY_SIZE(per_nr_cpu_order_config))) {
		printk(KERN_ERR "Unsupported number of CPUs (%u)\n", nr_cpu_ids);
		return -1;
	}
	counter_config = &per_nr_cpu_order_config[nr_cpus_order];
	__percpu_counter_tree_items_size = counter_config->nr_items *
		sizeof(struct percpu_counter_tree_level_item);
	accuracy_multiplier = calculate_accuracy_multiplier();
	return 0;
}
