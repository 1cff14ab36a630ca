// SPDX-License-Identifier: GPL-2.0
/* Smoke test of the harness and the build: add, sum, destroy. */
#include <stdlib.h>
#include <linux/percpu_counter_tree.h>
#include "ktap.h"

static void smoke_add_and_sum(struct kt *t)
{
	struct percpu_counter_tree c;
	void *items;

	if (!kt_hpcc_setup(t, 4))
		return;
	items = calloc(1, percpu_counter_tree_items_size());
	KT_ASSERT(t, percpu_counter_tree_init(&c, items, 32, GFP_KERNEL) == 0, "init");
	percpu_counter_tree_add(&c, 100);
	KT_EXPECT_EQ(t, percpu_counter_tree_precise_sum(&c), 100);
	KT_EXPECT(t, percpu_counter_tree_approximate_compare_value(&c, 100) == 0, "in range");
	percpu_counter_tree_destroy(&c);
	free(items);
}

static const struct kt_case cases[] = {
	KT_CASE(smoke_add_and_sum),
};

KT_MAIN("smoke", cases)
