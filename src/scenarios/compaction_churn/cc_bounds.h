/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bounds compaction_churn's invariants compare against, one predicate
 * each, so that tests/unit/test_stress_bounds.c drives each at its bound
 * and one step either side (the rows in cc_invariants.c).
 */
#ifndef _STRESS_CC_BOUNDS_H
#define _STRESS_CC_BOUNDS_H

#include <stdbool.h>
#include <linux/bitops.h>
#include "mm/compaction.h"

#define CC_PB		512	/* pages in a pageblock */

/* failed_order: compact_order_failed within [0, MAX_ORDER]. */
static inline bool cc_failed_order_ok(long cof)
{
	return cof >= 0 && cof <= MAX_ORDER;
}

/* shift_range: the scan limit's shift by the depth is defined below BITS_PER_LONG. */
static inline bool cc_shift_ok(unsigned long depth)
{
	return depth < BITS_PER_LONG;
}

/* deferral_range: the shift within [0, COMPACT_MAX_DEFER_SHIFT] ... */
static inline bool cc_defer_shift_ok(long sh)
{
	return sh >= 0 && sh <= COMPACT_MAX_DEFER_SHIFT;
}

/* ... and considered within [0, 1 << COMPACT_MAX_DEFER_SHIFT]. */
static inline bool cc_considered_ok(long c)
{
	return c >= 0 && c <= 1L << COMPACT_MAX_DEFER_SHIFT;
}

/*
 * limit_overshoot: a limited run scans at most one pageblock past its
 * start limit, and its limit ends at most one pageblock below zero.
 */
static inline bool cc_overshoot_ok(unsigned long scanned, long start_limit, long limit)
{
	return scanned <= (unsigned long)start_limit + CC_PB && limit >= -(long)CC_PB;
}

#endif /* _STRESS_CC_BOUNDS_H */
