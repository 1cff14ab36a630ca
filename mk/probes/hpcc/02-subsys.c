// probe: HPCC_API_SUBSYSTEM_INIT
// mode: require
// missing: percpu_counter_tree_subsystem_init()
// symbol: percpu_counter_tree_subsystem_init | int (*)(void)
#include <linux/percpu_counter_tree.h>
int (*hpcc_probe_init)(void) = percpu_counter_tree_subsystem_init;
