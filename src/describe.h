/* SPDX-License-Identifier: GPL-2.0 */
/*
 * describe.c: --describe, the run's shape and bounds without running it.
 */
#ifndef _STRESS_DESCRIBE_H
#define _STRESS_DESCRIBE_H

#include "config.h"

/* describe.c */
int stress_describe(const struct stress_config *cfg);

#endif /* _STRESS_DESCRIBE_H */
