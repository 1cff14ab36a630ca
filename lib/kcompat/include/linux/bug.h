/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_BUG_H
#define _KC_LINUX_BUG_H

#include <stdlib.h>
#include <linux/compiler.h>

/* Warnings are recorded (count, first site) so tests and the engine can fail on them. */
#define WARN_ON(condition) ({						\
	int __ret_warn_on = !!(condition);				\
	if (unlikely(__ret_warn_on))					\
		kc_warn(__FILE__, __LINE__, #condition, false);		\
	unlikely(__ret_warn_on);					\
})

#define WARN_ON_ONCE(condition) ({					\
	static bool __warned;						\
	int __ret_warn_once = !!(condition);				\
	if (unlikely(__ret_warn_once) &&				\
	    !__atomic_exchange_n(&__warned, true, __ATOMIC_RELAXED))	\
		kc_warn(__FILE__, __LINE__, #condition, true);		\
	unlikely(__ret_warn_once);					\
})

#define WARN(condition, fmt...)		WARN_ON(condition)
#define WARN_ONCE(condition, fmt...)	WARN_ON_ONCE(condition)

#define BUG() do {							\
	kc_warn(__FILE__, __LINE__, "BUG()", false);			\
	abort();							\
} while (0)
#define BUG_ON(condition) do { if (unlikely(condition)) BUG(); } while (0)

#endif /* _KC_LINUX_BUG_H */
