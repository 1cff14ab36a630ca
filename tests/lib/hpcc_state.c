// SPDX-License-Identifier: GPL-2.0
/* The residual constructor of the unit tests; see hpcc_state.h. */
#include <stdlib.h>
#include <string.h>
#include <kcompat/kcompat.h>
#include "hpcc_state.h"
#include "hpcc_util.h"

bool hu_state_init(struct kt *t, struct hu_state *st, unsigned long batch)
{
	struct hu_counter hc;
	unsigned long n;

	memset(st, 0, sizeof(*st));
	t->checks++;
	if (hpcc_shape_compute(&st->s, nr_cpu_ids, batch)) {
		kt_fail(t, __FILE__, __LINE__, "no shape for %u CPUs batch %lu", nr_cpu_ids, batch);
		return false;
	}
	if (!hu_counter_init(t, &hc, batch))
		return false;
	st->c = hc.c;
	st->items = hc.items;
	n = hpcc_residual_cells(&st->s);
	st->cell = calloc(n ? n : 1, sizeof(*st->cell));
	if (!st->cell) {
		kt_fail(t, __FILE__, __LINE__, "out of memory");
		hu_state_destroy(st);
		return false;
	}
	return true;
}

void hu_state_destroy(struct hu_state *st)
{
	struct hu_counter hc = { .c = st->c, .items = st->items };

	if (st->items)
		hu_counter_destroy(&hc);
	free(st->cell);
	st->cell = NULL;
	st->items = NULL;
}

void hu_state_move(struct hu_state *st, const unsigned long *to, bool from_above,
		   unsigned int k)
{
	unsigned long i, n = hpcc_residual_cells(&st->s);

	for (i = 0; i < n; i++) {
		long inc = hpcc_residual_inc(&st->s, i, st->cell[i], to[i], from_above);
		unsigned int j = k % hpcc_residual_cell_nr_cpus(&st->s, i);

		if (!inc)
			continue;
		hu_add_as(&st->c, hpcc_residual_cell_cpu(&st->s, i, j), inc);
		st->cell[i] = to[i];
	}
}

long hu_state_residual(struct hu_state *st)
{
	return (long)((unsigned long)percpu_counter_tree_precise_sum(&st->c) -
		      (unsigned long)percpu_counter_tree_approximate_sum(&st->c));
}

bool hu_state_prove(struct kt *t, struct hu_state *st, const char *what)
{
	const struct hpcc_shape *s = &st->s;
	unsigned long i, n = hpcc_residual_cells(s), want = hpcc_residual_sum(s, st->cell), got;
	long r = hu_state_residual(st);

	t->checks++;
	if (r != (long)want) {
		kt_fail(t, __FILE__, __LINE__, "%s: %u CPUs batch %lu: precise - approximate = %ld, "
			"the state's residuals sum to %lu", what, s->nr_cpus, s->batch, r, want);
		return false;
	}
	for (i = 0; i < n; i++) {
		unsigned int l = hpcc_residual_cell_level(s, i);

		if (!l)
			got = hu_level0(&st->c, i) & (s->batch - 1);
		else
			got = hu_item(&st->c, hpcc_residual_cell_item(s, i)) &
			      (s->threshold[l] - 1);
		t->checks++;
		if (got != st->cell[i]) {
			kt_fail(t, __FILE__, __LINE__, "%s: %u CPUs batch %lu: cell %lu (level %u) "
				"holds residual %lu, the state says %lu", what, s->nr_cpus,
				s->batch, i, l, got, st->cell[i]);
			return false;
		}
	}
	return true;
}
