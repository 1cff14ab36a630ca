// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel RCU for kcompat over a flavor chosen once per process: liburcu's
 * memb, qsbr or bp, or Concurrency Kit's ck_epoch (rcu_flavor.h). This
 * layer counts section nesting, registers threads on first use (and
 * unregisters them at exit), and makes the grace period visible to
 * ThreadSanitizer, the same way for every flavor (none is instrumented):
 * - a read-side exit releases kc_rcu_gp_token (linux/rcupdate.h);
 * - synchronize_rcu() and every callback acquire it after the grace
 *   period, so a free after a grace period is ordered after every
 *   read-side access that preceded it; a free without one is reported;
 * - call_rcu() releases the head for its callback to acquire (the
 *   flavors' queues are invisible), and every callback releases
 *   kc_rcu_cb_token for rcu_barrier() to acquire.
 * The hot path, rcu_read_lock() and rcu_read_unlock(), is one branch on
 * the nesting depth and, for the outermost section, one indirect call
 * through a pointer set when the flavor is chosen.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/compiler.h>
#include <linux/rcupdate.h>
#include <kcompat/kcompat.h>
#include "rcu_flavor.h"

_Static_assert(sizeof(struct rcu_head) == sizeof(struct kc_rcu_head) &&
	       offsetof(struct rcu_head, func) == offsetof(struct kc_rcu_head, func),
	       "linux/rcupdate.h and rcu_flavor.h disagree on struct rcu_head");

char kc_rcu_gp_token;
static char kc_rcu_cb_token;

static const struct kc_rcu_flavor *const flavors[] = {
	&kc_rcu_memb, &kc_rcu_qsbr, &kc_rcu_bp, &kc_rcu_ck_epoch,
};

static pthread_once_t chosen_once = PTHREAD_ONCE_INIT;
static const struct kc_rcu_flavor *requested, *fl;
static void (*read_lock_fn)(void), (*read_unlock_fn)(void), (*qs_fn)(void);
static int (*watching_fn)(void);
static pthread_key_t exit_key;

static __thread int rcu_depth;
static __thread bool rcu_registered;

static const struct kc_rcu_flavor *find(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(flavors); i++)
		if (!strcmp(flavors[i]->name, name))
			return flavors[i];
	return NULL;
}

bool kc_rcu_flavor_valid(const char *name)
{
	return name && find(name);
}

/*
 * A bad KC_RCU_FLAVOR is refused once, before main() (as KC_PCPU_OPS is),
 * not by every forked test case when it first takes a read lock.
 */
static void __attribute__((constructor)) kc_rcu_flavor_from_env(void)
{
	const char *env = getenv(KC_RCU_FLAVOR_ENV);

	if (env && *env && !find(env)) {
		fprintf(stderr, "kcompat: %s='%s' is not an RCU flavor (%s)\n",
			KC_RCU_FLAVOR_ENV, env, KC_RCU_FLAVORS);
		exit(2);
	}
}

static void thread_exit(void *arg)
{
	if (rcu_registered)
		kc_rcu_unregister_thread();
}

static void choose(void)
{
	const struct kc_rcu_flavor *f = requested;
	const char *env = getenv(KC_RCU_FLAVOR_ENV);

	if (!f && env && *env) {
		f = find(env);
		if (!f) {
			fprintf(stderr, "kcompat: %s='%s' is not an RCU flavor (%s)\n",
				KC_RCU_FLAVOR_ENV, env, KC_RCU_FLAVORS);
			exit(2);
		}
	}
	if (!f)
		f = &kc_rcu_memb;
	if (f->init)
		f->init();
	if (pthread_key_create(&exit_key, thread_exit)) {
		fprintf(stderr, "kcompat: rcu: no thread-exit key\n");
		abort();
	}
	read_lock_fn = f->read_lock;
	read_unlock_fn = f->read_unlock;
	watching_fn = f->watching;
	qs_fn = f->quiescent_state;
	fl = f;
}

static const struct kc_rcu_flavor *flavor(void)
{
	pthread_once(&chosen_once, choose);
	return fl;
}

int kc_rcu_set_flavor(const char *name)
{
	const struct kc_rcu_flavor *f = name ? find(name) : NULL;

	if (!f)
		return -1;
	requested = f;
	return flavor() == f ? 0 : -1;
}

const char *kc_rcu_flavor(void)
{
	return flavor()->name;
}

int kc_rcu_barriers(unsigned long *asked, unsigned long *done)
{
	const struct kc_rcu_flavor *f = flavor();

	if (!f->barriers)
		return -1;
	f->barriers(asked, done);
	return 0;
}

