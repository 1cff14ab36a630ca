// probe: HPCC_API_CALLER_ITEMS
// mode: require
// missing: caller-provided items (percpu_counter_tree_items_size(), init_many())
// symbol: percpu_counter_tree_items_size | size_t (*)(void)
// symbol: percpu_counter_tree_init_many | int (*)(struct percpu_counter_tree *, struct percpu_counter_tree_level_item *, unsigned int, unsigned long, gfp_t)
#include <linux/percpu_counter_tree.h>
size_t (*hpcc_probe_size)(void) = percpu_counter_tree_items_size;
int (*hpcc_probe_init)(struct percpu_counter_tree *, struct percpu_counter_tree_level_item *,
		       unsigned int, unsigned long, gfp_t) = percpu_counter_tree_init_many;
