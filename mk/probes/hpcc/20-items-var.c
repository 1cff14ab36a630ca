// probe: HPCC_API_ITEMS_SIZE_VAR
// mode: compile
// yes: items_size=variable
// no: items_size=function
// items_size() reads __percpu_counter_tree_items_size (SIZE_MAX before boot).
#include <linux/percpu_counter_tree.h>
size_t *hpcc_probe = &__percpu_counter_tree_items_size;
