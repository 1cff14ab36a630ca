// SPDX-License-Identifier: GPL-2.0
/*
 * TSan self-test 4: a reader that uses an RCU pointer after
 * rcu_read_unlock(). It proves the read-side annotation is not too
 * strong: kcompat releases a token at rcu_read_unlock() for
 * synchronize_rcu() to acquire, which must cover only the accesses made
 * inside the section.
 *
 * Correct form: the reader reads the object inside its section; the
 * writer unpublishes it, waits for a grace period and frees it: clean.
 * Racy form: the reader reads it after rcu_read_unlock(); TSan must
 * report the free against that read.
 */
#include <pthread.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <kcompat/kcompat.h>
#include "selftest.h"

#define PROG	"unlock_read"

struct obj {
	long v;
};

static struct obj __rcu *gp;
static int reader_done, writer_freed;
static long seen;

static void *reader(void *arg)
{
	struct obj *p;
	long v = -1;

	kc_rcu_register_thread();
	kc_rcu_thread_online();		/* qsbr: like the engine's workers */
	rcu_read_lock();
	p = rcu_dereference(gp);
#ifndef SELFTEST_RACY
	v = p->v;
#endif
	rcu_read_unlock();
#ifdef SELFTEST_RACY
	v = p->v;	/* the bug: p is no longer protected */
#endif
	/* qsbr: still safe here, but not in the kernel's RCU: reported. */
	kc_rcu_quiescent_state();
	kc_rcu_thread_offline();
	__atomic_store_n(&seen, v, __ATOMIC_RELAXED);
	st_flag_set(&reader_done);
	/*
	 * Unregister only after the free: liburcu's registry mutex, which
	 * TSan sees, would otherwise order this thread before
	 * synchronize_rcu() and hide the bug.
	 */
	st_flag_wait(&writer_freed, PROG);
	kc_rcu_unregister_thread();
	return NULL;
}

int main(void)
{
	struct obj *p;
	pthread_t tid;

	st_rcu_flavor(PROG);
	p = kmalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		st_die(PROG, "out of memory");
	p->v = 42;
	rcu_assign_pointer(gp, p);
	pthread_create(&tid, NULL, reader, NULL);
	st_flag_wait(&reader_done, PROG);
	rcu_assign_pointer(gp, NULL);
	synchronize_rcu();
	kfree(p);
	st_flag_set(&writer_freed);
	pthread_join(tid, NULL);
	if (__atomic_load_n(&seen, __ATOMIC_RELAXED) != 42)
		st_die(PROG, "reader did not see the object");
	printf("%s (%s): reader saw the object, freed after a grace period\n",
	       PROG, ST_VARIANT);
	return 0;
}
