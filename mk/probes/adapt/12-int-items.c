// probe: HPCC_ADAPT_INT_ITEMS
// mode: compile
// yes: shape=int-items(int values, caller items, unsigned int batch and range)
// Between the RFC and the long API: caller-provided items and
// subsystem_init(), but int values and unsigned int batch and range.
// symbol: percpu_counter_tree_precise_sum | int (*)(struct percpu_counter_tree *)
// symbol: percpu_counter_tree_init | int (*)(struct percpu_counter_tree *, struct percpu_counter_tree_level_item *, unsigned int, gfp_t)
// symbol: percpu_counter_tree_init_many | int (*)(struct percpu_counter_tree *, struct percpu_counter_tree_level_item *, unsigned int, unsigned int, gfp_t)
// symbol: percpu_counter_tree_items_size | size_t (*)(void)
// symbol: percpu_counter_tree_approximate_accuracy_range | void (*)(struct percpu_counter_tree *, unsigned int *, unsigned int *)
// symbol: percpu_counter_tree_precise_compare_value | int (*)(struct percpu_counter_tree *, int)
// missing: the int-items API (it does not compile against the tree)
#include <linux/percpu_counter_tree.h>
int (*hpcc_probe_sum)(struct percpu_counter_tree *) = percpu_counter_tree_precise_sum;
int (*hpcc_probe_init)(struct percpu_counter_tree *, struct percpu_counter_tree_level_item *,
		       unsigned int, gfp_t) = percpu_counter_tree_init;
int (*hpcc_probe_many)(struct percpu_counter_tree *, struct percpu_counter_tree_level_item *,
		       unsigned int, unsigned int, gfp_t) = percpu_counter_tree_init_many;
size_t (*hpcc_probe_size)(void) = percpu_counter_tree_items_size;
void (*hpcc_probe_range)(struct percpu_counter_tree *, unsigned int *, unsigned int *) =
	percpu_counter_tree_approximate_accuracy_range;
int (*hpcc_probe_cmp)(struct percpu_counter_tree *, int) =
	percpu_counter_tree_precise_compare_value;
