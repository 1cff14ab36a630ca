/* SPDX-License-Identifier: GPL-2.0 */
/*
 * replay_explore.c: --replay of an explorer's schedule (docs/explore.md).
 */
#ifndef _STRESS_REPLAY_EXPLORE_H
#define _STRESS_REPLAY_EXPLORE_H

#include <stdbool.h>
#include "config.h"

bool replay_is_schedule(const char *path);
int replay_run_schedule(const struct stress_config *cfg);

#endif /* _STRESS_REPLAY_EXPLORE_H */
