// SPDX-License-Identifier: GPL-2.0
/*
 * What the kthreads of kthread.c (a run queue) and of kthread_old.c
 * (-DKC_HANDOFF_OLD: a POSIX thread each) share: task_struct references
 * (linux/sched/task.h; the KUnit binary has no OOM task model, whose
 * tasks these would otherwise be: lib/mm/oom_task.c is not linked in),
 * kthread_stop_put() and kthread_should_stop().
 */
#include <stdbool.h>
#include <linux/kthread.h>
#include <kcompat/kcompat.h>
#include "kthread_int.h"

void get_task_struct(struct task_struct *t)
{
	atomic_inc(&t->usage);
}

int kthread_stop_put(struct task_struct *p)
{
	int ret = kthread_stop(p);

	put_task_struct(p);
	return ret;
}

bool kthread_should_stop(void)
{
	return kc_kthread_poll_stop();
}
