// probe: HPCC_API_RFC
// mode: compile
// yes: rfc-inaccuracy
// An early RFC: int values and one symmetric 'inaccuracy'.
#include <linux/percpu_counter_tree.h>
unsigned int (*hpcc_probe)(struct percpu_counter_tree *) = percpu_counter_tree_inaccuracy;
