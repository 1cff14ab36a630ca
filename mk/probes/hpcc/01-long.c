// probe: HPCC_API_LONG
// mode: require
// missing: long values (precise_sum and compare_value take/return long)
// yes: values=long
// symbol: percpu_counter_tree_precise_sum | long (*)(struct percpu_counter_tree *)
// symbol: percpu_counter_tree_approximate_compare_value | int (*)(struct percpu_counter_tree *, long)
#include <linux/percpu_counter_tree.h>
long (*hpcc_probe_sum)(struct percpu_counter_tree *) = percpu_counter_tree_precise_sum;
int (*hpcc_probe_cmp)(struct percpu_counter_tree *, long) =
	percpu_counter_tree_approximate_compare_value;
