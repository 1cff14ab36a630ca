/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The task and mm model the OOM selection runs on
 * (docs/spec/oom.md#oom-badness), written against kcompat as kernel code would
 * be: single-threaded processes, an mm with the four RSS hpcc counters, a
 * global task list under RCU, task references, and poisoned, quarantined frees
 * so that a selector touching a freed task is reported instead of silently
 * reading recycled memory.
 */
#ifndef _MM_OOM_TASK_H
#define _MM_OOM_TASK_H

#include <linux/types.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/sched/mm.h>
#include <linux/mm.h>
#include <uapi/linux/oom.h>
#include <linux/percpu_counter_tree.h>
#include <stdatomic.h>

#define OOM_TASK_MAGIC		0x7461736b6c697665UL	/* "taskdlive" */
#define OOM_MM_MAGIC		0x6d6d6d6d6c697665UL
#define OOM_POISON_BYTE		0x6b			/* POISON_FREE */

struct oom_task_attr {
	short oom_score_adj;
	bool is_init, kthread, in_vfork, oom_origin;
	void *owner;
};

/* Initialise the task model: RSS counter batch (power of two > 1). */
int oom_model_init(unsigned long batch);
unsigned long oom_model_batch(void);

/* The task list is kcompat's kc_task_list (linux/sched/signal.h). */
#define oom_task_list		kc_task_list
extern spinlock_t oom_tasklist_lock;

/*
 * Create a task (with an mm unless attr->kthread) and link it at the tail
 * of the task list. The list holds the only reference. NULL on ENOMEM.
 */
struct task_struct *oom_task_create(const struct oom_task_attr *attr);
/*
 * Exit: detach the mm under task_lock, unlink, and drop the list's
 * reference after a grace period. The caller must own the exit (call it
 * once per task) and hold no RCU read lock.
 */
void oom_task_exit(struct task_struct *p);

/* The OOM fields, read as the kernel's helpers read them. */
static inline short oom_task_adj(struct task_struct *p)
{
	return atomic_load_explicit(&p->signal->oom_score_adj, memory_order_relaxed);
}

static inline struct mm_struct *oom_task_victim_mm(struct task_struct *p)
{
	return atomic_load_explicit(&p->signal->oom_mm, memory_order_relaxed);
}

static inline bool oom_task_exited(struct task_struct *p)
{
	return READ_ONCE(p->kc_exited);
}

/*
 * The model's find_lock_task_mm(): the task itself, locked, if it still
 * has an mm; NULL (unlocked) otherwise. Also reports a freed mm.
 */
struct task_struct *oom_lock_task_mm(struct task_struct *p);

/* RSS updates (add_mm_counter), page-table bytes, adj, OOM flags. */
void oom_mm_add(struct mm_struct *mm, int member, long pages);
void oom_set_score_adj(struct task_struct *p, short adj);
/* mark_oom_victim(): signal->oom_mm = mm, with an mm reference. */
void oom_mark_victim(struct task_struct *p);
/* The reaper is done: MMF_OOM_SKIP on signal->oom_mm. */
void oom_set_mm_skip(struct task_struct *p);

/*
 * Use-after-free detection. oom_task_alive() (kc_task_alive(), also
 * called by the kcompat shims the kernel's code calls) checks every
 * selector access; on a poisoned task it calls the report hook (default: WARN) and
 * returns false. The quarantine keeps freed tasks poisoned for a while and
 * reports a write into one before really freeing it.
 */
typedef void (*oom_poison_fn)(const void *obj, const char *where);
extern oom_poison_fn oom_poison_hook;
/*
 * Called once per task just before it is poisoned. ->owner is kept so a
 * buggy early free is reported, not a crash: free it after a grace period.
 */
extern void (*oom_task_free_hook)(struct task_struct *p);
#define oom_task_alive(p, where)	kc_task_alive(p, where)
unsigned long oom_poison_hits(void);
/* This thread's reports, and its get_task_struct() calls (a selection's). */
unsigned long oom_thread_poison_hits(void);
unsigned long oom_task_gets(void);

/* Exit every listed task and wait until all of them are freed. */
void oom_model_reset(void);
/* Free everything held in quarantine (checking it first). */
void oom_quarantine_drain(void);
/* Tasks created and not yet freed. */
long oom_live_tasks(void);

/*
 * Test-only: make oom_task_exit() free the task right after unlinking it,
 * without waiting for a grace period or for references (the
 * OOM_BUG_FREE_NO_GP build switch forces it on).
 */
extern bool oom_free_without_gp;

#endif /* _MM_OOM_TASK_H */