void kc_rcu_register_thread(void)
{
	const struct kc_rcu_flavor *f = flavor();

	if (rcu_registered)
		return;
	f->register_thread();
	rcu_registered = true;
	pthread_setspecific(exit_key, &rcu_registered);
}

void kc_rcu_unregister_thread(void)
{
	if (!rcu_registered)
		return;
	WARN_ON_ONCE(rcu_depth);
	fl->unregister_thread();
	rcu_registered = false;
	pthread_setspecific(exit_key, NULL);
}

/*
 * As the kernel's "rcu_read_lock() used illegally while idle": a section
 * the flavor does not see (qsbr: an offline thread) is not waited for.
 */
static bool rcu_is_watching(void)
{
	return !watching_fn || watching_fn();
}

#ifdef KC_EXPLORE
/* Explored fibers share one thread: the explorer models RCU (docs/explore.md). */
#define XP_RCU	(kc_xp_hook && kc_xp_rcu_nest)
#else
#define XP_RCU	0
#endif

void kc_rcu_read_lock(void)
{
#ifdef KC_EXPLORE
	if (XP_RCU) {
		++*kc_xp_rcu_nest;
		return;
	}
#endif
	if (rcu_depth++)
		return;
	if (unlikely(!rcu_registered))
		kc_rcu_register_thread();
	read_lock_fn();
	WARN_ON_ONCE(!rcu_is_watching());
}

void kc_rcu_read_unlock(void)
{
#ifdef KC_EXPLORE
	if (XP_RCU) {
		--*kc_xp_rcu_nest;
		return;
	}
#endif
	if (!--rcu_depth)
		read_unlock_fn();
}

int kc_rcu_read_depth(void)
{
#ifdef KC_EXPLORE
	if (XP_RCU)
		return *kc_xp_rcu_nest;
#endif
	return rcu_depth;
}

/*
 * qsbr's hooks, no-ops for the other flavors. Misplaced inside a read-side
 * section they WARN under every flavor, so the engine's placement is
 * checked by every run, not only by qsbr runs.
 */
void kc_rcu_quiescent_state(void)
{
	if (WARN_ON_ONCE(rcu_depth))
		return;
	if (qs_fn)
		qs_fn();
}

void kc_rcu_thread_online(void)
{
	const struct kc_rcu_flavor *f = flavor();

	if (WARN_ON_ONCE(rcu_depth) || !f->thread_online)
		return;
	kc_rcu_register_thread();
	f->thread_online();
}

void kc_rcu_thread_offline(void)
{
	const struct kc_rcu_flavor *f = flavor();

	if (WARN_ON_ONCE(rcu_depth) || !f->thread_offline || !rcu_registered)
		return;
	f->thread_offline();
}

void synchronize_rcu(void)
{
#ifdef KC_EXPLORE
	if (XP_RCU) {
		kc_xp(&kc_rcu_gp_token, KC_XP_GP);
		kc_xp(&kc_rcu_gp_token, KC_XP_GP_WAIT);
		return;
	}
#endif
	flavor()->synchronize();
	kc_tsan_acquire(&kc_rcu_gp_token);
}

void kc_rcu_invoke(struct kc_rcu_head *h)
{
	struct rcu_head *head = (struct rcu_head *)h;

	if (unlikely(!rcu_registered)) {
		if (fl->adopt_cb_thread) {
			fl->adopt_cb_thread();
			rcu_registered = true;
		} else {
			kc_rcu_register_thread();
		}
	}
	kc_tsan_acquire(head);
	kc_tsan_acquire(&kc_rcu_gp_token);
	head->func(head);
	kc_tsan_release(&kc_rcu_cb_token);
}

/*
 * liburcu wants call_rcu() from a registered reader, online under qsbr:
 * queue from inside a section (no TSan release: nothing is read).
 */
void call_rcu(struct rcu_head *head, rcu_callback_t func)
{
	head->func = func;
#ifdef KC_EXPLORE
	/* A callback runs after a grace period, here on the caller's fiber. */
	if (XP_RCU) {
		synchronize_rcu();
		func(head);
		return;
	}
#endif
	kc_tsan_release(head);
	kc_rcu_read_lock();
	fl->call((struct kc_rcu_head *)head);
	kc_rcu_read_unlock();
}

void rcu_barrier(void)
{
#ifdef KC_EXPLORE
	if (XP_RCU)
		return;
#endif
	flavor()->cb_barrier();
	kc_tsan_acquire(&kc_rcu_cb_token);
}

void kc_rcu_barrier(void)
{
	rcu_barrier();
}
