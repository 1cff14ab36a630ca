// probe: HPCC_ADAPT_LONG
// mode: compile
// yes: shape=long
// The API the full suite is written against: long values, caller items,
// an accuracy range.
// symbol: percpu_counter_tree_precise_sum | long (*)(struct percpu_counter_tree *)
// symbol: percpu_counter_tree_init | int (*)(struct percpu_counter_tree *, struct percpu_counter_tree_level_item *, unsigned long, gfp_t)
// symbol: percpu_counter_tree_items_size | size_t (*)(void)
// symbol: percpu_counter_tree_approximate_accuracy_range | void (*)(struct percpu_counter_tree *, unsigned long *, unsigned long *)
// missing: the long API (it does not compile against the tree)
#include <linux/percpu_counter_tree.h>
long (*hpcc_probe_sum)(struct percpu_counter_tree *) = percpu_counter_tree_precise_sum;
int (*hpcc_probe_init)(struct percpu_counter_tree *, struct percpu_counter_tree_level_item *,
		       unsigned long, gfp_t) = percpu_counter_tree_init;
size_t (*hpcc_probe_size)(void) = percpu_counter_tree_items_size;
void (*hpcc_probe_range)(struct percpu_counter_tree *, unsigned long *, unsigned long *) =
	percpu_counter_tree_approximate_accuracy_range;
