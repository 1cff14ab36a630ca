// SPDX-License-Identifier: GPL-2.0
/*
 * Leaf helpers: the clock and the failure-class names. They call nothing
 * of the engine, so the engine, its threads, the watchdog and the report
 * can all use them without calling back into one another.
 */
#include <sys/resource.h>
#include <time.h>
#include "engine.h"

double stress_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

unsigned long long stress_cpu_us(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000ULL +
	       ru.ru_utime.tv_usec + ru.ru_stime.tv_usec;
}

const char *stress_class_name(enum stress_class cls)
{
	return fail_class_name(cls);
}
