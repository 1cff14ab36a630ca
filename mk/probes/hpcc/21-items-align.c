// probe: HPCC_API_ITEMS_ALIGN
// mode: compile
// yes: items_align=yes
// no: items_align=no
#include <linux/percpu_counter_tree.h>
#ifndef PERCPU_COUNTER_TREE_ITEMS_ALIGN
#error no PERCPU_COUNTER_TREE_ITEMS_ALIGN
#endif
