/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The task and mm model the OOM selection runs on (spec/oom-two-pass.md §1),
 * written against kcompat as kernel code would be: single-threaded
 * processes, an mm with the four RSS hpcc counters, a global task list
 * under RCU, task references, and poisoned, quarantined frees so that a
 * selector touching a freed task is reported instead of silently reading
 * recycled memory.
 */
#ifndef _MM_OOM_TASK_H
#define _MM_OOM_TASK_H

#include <linux/types.h>
#include <linux/list.h>
#include <linux/rculist.h>
#include <linux/spinlock.h>
#include <linux/percpu_counter_tree.h>

enum {
	MM_FILEPAGES,
	MM_ANONPAGES,
	MM_SWAPENTS,
	MM_SHMEMPAGES,
	NR_MM_COUNTERS
};

#define PAGE_SHIFT		12
#define PAGE_SIZE		(1UL << PAGE_SHIFT)
#define OOM_SCORE_ADJ_MIN	(-1000)
#define OOM_SCORE_ADJ_MAX	1000

#define MMF_OOM_SKIP		21	/* bit in mm->flags: already reaped */
#define PF_KTHREAD		0x00200000

#define OOM_TASK_MAGIC		0x7461736b6c697665UL	/* "taskdlive" */
#define OOM_MM_MAGIC		0x6d6d6d6d6c697665UL
#define OOM_POISON_BYTE		0x6b			/* POISON_FREE */

struct mm_struct {
	unsigned long magic;
	struct percpu_counter_tree rss_stat[NR_MM_COUNTERS];
	struct percpu_counter_tree_level_item *rss_items;
	atomic_long_t pgtables_bytes;
	unsigned long flags;		/* MMF_* bits, READ_ONCE/WRITE_ONCE */
	struct rcu_head rcu;
};

struct task_struct {
	/*
	 * Kept intact by the poisoning free: a use after free must be
	 * reported by the magic check, not hang on a poisoned lock or jump
	 * through a poisoned list pointer.
	 */
	spinlock_t alloc_lock;		/* task_lock(): protects ->mm */
	struct list_head tasks;		/* the global task list, under RCU */
	struct rcu_head rcu;
	struct mm_struct *mm;		/* NULL once exited (so at free) */
	void *owner;			/* the creator's data (ground truth) */
	/* Poisoned on free from here on. */
	unsigned long magic;
	atomic_t usage;
	pid_t pid;
	unsigned int flags;		/* PF_KTHREAD */
	short oom_score_adj;		/* signal->oom_score_adj */
	bool is_init;			/* is_global_init() */
	bool in_vfork;
	bool oom_origin;		/* oom_task_origin() */
	bool oom_victim;		/* tsk_is_oom_victim() */
	bool oom_mm_skip;		/* MMF_OOM_SKIP on signal->oom_mm */
	bool exited;			/* oom_task_exit() ran (unlinked) */
};

struct oom_task_attr {
	short oom_score_adj;
	bool is_init, kthread, in_vfork, oom_origin;
	void *owner;
};

/* Initialise the task model: RSS counter batch (power of two > 1). */
int oom_model_init(unsigned long batch);
unsigned long oom_model_batch(void);

extern struct list_head oom_task_list;
extern spinlock_t oom_tasklist_lock;

#define for_each_process(p)	\
	list_for_each_entry_rcu(p, &oom_task_list, tasks)

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

void get_task_struct(struct task_struct *p);
void put_task_struct(struct task_struct *p);

static inline void task_lock(struct task_struct *p)
{
	spin_lock(&p->alloc_lock);
}

static inline void task_unlock(struct task_struct *p)
{
	spin_unlock(&p->alloc_lock);
}

static inline bool oom_unkillable_task(struct task_struct *p)
{
	return READ_ONCE(p->is_init) || (READ_ONCE(p->flags) & PF_KTHREAD);
}

/* The task itself, locked, if it still has an mm; NULL (unlocked) otherwise. */
struct task_struct *find_lock_task_mm(struct task_struct *p);

/* RSS updates (add_mm_counter), page-table bytes, adj, OOM flags. */
void oom_mm_add(struct mm_struct *mm, int member, long pages);
void oom_set_score_adj(struct task_struct *p, short adj);
void oom_mark_victim(struct task_struct *p);
void oom_set_mm_skip(struct task_struct *p);

/*
 * Use-after-free detection. oom_task_alive() is called by every selector
 * access; on a poisoned task it calls the report hook (default: WARN) and
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
bool oom_task_alive(struct task_struct *p, const char *where);
unsigned long oom_poison_hits(void);

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
