/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The accuracy query as lib/mm needs it: add a counter's range to running
 * totals. The documented percpu_counter_tree_approximate_accuracy_range()
 * adds into *under and *over; some kernel versions assign instead (the
 * build probes which: HPCC_API_ACCURACY_ACCUMULATES). Querying into zeros
 * and adding is right for both.
 */
#ifndef _MM_HPCC_RANGE_H
#define _MM_HPCC_RANGE_H

#include <linux/percpu_counter_tree.h>

static inline void hpcc_accuracy_add(struct percpu_counter_tree *c,
				     unsigned long *under, unsigned long *over)
{
	unsigned long u = 0, o = 0;

	percpu_counter_tree_approximate_accuracy_range(c, &u, &o);
	*under += u;
	*over += o;
}

#endif /* _MM_HPCC_RANGE_H */
