/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_JUMP_LABEL_H
#define _KC_LINUX_JUMP_LABEL_H

#include <linux/types.h>

/* Static keys as plain relaxed flags: no code patching in userspace. */
struct static_key {
	bool enabled;
};
struct static_key_true {
	struct static_key key;
};
struct static_key_false {
	struct static_key key;
};

#define DEFINE_STATIC_KEY_TRUE(name)	struct static_key_true name = { { true } }
#define DEFINE_STATIC_KEY_FALSE(name)	struct static_key_false name = { { false } }
#define DECLARE_STATIC_KEY_TRUE(name)	extern struct static_key_true name
#define DECLARE_STATIC_KEY_FALSE(name)	extern struct static_key_false name
#define DEFINE_STATIC_KEY_TRUE_RO(name)	DEFINE_STATIC_KEY_TRUE(name)
#define DEFINE_STATIC_KEY_FALSE_RO(name)	DEFINE_STATIC_KEY_FALSE(name)

#define static_key_enabled(k)	__atomic_load_n(&(k)->key.enabled, __ATOMIC_RELAXED)
#define static_branch_likely(k)		__builtin_expect(static_key_enabled(k), 1)
#define static_branch_unlikely(k)	__builtin_expect(static_key_enabled(k), 0)
#define static_branch_enable(k)		\
	__atomic_store_n(&(k)->key.enabled, true, __ATOMIC_RELAXED)
#define static_branch_disable(k)	\
	__atomic_store_n(&(k)->key.enabled, false, __ATOMIC_RELAXED)

#endif /* _KC_LINUX_JUMP_LABEL_H */
