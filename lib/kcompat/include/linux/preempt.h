/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_PREEMPT_H
#define _KC_LINUX_PREEMPT_H
/* Virtual CPUs are threads: nothing to disable. Migration is injected explicitly. */
#define preempt_disable()	barrier()
#define preempt_enable()	barrier()
#define migrate_disable()	barrier()
#define migrate_enable()	barrier()
#include <linux/compiler.h>
#endif
