/* SPDX-License-Identifier: GPL-2.0+ OR MIT */
/*
 * Hierarchical per-CPU counters (percpu_counter_tree).
 *
 * The suite's own implementation, written from the specification of the
 * kernel's lib/percpu_counter_tree.c (long words, accumulating accuracy
 * query, SIZE_MAX items-size sentinel, level skipping). A kernel tree's
 * own header and source replace these two files with KERNEL_SRC=.
 */
#ifndef _PERCPU_COUNTER_TREE_H
#define _PERCPU_COUNTER_TREE_H

/* What the kernel's header includes; the rest comes through their chains. */
#include <linux/preempt.h>
#include <linux/atomic.h>
#include <linux/percpu.h>

#ifdef CONFIG_SMP

#if NR_CPUS == 1
#define PERCPU_COUNTER_TREE_STATIC_NR_ITEMS	0
#elif NR_CPUS <= 2
#define PERCPU_COUNTER_TREE_STATIC_NR_ITEMS	1
#elif NR_CPUS <= 4
#define PERCPU_COUNTER_TREE_STATIC_NR_ITEMS	3
#elif NR_CPUS <= 16
#define PERCPU_COUNTER_TREE_STATIC_NR_ITEMS	7
#elif NR_CPUS <= 32
#define PERCPU_COUNTER_TREE_STATIC_NR_ITEMS	11
#elif NR_CPUS <= 128
#define PERCPU_COUNTER_TREE_STATIC_NR_ITEMS	21
#elif NR_CPUS <= 256
#define PERCPU_COUNTER_TREE_STATIC_NR_ITEMS	37
#elif NR_CPUS <= 512
#define PERCPU_COUNTER_TREE_STATIC_NR_ITEMS	73
#elif NR_CPUS <= 1024
#define PERCPU_COUNTER_TREE_STATIC_NR_ITEMS	149
#elif NR_CPUS <= 2048
#define PERCPU_COUNTER_TREE_STATIC_NR_ITEMS	293
#elif NR_CPUS <= 4096
#define PERCPU_COUNTER_TREE_STATIC_NR_ITEMS	585
#elif NR_CPUS <= 8192
#define PERCPU_COUNTER_TREE_STATIC_NR_ITEMS	1173
#elif NR_CPUS <= 16384
#define PERCPU_COUNTER_TREE_STATIC_NR_ITEMS	2341
#elif NR_CPUS <= 65536
#define PERCPU_COUNTER_TREE_STATIC_NR_ITEMS	4681
#elif NR_CPUS <= 131072
#define PERCPU_COUNTER_TREE_STATIC_NR_ITEMS	8777
#elif NR_CPUS <= 262144
#define PERCPU_COUNTER_TREE_STATIC_NR_ITEMS	17481
#elif NR_CPUS <= 524288
#define PERCPU_COUNTER_TREE_STATIC_NR_ITEMS	34953
#elif NR_CPUS <= 1048576
#define PERCPU_COUNTER_TREE_STATIC_NR_ITEMS	69905
#else
#error "Unsupported number of CPUs."
#endif

struct percpu_counter_tree_level_item {
	atomic_long_t count;
} ____cacheline_aligned_in_smp;

#define PERCPU_COUNTER_TREE_ITEMS_STATIC_SIZE				\
	(PERCPU_COUNTER_TREE_STATIC_NR_ITEMS *				\
	 sizeof(struct percpu_counter_tree_level_item))

#define PERCPU_COUNTER_TREE_ITEMS_ALIGN(offset)				\
	ALIGN(offset, __alignof__(struct percpu_counter_tree_level_item))

struct percpu_counter_tree {
	/* Fast-path fields. */
	unsigned long __percpu *level0;	/* Pointer to per-CPU split counters. */
	unsigned long level0_bit_mask;	/* Batch, or 0 with a single CPU. */
	union {
		unsigned long *i;	/* CPU 0's level-0 word (single CPU). */
		atomic_long_t *a;	/* The root item. */
	} approx_sum;
	long bias;			/* Added to precise and approximate sums. */

	/* Slow-path fields. */
	struct percpu_counter_tree_level_item *items;
	unsigned long batch_size;
	/* Precise = approximate + [-over, +under] for a settled counter. */
	struct {
		unsigned long under;
		unsigned long over;
	} approx_accuracy_range;
};

extern size_t __percpu_counter_tree_items_size;

