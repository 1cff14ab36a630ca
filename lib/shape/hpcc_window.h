/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The documented window of an approximate comparison
 * (docs/spec/hpcc.md#hpcc-compare): a delta within [-tol_neg, +tol_pos]
 * compares 0. Shared by the unit tests and the scenarios so that a failure
 * names the tolerance on each side the same way everywhere.
 */
#ifndef _SHAPE_HPCC_WINDOW_H
#define _SHAPE_HPCC_WINDOW_H

#include <stddef.h>

/*
 * Write @d named against the two tolerances into @buf: "+under",
 * "-over-1", "+over+1" (the side swapped), or the plain number.
 */
void hpcc_window_name(char *buf, size_t len, long d, unsigned long tol_neg,
		      const char *neg_name, unsigned long tol_pos, const char *pos_name);

/*
 * The answer docs/spec/hpcc.md#hpcc-compare gives for approximate_compare(a, b)
 * when approx(a) - approx(b) = @d: -1, 0 or 1.
 */
int hpcc_window_pair_answer(long d, unsigned long under_a, unsigned long over_a,
			    unsigned long under_b, unsigned long over_b);

/*
 * Where @d lies against the two tolerances of that comparison: 0 within
 * both, 1 between them (only one side's tolerance admits it), 2 beyond both.
 */
int hpcc_window_pair_band(long d, unsigned long under_a, unsigned long over_a,
			  unsigned long under_b, unsigned long over_b);

#endif /* _SHAPE_HPCC_WINDOW_H */
