/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_MUTEX_H
#define _KC_LINUX_MUTEX_H
#include <pthread.h>
#include <linux/lockdep.h>
/* Sleeping locks on pthread mutexes, as spinlocks (<linux/spinlock.h>). */
struct mutex {
	pthread_mutex_t m;
};

#define DEFINE_MUTEX(x)		struct mutex x = { PTHREAD_MUTEX_INITIALIZER }
#define mutex_init(l)		pthread_mutex_init(&(l)->m, NULL)
#define mutex_lock(l)		pthread_mutex_lock(&(l)->m)
#define mutex_unlock(l)		pthread_mutex_unlock(&(l)->m)
#endif
