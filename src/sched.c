// SPDX-License-Identifier: GPL-2.0
/*
 * What the scheduler did with a thread, and the watchdog's test of
 * starvation on it. A thread without progress may be hung, or may simply
 * not have been given a CPU: on a loaded host (load 40 and more on two
 * cores) a worker at nice 10 among busy programs can wait seconds for a
 * time slice, and a stall report then would be a false positive.
 * /proc/self/task/TID/schedstat (CONFIG_SCHED_INFO) gives, per thread,
 * the CPU time, the time it was runnable but waiting for a CPU, and the
 * number of time slices it got; the wait is counted only once the thread
 * gets a CPU, so a thread still waiting shows as runnable (state R in
 * /proc/self/task/TID/stat) with no CPU time.
 */
#include <stdio.h>
#include <string.h>
#include "watchdog.h"

static bool runnable(int tid)
{
	char path[64], buf[512], *p;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	f = fopen(path, "r");
	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	/* "tid (comm) S ...": the comm may hold anything, so the last ')'. */
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'R';
}

/* False when the thread is gone or the kernel keeps no such statistics. */
bool stress_sched_read(int tid, struct stress_sched *out)
{
	char path[64];
	FILE *f;
	int n;

	if (tid <= 0)
		return false;
	snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", tid);
	f = fopen(path, "r");
	if (!f)
		return false;
	n = fscanf(f, "%llu %llu %llu", &out->cpu_ns, &out->wait_ns, &out->slices);
	fclose(f);
	out->runnable = n == 3 && runnable(tid);
	return n == 3;
}

/*
 * Starved over the @secs between samples @a and @b: on a CPU less than a
 * tenth of the time, and either rarely given one (under one time slice a
 * second) while waiting for it a quarter of the time or still (runnable at
 * @b), or busy whenever it ran (0.2 ms or more a slice) but waiting half the
 * time. A hung thread is not starved unless the host is: blocked, it
 * waits for no CPU; spinning, it gets its share; polling, it is given a
 * CPU at every wake-up and runs for microseconds.
 */
bool stress_sched_starved(const struct stress_sched *a, const struct stress_sched *b,
			  double secs)
{
	double wait = (b->wait_ns - a->wait_ns) * 1e-9, cpu = (b->cpu_ns - a->cpu_ns) * 1e-9;
	unsigned long long slices = b->slices - a->slices;

	if (secs <= 0 || b->wait_ns < a->wait_ns || b->cpu_ns < a->cpu_ns || b->slices < a->slices)
		return false;
	if (cpu >= secs / 10)
		return false;
	if (slices < secs && (wait >= secs / 4 || b->runnable))
		return true;
	return wait >= secs / 2 && slices && cpu / slices >= 0.0002;
}
