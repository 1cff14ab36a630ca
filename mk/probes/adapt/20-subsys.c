// probe: HPCC_ADAPT_SUBSYS
// mode: compile
// yes: boot=subsystem_init
// no: boot=module_init
#include <linux/percpu_counter_tree.h>
int (*hpcc_probe_init)(void) = percpu_counter_tree_subsystem_init;
