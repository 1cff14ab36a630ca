// probe: HPCC_ADAPT_HEADER
// mode: require
// missing: a percpu_counter_tree.h that compiles with kcompat's include chains
#include <linux/percpu_counter_tree.h>
