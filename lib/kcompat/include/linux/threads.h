/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_THREADS_H
#define _KC_LINUX_THREADS_H
/* NR_CPUS comes from the build (-DNR_CPUS, the Makefile). */
#ifndef NR_CPUS
#error "NR_CPUS is set by the build"
#endif
#endif
