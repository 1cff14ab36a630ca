// SPDX-License-Identifier: GPL-2.0
/*
 * Task and mm lifetime for the OOM model: creation, exit (unlink, then
 * free after a grace period and the last reference), and the poisoning
 * free with a quarantine that turns a use after free into a report.
 */
#include <pthread.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/rculist.h>
#include <kcompat/kcompat.h>
#include "oom_task.h"

#ifdef OOM_BUG_FREE_NO_GP
bool oom_free_without_gp = true;
#else
bool oom_free_without_gp;
#endif

LIST_HEAD(kc_task_list);
DEFINE_SPINLOCK(oom_tasklist_lock);

oom_poison_fn oom_poison_hook;
void (*oom_task_free_hook)(struct task_struct *p);

static unsigned long model_batch = 32;
static atomic_t next_pid = ATOMIC_INIT(1);
static atomic_long_t live_tasks;
static atomic_long_t poison_hits;
/* Per selecting thread: what a selection did, seen from the task model. */
static __thread unsigned long thread_gets, thread_poison_hits;

/* Freed tasks stay poisoned here until pushed out by later frees. */
#define OOM_QUARANTINE	4096
static pthread_mutex_t quarantine_lock = PTHREAD_MUTEX_INITIALIZER;
static struct task_struct *quarantine[OOM_QUARANTINE];
static unsigned int quarantine_head, quarantine_len;

#define POISON_START	offsetof(struct task_struct, kc_magic)
#define POISON_LEN	(sizeof(struct task_struct) - POISON_START)

int oom_model_init(unsigned long batch)
{
	if (batch < 2 || (batch & (batch - 1)))
		return -EINVAL;
	model_batch = batch;
	return 0;
}

unsigned long oom_model_batch(void)
{
	return model_batch;
}

static void poison_report(const void *obj, const char *where)
{
	atomic_long_inc(&poison_hits);
	thread_poison_hits++;
	if (oom_poison_hook)
		oom_poison_hook(obj, where);
	else
		WARN_ON(1);
}

unsigned long oom_poison_hits(void)
{
	return atomic_long_read(&poison_hits);
}

unsigned long oom_thread_poison_hits(void)
{
	return thread_poison_hits;
}

unsigned long oom_task_gets(void)
{
	return thread_gets;
}

bool kc_task_alive(struct task_struct *p, const char *where)
{
	if (likely(READ_ONCE(p->kc_magic) == OOM_TASK_MAGIC))
		return true;
	poison_report(p, where);
	return false;
}

long oom_live_tasks(void)
{
	return atomic_long_read(&live_tasks);
}

static struct mm_struct *mm_alloc(void)
{
	size_t isz = percpu_counter_tree_items_size();
	struct mm_struct *mm = kzalloc(sizeof(*mm), GFP_KERNEL);

	if (!mm)
		return NULL;
	mm->kc_rss_items = isz ? kzalloc(NR_MM_COUNTERS * isz, GFP_KERNEL) : NULL;
	if ((isz && !mm->kc_rss_items) ||
	    percpu_counter_tree_init_many(mm->rss_stat, mm->kc_rss_items,
					  NR_MM_COUNTERS, model_batch,
					  GFP_KERNEL)) {
		kfree(mm->kc_rss_items);
		kfree(mm);
		return NULL;
	}
	atomic_set(&mm->mm_count, 1);	/* the task's ->mm */
	mm->kc_magic = OOM_MM_MAGIC;
	return mm;
}

static void mm_free_rcu(struct rcu_head *head)
{
	struct mm_struct *mm = container_of(head, struct mm_struct, kc_rcu);

	percpu_counter_tree_destroy_many(mm->rss_stat, NR_MM_COUNTERS);
	kfree(mm->kc_rss_items);
	memset(mm, OOM_POISON_BYTE, sizeof(*mm));
	kfree(mm);
}

void mmgrab(struct mm_struct *mm)
{
	atomic_inc(&mm->mm_count);
}

/* The last reference frees after a grace period: readers may hold ->mm. */
void mmdrop(struct mm_struct *mm)
{
	if (atomic_dec_and_test(&mm->mm_count))
		call_rcu(&mm->kc_rcu, mm_free_rcu);
}

struct task_struct *oom_task_create(const struct oom_task_attr *attr)
{
	struct task_struct *p = kzalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return NULL;
	spin_lock_init(&p->alloc_lock);
	p->signal = &p->kc_signal;
	INIT_LIST_HEAD(&p->signal->thread_head);
	list_add_tail_rcu(&p->thread_node, &p->signal->thread_head);
	if (!attr->kthread) {
		p->mm = mm_alloc();
		if (!p->mm) {
			kfree(p);
			return NULL;
		}
	} else {
		p->flags = PF_KTHREAD;
	}
	p->kc_magic = OOM_TASK_MAGIC;
	atomic_set(&p->usage, 1);	/* the task list's reference */
	p->pid = atomic_inc_return(&next_pid);
	atomic_init(&p->signal->oom_score_adj, attr->oom_score_adj);
	atomic_init(&p->signal->oom_mm, NULL);
	p->signal->oom_flag_origin = attr->oom_origin;
	p->kc_global_init = attr->is_init;
	p->kc_in_vfork = attr->in_vfork;
	p->owner = attr->owner;
	atomic_long_inc(&live_tasks);

	spin_lock(&oom_tasklist_lock);
	list_add_tail_rcu(&p->tasks, &kc_task_list);
	spin_unlock(&oom_tasklist_lock);
	return p;
}

