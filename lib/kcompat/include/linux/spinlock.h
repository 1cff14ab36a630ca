/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_SPINLOCK_H
#define _KC_LINUX_SPINLOCK_H

#include <pthread.h>
#include <linux/types.h>
#include <kcompat/kcompat.h>
#include <linux/irqflags.h>
#include <linux/lockdep.h>

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

/*
 * Raw spinlocks: the same lock. In the kernel they differ only under
 * PREEMPT_RT, where a spinlock_t sleeps; here both are a mutex.
 */
typedef spinlock_t raw_spinlock_t;
#define DEFINE_RAW_SPINLOCK(x)		raw_spinlock_t x = __SPIN_LOCK_UNLOCKED(x)
#define raw_spin_lock_init(l)		spin_lock_init(l)
#define raw_spin_lock(l)		spin_lock(l)
#define raw_spin_unlock(l)		spin_unlock(l)
#define raw_spin_lock_irq(l)		spin_lock_irq(l)
#define raw_spin_unlock_irq(l)		spin_unlock_irq(l)
#define raw_spin_lock_irqsave(l, flags)	do { local_irq_save(flags); spin_lock(l); } while (0)
#define raw_spin_unlock_irqrestore(l, flags)				\
	do { spin_unlock(l); local_irq_restore(flags); } while (0)

#endif /* _KC_LINUX_SPINLOCK_H */
