/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_CLEANUP_H
#define _KC_LINUX_CLEANUP_H
/*
 * Scope-based cleanup with the kernel's names and shapes: __free(),
 * DEFINE_FREE(), guard(), scoped_guard(), DEFINE_GUARD() and
 * DEFINE_LOCK_GUARD_0/1(), on top of the compilers' cleanup attribute.
 */
#include <linux/compiler.h>

#define __cleanup(func)		__attribute__((__cleanup__(func)))

#define DEFINE_FREE(_name, _type, _free)				\
	static inline void __free_##_name(void *p)			\
	{ _type _T = *(_type *)p; _free; }
#define __free(_name)		__cleanup(__free_##_name)
#define no_free_ptr(p)		({ __auto_type __ptr = (p); (p) = NULL; __ptr; })
#define return_ptr(p)		return no_free_ptr(p)

/* A guard holds a pointer to what it locked (or a dummy for _0 guards). */
#define DEFINE_GUARD(_name, _type, _lock, _unlock)			\
	typedef _type class_##_name##_t;				\
	static inline void class_##_name##_destructor(_type *p)	\
	{ _type _T = *p; if (_T) { _unlock; } }				\
	static inline _type class_##_name##_constructor(_type _T)	\
	{ _lock; return _T; }

#define DEFINE_LOCK_GUARD_1(_name, _type, _lock, _unlock, ...)		\
	typedef struct { _type *lock; __VA_ARGS__; } class_##_name##_t;	\
	static inline void class_##_name##_destructor(class_##_name##_t *_T) \
	{ if (_T->lock) { _unlock; } }					\
	static inline class_##_name##_t class_##_name##_constructor(_type *l) \
	{ class_##_name##_t _t = { .lock = l }, *_T = &_t; _lock; return _t; }

#define DEFINE_LOCK_GUARD_0(_name, _lock, _unlock, ...)		\
	typedef struct { void *lock; __VA_ARGS__; } class_##_name##_t;	\
	static inline void class_##_name##_destructor(class_##_name##_t *_T) \
	{ (void)_T; _unlock; }						\
	static inline class_##_name##_t class_##_name##_constructor(void) \
	{ class_##_name##_t _t = { .lock = (void *)1 }, *_T = &_t;	\
	  (void)_T; _lock; return _t; }

#define __UNIQUE_ID_guard	__PASTE(__guard_, __COUNTER__)
#define __PASTE(a, b)		___PASTE(a, b)
#define ___PASTE(a, b)		a##b

/* A guard is never read, only destroyed: not an unused variable. */
#define CLASS(_name, var)						\
	class_##_name##_t var __maybe_unused				\
		__cleanup(class_##_name##_destructor) =			\
		class_##_name##_constructor

#define guard(_name)		CLASS(_name, __UNIQUE_ID_guard)

#define scoped_guard(_name, args...)					\
	for (CLASS(_name, scope)(args), *__done = NULL; !__done;	\
	     __done = (void *)1)

#endif /* _KC_LINUX_CLEANUP_H */
