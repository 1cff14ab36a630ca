// probe: HPCC_ADAPT_RFC
// mode: compile
// yes: shape=rfc(int values, one symmetric inaccuracy, self-allocated items)
// The early RFC: int values, init(counter, batch, gfp), inaccuracy().
// symbol: percpu_counter_tree_precise_sum | int (*)(struct percpu_counter_tree *)
// symbol: percpu_counter_tree_init | int (*)(struct percpu_counter_tree *, unsigned int, gfp_t)
// symbol: percpu_counter_tree_inaccuracy | unsigned int (*)(struct percpu_counter_tree *)
// symbol: percpu_counter_tree_precise_compare_value | int (*)(struct percpu_counter_tree *, int)
// symbol: percpu_counter_tree_set | void (*)(struct percpu_counter_tree *, int)
// missing: the RFC API (it does not compile against the tree)
#include <linux/percpu_counter_tree.h>
int (*hpcc_probe_sum)(struct percpu_counter_tree *) = percpu_counter_tree_precise_sum;
int (*hpcc_probe_init)(struct percpu_counter_tree *, unsigned int, gfp_t) =
	percpu_counter_tree_init;
unsigned int (*hpcc_probe_inacc)(struct percpu_counter_tree *) = percpu_counter_tree_inaccuracy;
int (*hpcc_probe_cmp)(struct percpu_counter_tree *, int) =
	percpu_counter_tree_precise_compare_value;
void (*hpcc_probe_set)(struct percpu_counter_tree *, int) = percpu_counter_tree_set;
