/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_SCHED_TASK_H
#define _KC_LINUX_SCHED_TASK_H

#include <linux/sched.h>

/* References (lib/mm/oom_task.c): the last put frees the task. */
void get_task_struct(struct task_struct *t);
void put_task_struct(struct task_struct *t);

static inline void task_lock(struct task_struct *p)
{
	spin_lock(&p->alloc_lock);
}

static inline void task_unlock(struct task_struct *p)
{
	spin_unlock(&p->alloc_lock);
}

#endif /* _KC_LINUX_SCHED_TASK_H */
