/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_PREEMPT_H
#define _KC_LINUX_PREEMPT_H
/* Virtual CPUs are threads: nothing to disable. Migration is injected explicitly. */
#define preempt_disable()	barrier()
#define preempt_enable()	barrier()
#define migrate_disable()	barrier()
#define migrate_enable()	barrier()
#define preempt_disable_notrace()	barrier()
#define preempt_enable_notrace()	barrier()
#define in_task()		1
#define in_interrupt()		0
#define in_nmi()		0
#define preemptible()		1
#define might_sleep()		do { } while (0)
#define lockdep_assert_preemption_disabled()	do { } while (0)
#include <linux/compiler.h>
#include <linux/cleanup.h>

/* The kernel's guards over the operations above: guard(migrate)(); */
DEFINE_LOCK_GUARD_0(preempt, preempt_disable(), preempt_enable())
DEFINE_LOCK_GUARD_0(preempt_notrace, preempt_disable_notrace(), preempt_enable_notrace())
DEFINE_LOCK_GUARD_0(migrate, migrate_disable(), migrate_enable())
#endif
