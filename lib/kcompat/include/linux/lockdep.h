/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_LOCKDEP_H
#define _KC_LINUX_LOCKDEP_H
/*
 * Lock classes without lockdep (a kernel built without CONFIG_LOCKDEP):
 * a key is a static object whose address names the class, and setting a
 * lock's class does nothing. TSan checks the locks themselves.
 */
struct lock_class_key {
	char kc_unused;
};

#define lockdep_set_class(lock, key)	((void)(lock), (void)(key))
#endif
