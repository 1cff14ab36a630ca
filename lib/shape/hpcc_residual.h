/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Residual states of an hpcc tree (docs/spec/hpcc.md#hpcc-carry, #hpcc-settled)
 * and the adds that reach them through the public add API only.
 *
 * A settled counter keeps, in every cell below the root, a residual that
 * was not carried up: a level-0 word keeps word & (batch - 1), in
 * [0, batch - 1]; a level-l item keeps item & (M_l - 1), a multiple of
 * M_{l-1} in [0, M_l - M_{l-1}]. precise - approximate is their sum R, in
 * [0, T]. A state is one residual per cell ("cells": the nr_cpus level-0
 * words, then the items level by level, the root excluded).
 *
 * How a state is reached (docs/residual-states.md): a cell moves from
 * residual f to t with one add of (t - f), or of (t - f) - M_top for the
 * "from above" variant, made as a CPU whose path holds the cell. The
 * increment is a multiple of the threshold of every cell below the
 * target on that path, so those cells keep their low bits and pass the
 * increment on unchanged (or skip, with the level-skip optimisation);
 * the target's low bits go from f to t without crossing its threshold,
 * so nothing goes further, except the - M_top of the variant, which is a
 * multiple of every threshold and reaches the root untouched. Each add
 * changes one cell's residual, whatever the other adds did: the final
 * state does not depend on the order or interleaving of the adds (the
 * stress scenarios make them concurrently from the owning vCPUs).
 */
#ifndef _HPCC_RESIDUAL_H
#define _HPCC_RESIDUAL_H

#include <stdbool.h>
#include "hpcc_shape.h"

/* Number of cells below the root (0 at one CPU: the approximation is exact). */
unsigned long hpcc_residual_cells(const struct hpcc_shape *s);
/* Level of cell @idx (0 for level-0 words). */
unsigned int hpcc_residual_cell_level(const struct hpcc_shape *s, unsigned long idx);
/* Largest residual of cell @idx; its residuals are multiples of the step. */
unsigned long hpcc_residual_cell_max(const struct hpcc_shape *s, unsigned long idx);
unsigned long hpcc_residual_cell_step(const struct hpcc_shape *s, unsigned long idx);
/*
 * The @k-th CPU (k = 0, 1, ...) whose path holds cell @idx, or -1 when
 * there is none: a level-0 word has one CPU (its own); a level-l item
 * j is on the path of every CPU c with c & (level_items_l - 1) == j.
 */
int hpcc_residual_cell_cpu(const struct hpcc_shape *s, unsigned long idx, unsigned int k);
/* How many CPUs have cell @idx on their path (at least 1). */
unsigned int hpcc_residual_cell_nr_cpus(const struct hpcc_shape *s, unsigned long idx);
/* Index in the counter's item array of item cell @idx (level >= 1). */
unsigned long hpcc_residual_cell_item(const struct hpcc_shape *s, unsigned long idx);

/* 0 when every cell of @cell is a reachable residual, else -1. */
int hpcc_residual_valid(const struct hpcc_shape *s, const unsigned long *cell);
/* Σ cells: precise - approximate of a settled counter in that state. */
unsigned long hpcc_residual_sum(const struct hpcc_shape *s, const unsigned long *cell);

enum hpcc_fill {
	HPCC_FILL_TOP,		/* the highest items first, level-0 words last */
	HPCC_FILL_BOTTOM,	/* level-0 words first, the highest items last */
};

/*
 * A state whose residuals sum to @r (0 <= r <= T), cells filled in the
 * order @how. Returns 0, or -1 when @r is outside [0, T].
 */
int hpcc_residual_fill(const struct hpcc_shape *s, unsigned long r, enum hpcc_fill how,
		       unsigned long *cell);

/*
 * The increment that moves cell @idx from residual @from to @to: (to -
 * from), minus M_top when @from_above (every add then borrows through
 * its cell's threshold; the approximation drops by M_top, the precise
 * sum by M_top - (to - from)). 0 when nothing is to be done.
 */
long hpcc_residual_inc(const struct hpcc_shape *s, unsigned long idx, unsigned long from,
		       unsigned long to, bool from_above);

/*
 * The sequential model of what an add does to a residual state (low bits only,
 * docs/spec/hpcc.md#hpcc-carry): @inc added to CPU @cpu0's level-0 word, the
 * carry travelling along CPU @cpu_path's path (a migration between the level-0
 * add and the carry when they differ). The change of each cell's residual does
 * not depend on the order of the adds, so replaying the adds of concurrent
 * threads in any order gives the state they left. Returns the carry that
 * reached the root (the approximation's change).
 */
long hpcc_residual_apply(const struct hpcc_shape *s, unsigned long *cell, unsigned int cpu0,
			 unsigned int cpu_path, long inc);

/*
 * The extremes the comparisons are checked at: R in {0, 1,
 * over - 1, over, over + 1, T - 1, T} inside [0, T], no duplicate.
 * Returns how many were written into @r (at most HPCC_EDGE_MAX_EXTREMES).
 */
#define HPCC_EDGE_MAX_EXTREMES	7
unsigned int hpcc_edge_extremes(const struct hpcc_shape *s, long *r);

/*
 * Offsets of v - approx where the counter-vs-value comparisons of a
 * counter with residual @r can change their answer: 0, +-under, +-over, T
 * and r, each -1, 0, +1; sorted, no duplicate. At most
 * HPCC_EDGE_MAX_OFFSETS.
 */
#define HPCC_EDGE_MAX_OFFSETS	128
unsigned int hpcc_edge_value_offsets(unsigned long under, unsigned long over, unsigned long T,
				     long r, long *d);

/*
 * Deltas D = approx(a) - approx(b) around every boundary of the
 * two-counter comparisons (docs/spec/hpcc.md#hpcc-compare): the outer window
 * (a.over + b.under, a.under + b.over), both inner re-tests (D + R_a
 * against b's range, D - R_b against a's), and equal precise values
 * (D = R_b - R_a), each -1, 0, +1; sorted, no duplicate.
 */
unsigned int hpcc_edge_pair_offsets(unsigned long ua, unsigned long oa, long ra,
				    unsigned long ub, unsigned long ob, long rb, long *d);

#endif /* _HPCC_RESIDUAL_H */
