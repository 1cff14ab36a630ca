/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_CPU_H
#define _KC_LINUX_CPU_H
/*
 * The kernel's cpu.h brings the masks and the hotplug states, and through
 * its device and node headers the errno values.
 */
#include <linux/errno.h>
#include <linux/cpumask.h>
#include <linux/cpuhotplug.h>
#endif
