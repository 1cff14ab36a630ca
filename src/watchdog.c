// SPDX-License-Identifier: GPL-2.0
/*
 * Watchdog: a thread that is running (not parked, not exited) and whose
 * step count did not move for the stall timeout is a failure, reported
 * with every thread's state. The clock restarts after every stutter, so
 * progress is counted per phase. The default timeout grows with the
 * number of threads per host core: with 4096 threads on 2 cores, a
 * runnable thread may wait seconds for its turn.
 */
#include <stdio.h>
#include <stdlib.h>
#include "stress.h"

static const char *const state_names[] = {
	[TS_NEW] = "new", [TS_RUN] = "run", [TS_STEP] = "in-step",
	[TS_PARKED] = "parked", [TS_EXITED] = "exited",
};

double stress_default_stall_timeout(const struct stress_config *cfg)
{
	int cores[1024], n = stress_host_cores(cores, 1024);

	if (n < 1)
		n = 1;
	return 30.0 + 0.010 * (cfg->nr_cpus + cfg->nr_selectors) / n;
}

void stress_watchdog_reset(struct stress *s, double now)
{
	unsigned int i;

	for (i = 0; i < s->nr_threads; i++) {
		s->threads[i].seen = atomic_load_explicit(&s->threads[i].progress,
							  memory_order_relaxed);
		s->threads[i].seen_at = now;
	}
}

void stress_dump_threads(struct stress *s, FILE *out)
{
	double now = stress_now();
	unsigned int i;

	for (i = 0; i < s->nr_threads; i++) {
		struct stress_thread *th = &s->threads[i];
		int st = atomic_load_explicit(&th->state, memory_order_relaxed);

		fprintf(out, "#   %s %u core %d state %s steps %lu idle %.1fs\n",
			th->selector ? "selector" : "cpu", th->id, th->core,
			st >= 0 && st <= TS_EXITED ? state_names[st] : "?",
			atomic_load_explicit(&th->progress, memory_order_relaxed),
			now - th->seen_at);
	}
}

bool stress_watchdog_check(struct stress *s, double now, double timeout)
{
	unsigned int i, stalled = 0, first = 0;

	for (i = 0; i < s->nr_threads; i++) {
		struct stress_thread *th = &s->threads[i];
		unsigned long p = atomic_load_explicit(&th->progress, memory_order_relaxed);
		int st = atomic_load_explicit(&th->state, memory_order_relaxed);

		if (!th->started || st == TS_EXITED || st == TS_PARKED || p != th->seen) {
			th->seen = p;
			th->seen_at = now;
			continue;
		}
		if (now - th->seen_at > timeout && !stalled++)
			first = i;
	}
	if (!stalled)
		return true;
	stress_fail(s, "watchdog", s->threads[first].selector ? -1 : (int)first,
		    "%u thread(s) made no progress for %.1fs (first: %s %u)", stalled,
		    timeout, s->threads[first].selector ? "selector" : "cpu",
		    s->threads[first].id);
	return false;
}
