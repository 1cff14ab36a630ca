/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_IRQFLAGS_H
#define _KC_LINUX_IRQFLAGS_H
#include <linux/compiler.h>
/*
 * Virtual CPUs are threads and take no interrupts: disabling them orders
 * nothing but the compiler, as preempt_disable() (<linux/preempt.h>).
 * Migration is injected explicitly, never inside these sections.
 */
#define local_irq_save(flags)		do { (flags) = 0; barrier(); } while (0)
#define local_irq_restore(flags)	do { barrier(); (void)(flags); } while (0)
#define local_irq_disable()		barrier()
#define local_irq_enable()		barrier()
#endif
