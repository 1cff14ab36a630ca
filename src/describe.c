// SPDX-License-Identifier: GPL-2.0
/*
 * --describe: the tree shape and accuracy for --cpus/--batch as one JSON
 * object, computed by the suite's own model (lib/shape) and cross-checked
 * against the linked library (ours or a kernel tree's): the item size of
 * percpu_counter_tree_items_size() and a real counter's accuracy range.
 * A disagreement is an internal error (exit 3).
 */
#include <stdio.h>
#include <stdlib.h>
#include <linux/percpu_counter_tree.h>
#include <kcompat/kcompat.h>
#include "shape/hpcc_shape.h"
#include "config.h"
#include "describe.h"

int stress_describe(const struct stress_config *cfg)
{
	struct percpu_counter_tree_level_item *items = NULL;
	struct percpu_counter_tree counter;
	unsigned long under = 0, over = 0, lib_items;
	struct hpcc_shape shape;
	char json[1024];
	size_t size;

	if (hpcc_shape_compute(&shape, cfg->nr_cpus, cfg->batch)) {
		fprintf(stderr, "stress: --describe: no shape for %u CPUs, batch %lu\n",
			cfg->nr_cpus, cfg->batch);
		return STRESS_EXIT_INTERNAL;
	}
	if (kc_set_nr_cpu_ids(cfg->nr_cpus) || percpu_counter_tree_subsystem_init()) {
		fprintf(stderr, "stress: --describe: library init failed for %u CPUs\n",
			cfg->nr_cpus);
		return STRESS_EXIT_INTERNAL;
	}
	size = percpu_counter_tree_items_size();
	lib_items = size / sizeof(struct percpu_counter_tree_level_item);
	if (size % sizeof(struct percpu_counter_tree_level_item) || lib_items != shape.nr_items) {
		fprintf(stderr, "stress: --describe: library has %zu bytes of items (%lu items), "
			"model says %lu items\n", size, lib_items, shape.nr_items);
		return STRESS_EXIT_INTERNAL;
	}
	/* Items are cache-line aligned: calloc() would be misaligned (UBSan). */
	if (size && !(items = aligned_alloc(__alignof__(struct percpu_counter_tree_level_item),
					    size))) {
		fprintf(stderr, "stress: --describe: out of memory\n");
		return STRESS_EXIT_INTERNAL;
	}
	if (percpu_counter_tree_init(&counter, items, cfg->batch, GFP_KERNEL)) {
		fprintf(stderr, "stress: --describe: percpu_counter_tree_init failed\n");
		free(items);
		return STRESS_EXIT_INTERNAL;
	}
	percpu_counter_tree_approximate_accuracy_range(&counter, &under, &over);
	percpu_counter_tree_destroy(&counter);
	free(items);
	if (under != shape.under || over != shape.over) {
		fprintf(stderr, "stress: --describe: library accuracy under=%lu over=%lu, model "
			"says under=%lu over=%lu\n", under, over, shape.under, shape.over);
		return STRESS_EXIT_INTERNAL;
	}
	if (kc_warn_count()) {
		fprintf(stderr, "stress: --describe: the library warned\n");
		return STRESS_EXIT_INTERNAL;
	}
	hpcc_shape_json(&shape, json, sizeof(json));
	printf("%s\n", json);
	return STRESS_EXIT_PASS;
}
