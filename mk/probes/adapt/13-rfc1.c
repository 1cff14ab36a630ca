// probe: HPCC_ADAPT_RFC1
// mode: compile
// yes: shape=rfc1(int values, one symmetric inaccuracy, self-allocated items, value compares only)
// The first posted RFC: init(counter, batch) allocates without a gfp,
// approx_sum(), and precise_compare()/approximate_compare() take a value
// (the later compare_value()); no compare of two counters.
// symbol: percpu_counter_tree_init | int (*)(struct percpu_counter_tree *, unsigned int)
// symbol: percpu_counter_tree_precise_compare | int (*)(struct percpu_counter_tree *, int)
// symbol: percpu_counter_tree_approximate_compare | int (*)(struct percpu_counter_tree *, int)
// symbol: percpu_counter_tree_approx_sum | int (*)(struct percpu_counter_tree *)
// symbol: percpu_counter_tree_inaccuracy | unsigned int (*)(struct percpu_counter_tree *)
// missing: the first RFC's API (it does not compile against the tree)
#include <linux/percpu_counter_tree.h>
int (*hpcc_probe_sum)(struct percpu_counter_tree *) = percpu_counter_tree_precise_sum;
int (*hpcc_probe_init)(struct percpu_counter_tree *, unsigned int) = percpu_counter_tree_init;
unsigned int (*hpcc_probe_inacc)(struct percpu_counter_tree *) = percpu_counter_tree_inaccuracy;
int (*hpcc_probe_cmp)(struct percpu_counter_tree *, int) = percpu_counter_tree_precise_compare;
int (*hpcc_probe_acmp)(struct percpu_counter_tree *, int) =
	percpu_counter_tree_approximate_compare;
int (*hpcc_probe_approx)(struct percpu_counter_tree *) = percpu_counter_tree_approx_sum;
void (*hpcc_probe_set)(struct percpu_counter_tree *, int) = percpu_counter_tree_set;
