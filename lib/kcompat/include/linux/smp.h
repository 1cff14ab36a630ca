/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_SMP_H
#define _KC_LINUX_SMP_H

#include <linux/types.h>

#ifndef CONFIG_SMP
#define CONFIG_SMP 1
#endif

/* The calling thread's virtual CPU. */
#define raw_smp_processor_id()	((int)kc_get_cpu())
#define smp_processor_id()	raw_smp_processor_id()
#define get_cpu()		raw_smp_processor_id()
#define put_cpu()		do { } while (0)

#endif /* _KC_LINUX_SMP_H */
