/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The suite's independent model of an hpcc tree's shape and accuracy
 * (docs/spec/hpcc.md#hpcc-shape, #hpcc-carry, #hpcc-accuracy). Derived from a
 * rule, not from the library's table, so that tests, --describe and the stress
 * oracle can check the library (or a kernel tree's file) against it.
 */
#ifndef _HPCC_SHAPE_H
#define _HPCC_SHAPE_H

#include <stdbool.h>

#define HPCC_MAX_ORDER		20
#define HPCC_MAX_LEVELS		5

struct hpcc_shape {
	unsigned int nr_cpus;
	unsigned int order;		/* ceil(log2(nr_cpus)) */
	unsigned int nr_levels;		/* carry levels, level 0 included */
	unsigned int arity[HPCC_MAX_LEVELS];	/* log2 fan-in of level l */
	unsigned long level_items[HPCC_MAX_LEVELS + 1];	/* [0] = 2^order; [nr_levels] = 1 */
	unsigned long threshold[HPCC_MAX_LEVELS];	/* M_l = batch << (a_0 + .. + a_{l-1}) */
	unsigned long nr_items;		/* items of levels 1 .. root */
	unsigned long multiplier;	/* nr_levels * 2^order */
	unsigned long batch;
	unsigned long under, over;	/* declared contract */
	unsigned long settled_max;	/* T: 0 <= precise - approx <= T when settled */
	unsigned long m_top;		/* threshold of the last level below the root */
};

/* 0, or -1 for an order above HPCC_MAX_ORDER or a batch not a power of two > 1. */
int hpcc_shape_compute(struct hpcc_shape *s, unsigned int nr_cpus, unsigned long batch);

/* Index (into the items array) of the level-l item on @cpu's path, l >= 1. */
unsigned long hpcc_shape_item_index(const struct hpcc_shape *s, unsigned int level,
				    unsigned int cpu);

/*
 * roundup(|inc|, m_top): the most one in-flight update can hold pending
 * (docs/spec/hpcc.md#hpcc-residual).
 */
unsigned long hpcc_shape_pending_bound(const struct hpcc_shape *s, long inc);

/* The shape as one JSON object (no trailing newline) into @buf. */
int hpcc_shape_json(const struct hpcc_shape *s, char *buf, unsigned long len);

#endif /* _HPCC_SHAPE_H */
