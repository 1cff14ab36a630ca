/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scope-based cleanup, the subset kernel code uses here: guard(rcu)().
 * A guard is a variable whose cleanup attribute runs the unlock when the
 * scope ends, as in the kernel's include/linux/cleanup.h.
 */
#ifndef _KC_LINUX_CLEANUP_H
#define _KC_LINUX_CLEANUP_H

#include <linux/rcupdate.h>

#define __kc_guard_cat2(a, b)	a##b
#define __kc_guard_cat(a, b)	__kc_guard_cat2(a, b)

#define DEFINE_LOCK_GUARD_0(_name, _lock, _unlock)			\
typedef struct { int unused; } class_##_name##_t;			\
static inline void class_##_name##_destructor(class_##_name##_t *_T)	\
{ (void)_T; _unlock; }							\
static inline class_##_name##_t class_##_name##_constructor(void)	\
{ class_##_name##_t _t = { 0 }; _lock; return _t; }

#define CLASS(_name, var)						\
	class_##_name##_t var						\
	__attribute__((cleanup(class_##_name##_destructor))) =		\
	class_##_name##_constructor

#define guard(_name)	CLASS(_name, __kc_guard_cat(__guard_, __COUNTER__))

DEFINE_LOCK_GUARD_0(rcu, rcu_read_lock(), rcu_read_unlock())

#endif /* _KC_LINUX_CLEANUP_H */
