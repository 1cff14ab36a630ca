/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The task model the OOM selection runs on, kernel-shaped: the fields that
 * mm/oom_kill.c's selection touches, with the kernel's names, so that the
 * kernel's own functions compile against it unchanged. Lifetime (fork,
 * exit, free after a grace period, poisoning) is lib/mm/oom_task.c.
 *
 * Processes are single-threaded here, but ->signal->thread_head is a real
 * RCU list so for_each_thread() walks it as the kernel does.
 */
#ifndef _KC_LINUX_SCHED_H
#define _KC_LINUX_SCHED_H

#include <linux/types.h>
#include <linux/list.h>
#include <linux/rculist.h>
#include <linux/spinlock.h>
#include <linux/atomic.h>
#include <linux/rcupdate.h>

struct mm_struct;

#define PF_KTHREAD	0x00200000	/* I am a kernel thread */

/*
 * Fields the kernel reads without annotation while the scenario changes
 * them (oom_score_adj, oom_mm) are C11 _Atomic: a plain read compiles to
 * an atomic load, so ThreadSanitizer sees the kernel's benign race as the
 * atomic access it is on every architecture Linux runs on.
 */
struct signal_struct {
	struct list_head	thread_head;	/* for_each_thread(), RCU */
	_Atomic short		oom_score_adj;	/* OOM kill score adjustment */
	bool			oom_flag_origin;
	/* The victim's mm once marked by the OOM killer (holds an mmgrab). */
	struct mm_struct *_Atomic oom_mm;
};

struct task_struct {
	/*
	 * Kept intact by the model's poisoning free: a use after free must
	 * be reported by the magic check, not hang on a poisoned lock or
	 * jump through a poisoned list pointer.
	 */
	spinlock_t		alloc_lock;	/* task_lock(): protects ->mm */
	struct list_head	tasks;		/* the global task list, RCU */
	struct list_head	thread_node;	/* signal->thread_head, RCU */
	struct rcu_head		rcu;
	struct mm_struct	*mm;		/* NULL once exited */
	struct signal_struct	*signal;
	struct signal_struct	kc_signal;	/* single-threaded: ours */
	void			*owner;		/* the creator's data */
	/* Poisoned on free from here on. */
	unsigned long		kc_magic;
	atomic_t		usage;
	pid_t			pid;
	unsigned int		flags;		/* PF_* */
	bool			kc_global_init;	/* is_global_init() */
	bool			kc_in_vfork;	/* in_vfork() */
	bool			kc_exited;	/* unlinked from the task list */
};

/*
 * The model's use-after-free check (lib/mm/oom_task.c): false and a
 * report when @p has been freed. Called first by every shim below that
 * the kernel's selection calls on a task it found on the list.
 */
bool kc_task_alive(struct task_struct *p, const char *where);

static inline bool is_global_init(struct task_struct *tsk)
{
	/* A freed task reads as unkillable after the report: skipped. */
	if (!kc_task_alive(tsk, "is_global_init"))
		return true;
	return READ_ONCE(tsk->kc_global_init);
}

static inline bool in_vfork(struct task_struct *tsk)
{
	return READ_ONCE(tsk->kc_in_vfork);
}

#endif /* _KC_LINUX_SCHED_H */
