// SPDX-License-Identifier: GPL-2.0
/*
 * TSan self-test 3: a pointer published without release semantics.
 *
 * The writer initialises an object and publishes it in an RCU-protected
 * pointer; a reader that sees the pointer reads the object. Correct form:
 * rcu_assign_pointer() (a release store): clean. Racy form: the pointer
 * is stored with WRITE_ONCE() (relaxed), so nothing orders the
 * initialisation before the reader's loads: TSan must report them.
 */
#include <pthread.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <kcompat/kcompat.h>
#include "selftest.h"

#define PROG	"publish"

struct obj {
	long a, b;
};

static struct obj __rcu *gp;
static int published;
static long seen;

static void *reader(void *arg)
{
	struct obj *p;
	long v = -1;

	kc_rcu_register_thread();
	st_flag_wait(&published, PROG);
	rcu_read_lock();
	p = rcu_dereference(gp);
	if (p)
		v = p->a + p->b;
	rcu_read_unlock();
	kc_rcu_unregister_thread();
	__atomic_store_n(&seen, v, __ATOMIC_RELAXED);
	return NULL;
}

int main(void)
{
	struct obj *p;
	pthread_t tid;

	st_rcu_flavor(PROG);
	pthread_create(&tid, NULL, reader, NULL);
	p = kmalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		st_die(PROG, "out of memory");
	p->a = 40;
	p->b = 2;
#ifdef SELFTEST_RACY
	WRITE_ONCE(gp, p);	/* the bug: no release */
#else
	rcu_assign_pointer(gp, p);
#endif
	st_flag_set(&published);
	pthread_join(tid, NULL);
	if (__atomic_load_n(&seen, __ATOMIC_RELAXED) != 42)
		st_die(PROG, "reader did not see the initialised object");
	RCU_INIT_POINTER(gp, NULL);
	kfree(p);
	printf("%s (%s): reader saw the published object\n", PROG, ST_VARIANT);
	return 0;
}