static void quarantine_check_free(struct task_struct *p)
{
	const unsigned char *b = (const unsigned char *)p + POISON_START;
	size_t i;

	for (i = 0; i < POISON_LEN; i++) {
		if (b[i] != OOM_POISON_BYTE) {
			poison_report(p, "write after free");
			break;
		}
	}
	pthread_mutex_destroy(&p->alloc_lock.m);
	kfree(p);
}

static void task_free(struct task_struct *p)
{
	struct mm_struct *victim_mm = oom_task_victim_mm(p);
	struct task_struct *old = NULL;

	if (oom_task_free_hook)
		oom_task_free_hook(p);
	/* oom_mm is bound to the signal struct's life time. */
	if (victim_mm)
		mmdrop(victim_mm);
	/* Under task_lock: a reader inside it sees all live or all poison. */
	task_lock(p);
	memset((char *)p + POISON_START, OOM_POISON_BYTE, POISON_LEN);
	task_unlock(p);
	kc_tsan_release(p);	/* the poison is published to checkers that acquire p */
	atomic_long_dec(&live_tasks);

	pthread_mutex_lock(&quarantine_lock);
	if (quarantine_len == OOM_QUARANTINE) {
		old = quarantine[quarantine_head];
		quarantine_head = (quarantine_head + 1) % OOM_QUARANTINE;
		quarantine_len--;
	}
	quarantine[(quarantine_head + quarantine_len++) % OOM_QUARANTINE] = p;
	pthread_mutex_unlock(&quarantine_lock);
	if (old)
		quarantine_check_free(old);
}

void oom_quarantine_drain(void)
{
	struct task_struct *p;

	for (;;) {
		pthread_mutex_lock(&quarantine_lock);
		if (!quarantine_len) {
			pthread_mutex_unlock(&quarantine_lock);
			return;
		}
		p = quarantine[quarantine_head];
		quarantine_head = (quarantine_head + 1) % OOM_QUARANTINE;
		quarantine_len--;
		pthread_mutex_unlock(&quarantine_lock);
		quarantine_check_free(p);
	}
}

void get_task_struct(struct task_struct *p)
{
	thread_gets++;
	if (oom_task_alive(p, "get_task_struct"))
		atomic_inc(&p->usage);
}

void put_task_struct(struct task_struct *p)
{
	if (!oom_task_alive(p, "put_task_struct"))
		return;
	if (atomic_dec_and_test(&p->usage))
		task_free(p);
}

static void delayed_put_task_struct(struct rcu_head *rhp)
{
	put_task_struct(container_of(rhp, struct task_struct, rcu));
}

void oom_task_exit(struct task_struct *p)
{
	struct mm_struct *mm;

	if (WARN_ON(READ_ONCE(p->kc_exited)))
		return;
	task_lock(p);
	mm = p->mm;
	rcu_assign_pointer(p->mm, NULL);
	task_unlock(p);
	if (mm)
		mmdrop(mm);

	spin_lock(&oom_tasklist_lock);
	list_del_rcu(&p->tasks);
	WRITE_ONCE(p->kc_exited, true);
	spin_unlock(&oom_tasklist_lock);

	if (oom_free_without_gp)
		put_task_struct(p);	/* the bug: readers may still be on it */
	else
		call_rcu(&p->rcu, delayed_put_task_struct);
}

struct task_struct *oom_lock_task_mm(struct task_struct *p)
{
	task_lock(p);
	/* Re-check under the lock: a poisoning free holds it too. */
	if (!oom_task_alive(p, "oom_lock_task_mm")) {
		task_unlock(p);
		return NULL;
	}
	if (likely(p->mm)) {
		if (unlikely(READ_ONCE(p->mm->kc_magic) != OOM_MM_MAGIC)) {
			task_unlock(p);
			poison_report(p->mm, "mm after free");
			return NULL;
		}
		return p;
	}
	task_unlock(p);
	return NULL;
}

void oom_mm_add(struct mm_struct *mm, int member, long pages)
{
	percpu_counter_tree_add(&mm->rss_stat[member], pages);
}

void oom_set_score_adj(struct task_struct *p, short adj)
{
	atomic_store_explicit(&p->signal->oom_score_adj, adj, memory_order_relaxed);
}

/* As mark_oom_victim(): oom_mm holds the mm for the signal's life time. */
void oom_mark_victim(struct task_struct *p)
{
	struct mm_struct *none = NULL, *mm;

	task_lock(p);
	mm = p->mm;
	if (mm && atomic_compare_exchange_strong(&p->signal->oom_mm, &none, mm))
		mmgrab(mm);
	task_unlock(p);
}

/*
 * The reaper is done with the victim's mm (oom_reap_task() marks
 * signal->oom_mm), or the mm is torn down (exit_mmap() marks ->mm).
 */
void oom_set_mm_skip(struct task_struct *p)
{
	struct mm_struct *mm = oom_task_victim_mm(p);

	if (mm)
		mm_flags_set(MMF_OOM_SKIP, mm);
	task_lock(p);
	if (p->mm)
		mm_flags_set(MMF_OOM_SKIP, p->mm);
	task_unlock(p);
}

void oom_model_reset(void)
{
	struct task_struct *p;

	for (;;) {
		spin_lock(&oom_tasklist_lock);
		p = list_empty(&oom_task_list) ? NULL :
			list_first_entry(&oom_task_list, struct task_struct, tasks);
		spin_unlock(&oom_tasklist_lock);
		if (!p)
			break;
		oom_task_exit(p);
	}
	kc_rcu_barrier();
	oom_quarantine_drain();
}
