/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the hpcc unit tests: counter set-up, white-box access to a
 * counter's cells, and a sequential reference model of the tree written from
 * docs/spec/hpcc.md#hpcc-carry to #hpcc-add (carry by the identity, not by the
 * bit trick) so that the library can be checked cell by cell.
 */
#ifndef _TESTS_HPCC_UTIL_H
#define _TESTS_HPCC_UTIL_H

#include <stdbool.h>
#include <linux/percpu_counter_tree.h>
#include "shape/hpcc_shape.h"
#include "ktap.h"

/* A counter with its own item memory. */
struct hu_counter {
	struct percpu_counter_tree c;
	struct percpu_counter_tree_level_item *items;
};

/* Zeroed item memory for @nr counters, aligned as the item type requires. */
void *hu_items_alloc(unsigned int nr);

/* Allocate items and init (after kt_hpcc_setup); false and a failure on error. */
bool hu_counter_init(struct kt *t, struct hu_counter *hc, unsigned long batch);
void hu_counter_destroy(struct hu_counter *hc);

/* White-box access (kernel field names: level0, items). */
unsigned long hu_level0(struct percpu_counter_tree *c, unsigned int cpu);
void hu_set_level0(struct percpu_counter_tree *c, unsigned int cpu, unsigned long v);
unsigned long hu_item(struct percpu_counter_tree *c, unsigned long idx);
void hu_set_item(struct percpu_counter_tree *c, unsigned long idx, unsigned long v);

unsigned long hu_under(struct percpu_counter_tree *c);
unsigned long hu_over(struct percpu_counter_tree *c);

/* 1 or 0 when the library's skip mode is known, -1 when it cannot be switched. */
int hu_lib_skip_mode(void);
/* Switch the library's skip mode; false if it has no switch. */
bool hu_lib_set_skip(bool skip);

/*
 * Add @inc as virtual CPU @cpu: the one place where the tests choose the
 * acting CPU of an add made through the public API.
 */
void hu_add_as(struct percpu_counter_tree *c, unsigned int cpu, long inc);

/* Install the migration hook (before starting threads that migrate). */
void hu_install_migrate_hook(void);
/*
 * Add @inc on @cpu0 while the carry (if any) propagates along @cpu_path,
 * as if the thread migrated between the level-0 add and the slow path.
 */
void hu_add_migrating(struct percpu_counter_tree *c, unsigned int cpu0,
		      unsigned int cpu_path, long inc);

/* The reference model. */
struct hu_ref {
	struct hpcc_shape s;
	unsigned long *level0;		/* nr_cpus words */
	unsigned long *items;		/* s.nr_items words, root last */
	unsigned char *item_level;	/* level of each item (root: nr_levels) */
	long bias;
	bool skip;
};

/* Shape from lib/shape for the current nr_cpu_ids; false on bad input. */
bool hu_ref_init(struct hu_ref *r, unsigned long batch, bool skip);
void hu_ref_free(struct hu_ref *r);
/* carry = (res & ~(M - 1)) - (orig & ~(M - 1)); 0 when M == 0. */
unsigned long hu_carry(unsigned long orig, unsigned long res, unsigned long m);
void hu_ref_add(struct hu_ref *r, unsigned int cpu0, unsigned int cpu_path, long inc);
long hu_ref_precise(const struct hu_ref *r);
long hu_ref_approx(const struct hu_ref *r);
/* Threshold of the cell that holds item @idx (level 0: batch). */
unsigned long hu_ref_item_mask(const struct hu_ref *r, unsigned long idx);
/* Copy cells from the model into the counter (both must describe the same shape). */
void hu_ref_poke_level0(struct hu_ref *r, struct percpu_counter_tree *c,
			unsigned int cpu, unsigned long v);
void hu_ref_poke_item(struct hu_ref *r, struct percpu_counter_tree *c,
		      unsigned long idx, unsigned long v);

/*
 * Compare every cell of @c with the model: level-0 words and the root
 * exactly; items exactly when the library's skip mode is known, else
 * their low bits (item & (M_l - 1)), the only part with a meaning.
 * Also checks precise_sum() and approximate_sum(). Returns mismatches.
 */
unsigned long hu_ref_check(struct kt *t, const struct hu_ref *r,
			   struct percpu_counter_tree *c, const char *what);
/* Only @cpu0's level-0 word and @cpu_path's items (fast; for many cases). */
unsigned long hu_ref_check_path(struct kt *t, const struct hu_ref *r,
				struct percpu_counter_tree *c, unsigned int cpu0,
				unsigned int cpu_path, const char *what);

/* Residuals held below the root: Σ level0 & (batch-1) + Σ item & (M_l-1). */
unsigned long hu_residual(struct percpu_counter_tree *c, const struct hpcc_shape *s);

/*
 * The spec's compare_delta (docs/spec/hpcc.md#hpcc-compare), written
 * independently of the library.
 */
int hu_compare_delta(long delta, unsigned long tol_neg, unsigned long tol_pos);

/*
 * Judge an approximate comparison: @got from kernel function @fn (@call
 * describes the arguments, @what the delta, e.g. "v - approx"), for a
 * delta @delta whose documented window is [-@tol_neg, +@tol_pos] (named
 * @neg_name / @pos_name, e.g. "over" / "under"); @truth is the sign of
 * the precise difference. A conclusive answer against the truth is a
 * wrong answer; any other departure from the documented answer breaks
 * only the contract, reported in one line naming the tolerance on each
 * side. Returns true when @got is the documented answer.
 */
bool hu_judge_approx(struct kt *t, const char *file, int line, const char *fn,
		     const char *call, const char *what, int got, long delta,
		     unsigned long tol_neg, const char *neg_name,
		     unsigned long tol_pos, const char *pos_name, int truth);
#define HU_JUDGE_VALUE(t, c, v, got, approx, truth)			\
	hu_judge_approx(t, __FILE__, __LINE__,				\
			"percpu_counter_tree_approximate_compare_value",\
			"compare_value", "v - approx", got,		\
			(long)((unsigned long)(v) - (unsigned long)(approx)), \
			hu_over(c), "over", hu_under(c), "under", truth)
int hu_sign(long v);

/* Random increment: every magnitude 2^0..2^63, both signs, and edges near @m. */
long hu_rand_inc(struct kt_rng *rng, unsigned long m);

#endif /* _TESTS_HPCC_UTIL_H */
