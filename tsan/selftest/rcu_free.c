// SPDX-License-Identifier: GPL-2.0
/*
 * TSan self-test 2: a task freed before its grace period ends while a
 * selector reads it.
 *
 * A selector walks an RCU task list and reads each task's rss inside
 * rcu_read_lock(). The writer unlinks every task while the selector is
 * still inside its read-side section, then frees them. Correct form:
 * free after synchronize_rcu(), or (-DSELFTEST_CALL_RCU) from call_rcu()
 * callbacks, after whose rcu_barrier() main() reads what they wrote:
 * clean. Racy form: kfree() right after list_del_rcu(), before the grace
 * period: TSan must report the free against the selector's read. The
 * selector reports its own quiescent states as the engine's do (qsbr).
 */
#include <pthread.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <kcompat/kcompat.h>
#include "selftest.h"

#define PROG		"rcu_free"
#define NR_TASKS	8

struct task {
	struct list_head tasks;
	long rss;
	struct rcu_head rcu;
};

static LIST_HEAD(task_list);
static int selector_read, writer_unlinked, writer_freed;
static long selected_rss;

static void *selector(void *arg)
{
	struct task *t;
	long sum = 0;

	kc_rcu_register_thread();
	kc_rcu_thread_online();		/* qsbr: like the engine's selectors */
	rcu_read_lock();
	list_for_each_entry_rcu(t, &task_list, tasks)
		sum += t->rss;
	st_flag_set(&selector_read);
	/* Stay in the read-side section until the tasks are unlinked. */
	st_flag_wait(&writer_unlinked, PROG);
	rcu_read_unlock();
	kc_rcu_quiescent_state();
	kc_rcu_thread_offline();	/* before it blocks */
	__atomic_store_n(&selected_rss, sum, __ATOMIC_RELAXED);
	/*
	 * Unregister only after the free: liburcu's registry mutex, which
	 * TSan sees, would otherwise order this thread before the grace
	 * period and hide a missing read-side annotation.
	 */
	st_flag_wait(&writer_freed, PROG);
	kc_rcu_unregister_thread();
	return NULL;
}

#ifdef SELFTEST_CALL_RCU
static int nr_freed;	/* plain: rcu_barrier() must order it for main() */

static void task_free_rcu(struct rcu_head *head)
{
	kfree(container_of(head, struct task, rcu));
	nr_freed++;
}
#endif

int main(void)
{
	struct task *t, *dead[NR_TASKS];
	long expect = 0;
	pthread_t tid;
	int i;

	st_rcu_flavor(PROG);
	for (i = 0; i < NR_TASKS; i++) {
		t = kzalloc(sizeof(*t), GFP_KERNEL);
		if (!t)
			st_die(PROG, "out of memory");
		t->rss = 100 + i;
		expect += t->rss;
		list_add_tail_rcu(&t->tasks, &task_list);
		dead[i] = t;
	}
	pthread_create(&tid, NULL, selector, NULL);
	st_flag_wait(&selector_read, PROG);
	for (i = 0; i < NR_TASKS; i++)
		list_del_rcu(&dead[i]->tasks);
#if defined(SELFTEST_RACY)
	/* The bug: no grace period between unlink and free. */
	for (i = 0; i < NR_TASKS; i++)
		kfree(dead[i]);
	st_flag_set(&writer_unlinked);
#elif defined(SELFTEST_CALL_RCU)
	for (i = 0; i < NR_TASKS; i++)
		call_rcu(&dead[i]->rcu, task_free_rcu);
	st_flag_set(&writer_unlinked);
	kc_rcu_barrier();
	if (nr_freed != NR_TASKS)
		st_die(PROG, "rcu_barrier() returned before every callback ran");
#else
	st_flag_set(&writer_unlinked);
	synchronize_rcu();
	for (i = 0; i < NR_TASKS; i++)
		kfree(dead[i]);
#endif
	st_flag_set(&writer_freed);
	pthread_join(tid, NULL);
	if (__atomic_load_n(&selected_rss, __ATOMIC_RELAXED) != expect)
		st_die(PROG, "selector saw the wrong tasks");
	printf("%s (%s%s): selector read %d tasks, freed after unlink\n", PROG,
	       ST_VARIANT,
#ifdef SELFTEST_CALL_RCU
	       ", call_rcu",
#else
	       "",
#endif
	       NR_TASKS);
	return 0;
}
