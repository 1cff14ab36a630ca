/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The residual constructor of the unit tests: drives a counter to a
 * residual state of lib/shape/hpcc_residual.h through the public add API
 * only, and proves the state it reached (docs/residual-states.md).
 */
#ifndef _TESTS_HPCC_STATE_H
#define _TESTS_HPCC_STATE_H

#include <stdbool.h>
#include <linux/percpu_counter_tree.h>
#include "shape/hpcc_residual.h"
#include "ktap.h"

/* A counter and the residual state it is known to be in. */
struct hu_state {
	struct percpu_counter_tree c;
	struct percpu_counter_tree_level_item *items;
	struct hpcc_shape s;
	unsigned long *cell;		/* hpcc_residual_cells() entries */
};

/* A fresh counter of @batch (after kt_hpcc_setup()): every residual 0. */
bool hu_state_init(struct kt *t, struct hu_state *st, unsigned long batch);
void hu_state_destroy(struct hu_state *st);

/*
 * Move @st to the residual state @to, one add per changed cell, made as
 * the @k-th CPU on the cell's path (k modulo their number); @from_above:
 * every add borrows through its cell's threshold (hpcc_residual_inc()).
 */
void hu_state_move(struct hu_state *st, const unsigned long *to, bool from_above,
		   unsigned int k);

/*
 * The proof: precise_sum() - approximate_sum() == Σ residuals of the state
 * and, cell by cell, level-0 word & (batch - 1) and item & (M_l - 1). A
 * failure names @what and the configuration. Returns true when it holds.
 */
bool hu_state_prove(struct kt *t, struct hu_state *st, const char *what);

/* precise - approximate, read through the public API. */
long hu_state_residual(struct hu_state *st);

#endif /* _TESTS_HPCC_STATE_H */
