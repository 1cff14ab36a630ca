/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Force-included (-include) when the hpcc library is recompiled for the
 * racy form of self-test 1: this_cpu_add_return() becomes a plain
 * load+add+store, the bug a non-atomic per-CPU add would be while
 * precise_sum() loads the same word from another thread.
 */
#include <linux/percpu.h>

#undef this_cpu_add_return
#define this_cpu_add_return(pcp, val) ({				\
	typeof(pcp) *__p = per_cpu_ptr(&(pcp), raw_smp_processor_id());	\
	typeof(pcp) __ret = *__p + (val);				\
	*__p = __ret;							\
	kc_after_pcpu_add(raw_smp_processor_id());			\
	__ret;								\
})
