/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_SCHED_SIGNAL_H
#define _KC_LINUX_SCHED_SIGNAL_H

#include <linux/sched.h>

/* The global task list (lib/mm/oom_task.c), walked under RCU. */
extern struct list_head kc_task_list;

#define for_each_process(p)	\
	list_for_each_entry_rcu(p, &kc_task_list, tasks)

#define __for_each_thread(signal, t)	\
	list_for_each_entry_rcu(t, &(signal)->thread_head, thread_node)

#define for_each_thread(p, t)	__for_each_thread((p)->signal, t)

#endif /* _KC_LINUX_SCHED_SIGNAL_H */
