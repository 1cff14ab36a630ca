/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_KTHREAD_H
#define _KC_LINUX_KTHREAD_H

#include <linux/err.h>
#include <linux/sched.h>
#include <linux/sched/task.h>

/*
 * Kernel threads are POSIX threads that run as a virtual CPU
 * (lib/kcompat/cpu.c): a thread bound to @cpu runs its function with
 * kc_set_cpu(cpu), so its this_cpu_*() operations are that CPU's, taken
 * around each operation as any non-holding thread does. A kthread is
 * created stopped and starts at wake_up_process(); the task_struct holds
 * one reference for the thread itself, dropped when it exits.
 */
struct task_struct *kc_kthread_create(int (*threadfn)(void *data), void *data, int cpu,
				      const char *name);

#define kthread_create(threadfn, data, namefmt, ...)			\
	kc_kthread_create(threadfn, data, -1, namefmt)

static inline struct task_struct *kthread_create_on_cpu(int (*threadfn)(void *data), void *data,
							unsigned int cpu, const char *namefmt)
{
	return kc_kthread_create(threadfn, data, (int)cpu, namefmt);
}

int wake_up_process(struct task_struct *p);
void kthread_bind(struct task_struct *p, unsigned int cpu);
int kthread_stop(struct task_struct *k);
int kthread_stop_put(struct task_struct *k);
bool kthread_should_stop(void);

#define kthread_run(threadfn, data, namefmt, ...)			\
({									\
	struct task_struct *__k = kthread_create(threadfn, data, namefmt); \
	if (!IS_ERR(__k))						\
		wake_up_process(__k);					\
	__k;								\
})

static inline struct task_struct *kthread_run_on_cpu(int (*threadfn)(void *data), void *data,
						     unsigned int cpu, const char *namefmt)
{
	struct task_struct *p = kthread_create_on_cpu(threadfn, data, cpu, namefmt);

	if (!IS_ERR(p))
		wake_up_process(p);
	return p;
}

#endif /* _KC_LINUX_KTHREAD_H */
