/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_TYPES_H
#define _KC_LINUX_TYPES_H

/* The system header of the same name (glibc includes it) comes first. */
#include_next <linux/types.h>

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/compiler.h>

typedef int8_t s8;
typedef uint8_t u8;
typedef int16_t s16;
typedef uint16_t u16;
typedef int32_t s32;
typedef uint32_t u32;
typedef int64_t s64;
typedef uint64_t u64;
typedef unsigned int gfp_t;

/* C11 atomics: the compiler and ThreadSanitizer see every access. */
typedef struct {
	_Atomic int counter;
} atomic_t;

typedef struct {
	_Atomic long counter;
} atomic_long_t;

struct list_head {
	struct list_head *next, *prev;
};

struct hlist_head {
	struct hlist_node *first;
};

struct hlist_node {
	struct hlist_node *next, **pprev;
};

#endif /* _KC_LINUX_TYPES_H */
