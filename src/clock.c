// SPDX-License-Identifier: GPL-2.0
/*
 * Leaf helpers: the clock and the failure-class names. They call nothing
 * of the engine, so the engine, its threads, the watchdog and the report
 * can all use them without calling back into one another.
 */
#include <time.h>
#include "engine.h"

double stress_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

const char *stress_class_name(enum stress_class cls)
{
	return fail_class_name(cls);
}
