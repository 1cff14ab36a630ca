/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_PRINTK_H
#define _KC_LINUX_PRINTK_H

#include <stdio.h>

#define KERN_EMERG	"<0>"
#define KERN_ALERT	"<1>"
#define KERN_CRIT	"<2>"
#define KERN_ERR	"<3>"
#define KERN_WARNING	"<4>"
#define KERN_NOTICE	"<5>"
#define KERN_INFO	"<6>"
#define KERN_DEBUG	"<7>"

#ifndef pr_fmt
#define pr_fmt(fmt)	fmt
#endif

#define printk(fmt, ...)	fprintf(stderr, fmt, ##__VA_ARGS__)
#define pr_err(fmt, ...)	printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)	printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)	printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err_once(fmt, ...)	pr_err(fmt, ##__VA_ARGS__)
#define pr_warn_once(fmt, ...)	pr_warn(fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...)	do { } while (0)

#endif /* _KC_LINUX_PRINTK_H */
