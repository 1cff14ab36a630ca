/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_INIT_H
#define _KC_LINUX_INIT_H
#include <linux/compiler.h>
#include <linux/types.h>

/*
 * Built-in initcalls: registered before main() by a constructor and run,
 * once, by kc_do_initcalls() at the harness's "boot" (lib/kcompat/init.c).
 */
typedef int (*initcall_t)(void);
void kc_initcall_register(initcall_t fn, const char *name);
/* Run every registered initcall once; the first non-zero result, else 0. */
int kc_do_initcalls(void);

#define __initcall(fn)							\
	static void __attribute__((__constructor__)) __kc_initcall_##fn(void) \
	{ kc_initcall_register(fn, #fn); }
#define early_initcall(fn)	__initcall(fn)
#define core_initcall(fn)	__initcall(fn)
#define subsys_initcall(fn)	__initcall(fn)
#define device_initcall(fn)	__initcall(fn)
#define late_initcall(fn)	__initcall(fn)
#endif
