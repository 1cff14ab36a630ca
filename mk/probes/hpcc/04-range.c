// probe: HPCC_API_ACCURACY_RANGE
// mode: require
// missing: percpu_counter_tree_approximate_accuracy_range(counter, &under, &over)
// symbol: percpu_counter_tree_approximate_accuracy_range | void (*)(struct percpu_counter_tree *, unsigned long *, unsigned long *)
#include <linux/percpu_counter_tree.h>
void hpcc_probe(struct percpu_counter_tree *c, unsigned long *u, unsigned long *o)
{
	percpu_counter_tree_approximate_accuracy_range(c, u, o);
}