size_t percpu_counter_tree_items_size(void);
int percpu_counter_tree_init_many(struct percpu_counter_tree *counters,
				  struct percpu_counter_tree_level_item *items,
				  unsigned int nr_counters, unsigned long batch_size,
				  gfp_t gfp_flags);
int percpu_counter_tree_init(struct percpu_counter_tree *counter,
			     struct percpu_counter_tree_level_item *items,
			     unsigned long batch_size, gfp_t gfp_flags);
void percpu_counter_tree_destroy_many(struct percpu_counter_tree *counters,
				      unsigned int nr_counters);
void percpu_counter_tree_destroy(struct percpu_counter_tree *counter);
void percpu_counter_tree_add(struct percpu_counter_tree *counter, long inc);
long percpu_counter_tree_precise_sum(struct percpu_counter_tree *counter);
int percpu_counter_tree_approximate_compare(struct percpu_counter_tree *a,
					    struct percpu_counter_tree *b);
int percpu_counter_tree_approximate_compare_value(struct percpu_counter_tree *counter,
						  long v);
int percpu_counter_tree_precise_compare(struct percpu_counter_tree *a,
					struct percpu_counter_tree *b);
int percpu_counter_tree_precise_compare_value(struct percpu_counter_tree *counter,
					      long v);
void percpu_counter_tree_set(struct percpu_counter_tree *counter, long v);
void percpu_counter_tree_approximate_accuracy_range(struct percpu_counter_tree *counter,
						    unsigned long *under,
						    unsigned long *over);
int percpu_counter_tree_subsystem_init(void);

/*
 * Suite extension, not in the kernel API: the level-skipping optimisation
 * can be switched off so that tests compare both update paths.
 */
#define PERCPU_COUNTER_TREE_HAS_SKIP_SWITCH	1
extern bool percpu_counter_tree_skip_levels;

/**
 * percpu_counter_tree_approximate_sum() - Return approximate counter sum.
 * @counter: The counter to sum.
 *
 * Reads the root (or, with a single CPU, CPU 0's level-0 word) and the
 * bias: O(1), wait-free, within the accuracy range of the precise sum for
 * a settled counter.
 */
static inline
long percpu_counter_tree_approximate_sum(struct percpu_counter_tree *counter)
{
	unsigned long v;

	if (!counter->level0_bit_mask)
		v = READ_ONCE(*counter->approx_sum.i);
	else
		v = atomic_long_read(counter->approx_sum.a);
	return (long) (v + (unsigned long)READ_ONCE(counter->bias));
}

/* Approximate sum, clamped to 0 for callers that need a non-negative value. */
static inline
long percpu_counter_tree_approximate_sum_positive(struct percpu_counter_tree *counter)
{
	long v = percpu_counter_tree_approximate_sum(counter);

	return v > 0 ? v : 0;
}

/* Precise sum, clamped to 0 for callers that need a non-negative value. */
static inline
long percpu_counter_tree_precise_sum_positive(struct percpu_counter_tree *counter)
{
	long v = percpu_counter_tree_precise_sum(counter);

	return v > 0 ? v : 0;
}

/**
 * percpu_counter_tree_approximate_min_max_range() - Precise range of an approximation.
 * @approx_sum: An approximate sum.
 * @under: Accuracy range, under side.
 * @over: Accuracy range, over side.
 * @precise_min: Output: smallest possible precise sum.
 * @precise_max: Output: largest possible precise sum.
 */
static inline
void percpu_counter_tree_approximate_min_max_range(long approx_sum,
						   unsigned long under,
						   unsigned long over,
						   long *precise_min,
						   long *precise_max)
{
	*precise_min = (long)((unsigned long)approx_sum - over);
	*precise_max = (long)((unsigned long)approx_sum + under);
}

static inline
void percpu_counter_tree_approximate_min_max(struct percpu_counter_tree *counter,
					     long *approx_sum,
					     long *precise_min,
					     long *precise_max)
{
	unsigned long under = 0, over = 0;
	long v = percpu_counter_tree_approximate_sum(counter);

	percpu_counter_tree_approximate_accuracy_range(counter, &under, &over);
	percpu_counter_tree_approximate_min_max_range(v, under, over,
						      precise_min, precise_max);
	*approx_sum = v;
}

#else /* !CONFIG_SMP */
#error "the userspace build always defines CONFIG_SMP"
#endif /* CONFIG_SMP */

#endif /* _PERCPU_COUNTER_TREE_H */
