/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_CPUMASK_H
#define _KC_LINUX_CPUMASK_H

#include <linux/types.h>
#include <linux/smp.h>
/*
 * As in the kernel, cpumask.h (and so percpu.h) brings linux/kernel.h: a kernel
 * file that includes only docs/spec/hpcc.md#hpcc-kcompat headers still gets
 * WARN_ON, ARRAY_SIZE, printk, get_count_order and memset.
 */
#include <linux/kernel.h>

/* Every possible CPU is online and present: there is no hotplug. */
#define for_each_possible_cpu(cpu)					\
	for ((cpu) = 0; (cpu) < (typeof(cpu))nr_cpu_ids; (cpu)++)
#define for_each_online_cpu(cpu)	for_each_possible_cpu(cpu)
#define for_each_present_cpu(cpu)	for_each_possible_cpu(cpu)
#define num_possible_cpus()	(nr_cpu_ids)
#define num_online_cpus()	(nr_cpu_ids)

#endif /* _KC_LINUX_CPUMASK_H */
