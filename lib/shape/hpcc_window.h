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

#endif /* _SHAPE_HPCC_WINDOW_H */
