/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_SPINLOCK_H
#define _KC_LINUX_SPINLOCK_H

#include <pthread.h>
#include <linux/types.h>
#include <kcompat/kcompat.h>

/*
 * Spinlocks on pthread mutexes: with 256 virtual CPUs on 2 cores a real
 * spinner would burn the holder's time slice, and TSan knows pthreads.
 */
typedef struct {
	pthread_mutex_t m;
#ifdef KC_EXPLORE
	int xp_held;		/* the lock word while fibers are explored */
#endif
} spinlock_t;

#ifdef KC_EXPLORE
#define __SPIN_LOCK_UNLOCKED(x)	{ PTHREAD_MUTEX_INITIALIZER, 0 }
#else
#define __SPIN_LOCK_UNLOCKED(x)	{ PTHREAD_MUTEX_INITIALIZER }
#endif
#define DEFINE_SPINLOCK(x)	spinlock_t x = __SPIN_LOCK_UNLOCKED(x)

static inline void spin_lock_init(spinlock_t *l)
{
	pthread_mutex_init(&l->m, NULL);
#ifdef KC_EXPLORE
	l->xp_held = 0;
#endif
}

/*
 * Explored fibers share one thread: the lock is a word the explorer
 * schedules around (a fiber at KC_XP_LOCK runs only while it is 0).
 */
static inline void spin_lock(spinlock_t *l)
{
#ifdef KC_EXPLORE
	if (kc_xp_hook) {
		kc_xp(&l->xp_held, KC_XP_LOCK);
		l->xp_held = 1;
		return;
	}
#endif
	pthread_mutex_lock(&l->m);
}

static inline void spin_unlock(spinlock_t *l)
{
#ifdef KC_EXPLORE
	if (kc_xp_hook) {
		kc_xp(&l->xp_held, KC_XP_UNLOCK);
		l->xp_held = 0;
		return;
	}
#endif
	pthread_mutex_unlock(&l->m);
}

#define spin_lock_irqsave(l, flags)	do { (void)(flags); spin_lock(l); } while (0)
#define spin_unlock_irqrestore(l, flags) do { (void)(flags); spin_unlock(l); } while (0)
#define spin_lock_irq(l)	spin_lock(l)
#define spin_unlock_irq(l)	spin_unlock(l)

#endif /* _KC_LINUX_SPINLOCK_H */
