// SPDX-License-Identifier: GPL-2.0
/*
 * Leaf: the run object made with its identity, and what the files other
 * than the engines change of its results (docs/layout.md, "run object").
 * The engine, its threads, the watchdog and the replay call these; they
 * call none of those files.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "run.h"

void stress_internal_error(struct stress *s, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "stress: internal error: %s\n", msg);
	s->res.internal_error = true;
	atomic_store(&s->stop, true);
}

void stress_gave_up(struct stress *s)
{
	s->res.internal_error = true;
}

void stress_quiescent_point(struct stress *s)
{
	atomic_fetch_add(&s->res.quiescent, 1);
	if (s->run.sc->quiescent)
		s->run.sc->quiescent(s);
}

void stress_result_forced(struct stress *c, struct stress *s, double now, unsigned long ops,
			  bool interrupted, bool starved)
{
	double t0 = atomic_load(&s->t0);

	c->res.skipped = s->run.cfg->no_check;
	c->res.interrupted = interrupted;
	c->res.starved = starved;
	atomic_store(&c->res.quiescent, atomic_load(&s->res.quiescent));
	if (t0 > 0) {
		c->res.elapsed = now - t0;
		c->res.startup = s->res.startup;
		c->res.ops = ops;
	}
}

struct stress *stress_run_new(const struct run_id *id)
{
	struct stress *s = calloc(1, sizeof(*s));

	if (s)
		s->run = *id;
	return s;
}

void stress_set_reproducer(struct stress *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->run.reproducer, sizeof(s->run.reproducer), fmt, ap);
	va_end(ap);
}
