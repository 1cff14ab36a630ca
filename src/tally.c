// SPDX-License-Identifier: GPL-2.0
/*
 * Leaf: a run's tallies (soft events, margins, checks, the operations
 * done), its failures as recorded (with the threads' state for the
 * watchdog's) and the host's cores. The engine,
 * its threads and the watchdog all use them; they call none of those, so
 * the calls among those files run one way only.
 */
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <kcompat/kcompat.h>
#include "config.h"
#include "engine.h"
#include "recorder.h"
#include "registry.h"
#include "run.h"
#include "threads.h"
#include "watchdog.h"

bool stress_failed(struct stress *s)
{
	return atomic_load(&s->tally.failed);
}

void stress_tally_init(struct run_tally *t)
{
	pthread_mutex_init(&t->key_lock, NULL);
	pthread_mutex_init(&t->fail_lock, NULL);
}

void stress_tally_free(struct run_tally *t)
{
	unsigned int i;

	for (i = 0; i < t->nr_failures; i++)
		free(t->failures[i].excerpt);
	t->nr_failures = 0;
	t->nr_fail_events = 0;
	atomic_store(&t->failed, false);
}

void stress_tally_snapshot(struct run_tally *c, struct run_tally *s)
{
	unsigned int i;

	atomic_store(&c->failed, atomic_load(&s->failed));
	atomic_store(&c->checks, atomic_load(&s->checks));
	if (!pthread_mutex_trylock(&s->key_lock)) {
		unsigned int n = atomic_load(&s->nr_margins);

		for (i = 0; i < n; i++) {
			c->margins[i].name = s->margins[i].name;
			c->margins[i].worst = s->margins[i].worst;
			c->margins[i].used = s->margins[i].used;
			c->margins[i].bound = s->margins[i].bound;
			atomic_store(&c->margins[i].worst_fast, s->margins[i].worst);
			atomic_store(&c->margins[i].count, atomic_load(&s->margins[i].count));
		}
		atomic_store(&c->nr_margins, n);
		n = atomic_load(&s->nr_softs);
		for (i = 0; i < n; i++) {
			c->softs[i].name = s->softs[i].name;
			atomic_store(&c->softs[i].count, atomic_load(&s->softs[i].count));
		}
		atomic_store(&c->nr_softs, n);
		pthread_mutex_unlock(&s->key_lock);
	}
	if (!pthread_mutex_trylock(&s->fail_lock)) {
		c->nr_failures = s->nr_failures;
		c->nr_fail_events = s->nr_fail_events;
		for (i = 0; i < s->nr_failures; i++) {
			c->failures[i] = s->failures[i];
			c->failures[i].excerpt = s->failures[i].excerpt ?
						 strdup(s->failures[i].excerpt) : NULL;
		}
		pthread_mutex_unlock(&s->fail_lock);
	}
}

static struct stress_key *find_key(struct stress *s, struct stress_key *keys,
				   atomic_uint *nr, const char *name)
{
	unsigned int i, n = atomic_load_explicit(nr, memory_order_acquire);

	for (i = 0; i < n; i++)
		if (keys[i].name == name || !strcmp(keys[i].name, name))
			return &keys[i];
	pthread_mutex_lock(&s->tally.key_lock);
	n = atomic_load_explicit(nr, memory_order_relaxed);
	for (i = 0; i < n; i++)
		if (!strcmp(keys[i].name, name))
			break;
	if (i == n && n < STRESS_MAX_KEYS) {
		keys[n].name = name;
		keys[n].worst = -1;
		atomic_store_explicit(&keys[n].worst_fast, -1.0, memory_order_relaxed);
		atomic_store_explicit(nr, n + 1, memory_order_release);
	}
	pthread_mutex_unlock(&s->tally.key_lock);
	return i < STRESS_MAX_KEYS ? &keys[i] : NULL;
}

void stress_margin(struct stress *s, const char *invariant, double used, double bound)
{
	struct stress_key *k = find_key(s, s->tally.margins, &s->tally.nr_margins, invariant);
	double m;

	if (!k)
		return;
	atomic_fetch_add_explicit(&k->count, 1, memory_order_relaxed);
	if (bound > 0)
		m = used / bound;
	else
		m = used > 0 ? INFINITY : 0;
	if (m <= atomic_load_explicit(&k->worst_fast, memory_order_relaxed))
		return;
	pthread_mutex_lock(&s->tally.key_lock);
	if (m > k->worst) {
		k->worst = m;
		k->used = used;
		k->bound = bound;
		atomic_store_explicit(&k->worst_fast, m, memory_order_relaxed);
	}
	pthread_mutex_unlock(&s->tally.key_lock);
}

void stress_soft(struct stress *s, const char *what, unsigned long n)
{
	struct stress_key *k = find_key(s, s->tally.softs, &s->tally.nr_softs, what);

	if (k)
		atomic_fetch_add_explicit(&k->count, n, memory_order_relaxed);
}

void stress_count_checks(struct stress *s, unsigned long n)
{
	atomic_fetch_add_explicit(&s->tally.checks, n, memory_order_relaxed);
}

void stress_check_no_warn(struct stress *s)
{
	unsigned long n = kc_warn_count() - s->setup.warn_base;
	struct kc_warn_info wi;

	stress_count_checks(s, 1);
	if (n) {
		kc_warn_get(&wi);
		stress_fail(s, "no_warn", -1, "%lu WARN(s) fired; first: %s", n, wi.first);
	}
}

int stress_host_cores(int *cores, int max)
{
	cpu_set_t set;
	int i, n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (i = 0; i < CPU_SETSIZE && n < max; i++)
		if (CPU_ISSET(i, &set))
			cores[n++] = i;
	return n;
}

unsigned long stress_threads_ops(struct stress *s)
{
	unsigned long n = 0;
	unsigned int i;

	for (i = 0; i < s->run.cfg->nr_cpus && i < s->setup.nr_threads; i++)
		n += atomic_load_explicit(&s->threads[i].progress, memory_order_relaxed);
	return n;
}

static const char *const state_names[] = {
	[TS_NEW] = "waiting-start", [TS_RUN] = "run", [TS_STEP] = "in-step",
	[TS_PARKED] = "parked", [TS_EXITED] = "exited", [TS_OFFLINE] = "offline",
};

void stress_dump_threads(struct stress *s, FILE *out)
{
	unsigned int i, j, nr_cpus = s->run.cfg->nr_cpus;
	double now = stress_now();

	for (i = 0; i < s->setup.nr_threads; i++) {
		struct stress_thread *th = &s->threads[i];
		int st = atomic_load_explicit(&th->state, memory_order_relaxed);

		if (!atomic_load_explicit(&th->started, memory_order_acquire)) {
			/* A run of threads never created: one line. */
			for (j = i; j + 1 < s->setup.nr_threads &&
			     !atomic_load(&s->threads[j + 1].started) &&
			     (j + 1 < nr_cpus) == (i < nr_cpus); j++)
				;
			if (j > i)
				fprintf(out, "#   %s %u-%u not started\n", i < nr_cpus ? "cpu" : "selector",
					i < nr_cpus ? i : i - nr_cpus, j < nr_cpus ? j : j - nr_cpus);
			else
				fprintf(out, "#   %s %u not started\n", i < nr_cpus ? "cpu" : "selector",
					i < nr_cpus ? i : i - nr_cpus);
			i = j;
			continue;
		}
		fprintf(out, "#   %s %u core %d state %s steps %lu idle %.1fs\n",
			th->selector ? "selector" : "cpu", th->id, th->core,
			st >= 0 && st <= TS_OFFLINE ? state_names[st] : "?",
			atomic_load_explicit(&th->progress, memory_order_relaxed),
			th->seen_at ? now - th->seen_at : 0);
	}
}

/*
 * @wd: from the watchdog thread, which must never block on a lock the
 * controller may hold forever: the record is skipped if the lock is busy.
 */
static bool record_failure(struct stress *s, enum stress_class cls, const char *invariant,
			   const char *fn, int cpu, const char *msg, bool wd)
{
	struct stress_failure *f;
	bool first;

	if (wd ? pthread_mutex_trylock(&s->tally.fail_lock) :
		 pthread_mutex_lock(&s->tally.fail_lock))
		return false;
	/* Every name a run fails with is declared: replay and --known files can name it. */
	if (!stress_invariant_find(s->run.sc, invariant))
		stress_internal_error(s, "scenario %s failed with invariant '%s', which it does "
				      "not declare", s->run.sc->name, invariant);
	/* A known signature is counted (known.c) and the run goes on. */
	if (known_count(s, cls, invariant, fn, msg, wd)) {
		pthread_mutex_unlock(&s->tally.fail_lock);
		return true;
	}
	first = !s->tally.nr_fail_events++;
	if (s->tally.nr_failures < STRESS_MAX_FAILURES) {
		f = &s->tally.failures[s->tally.nr_failures++];
		snprintf(f->invariant, sizeof(f->invariant), "%s", invariant);
		f->cls = cls;
		f->cpu = cpu;
		snprintf(f->msg, sizeof(f->msg), "%s", msg);
		f->excerpt = NULL;
		if (first && wd) {
			size_t len;
			FILE *m = open_memstream(&f->excerpt, &len);

			if (m) {
				stress_dump_threads(s, m);
				if (cpu >= 0) {
					char *rec = recorder_dump(s->setup.rec, cpu, 8);

					if (rec)
						fprintf(m, "# flight recorder of cpu %d (oldest first):\n%s",
							cpu, rec);
					free(rec);
				}
				fclose(m);
			}
		} else if (first) {
			f->excerpt = recorder_dump(s->setup.rec, cpu, 16);
		}
	}
	pthread_mutex_unlock(&s->tally.fail_lock);
	if (first && (!wd || !ftrylockfile(stderr))) {
		fprintf(stderr, "stress: %s: invariant %s failed (class %s, cpu %d): %s\n",
			s->run.sc->name, invariant, stress_class_name(cls), cpu, msg);
		if (wd)
			funlockfile(stderr);
	}
	return false;
}

static void vfail(struct stress *s, enum stress_class cls, const char *invariant,
		  const char *fn, int cpu, bool wd, const char *fmt, va_list ap)
{
	char msg[512];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (record_failure(s, cls, invariant, fn, cpu, msg, wd))
		return;
	atomic_store(&s->tally.failed, true);
	atomic_store(&s->stop, true);
}

/* A plain failure is a wrong answer. */
void stress_fail(struct stress *s, const char *invariant, int cpu, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(s, STRESS_WRONG_ANSWER, invariant, NULL, cpu, false, fmt, ap);
	va_end(ap);
}

void stress_fail_class(struct stress *s, enum stress_class cls, const char *invariant,
		       int cpu, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(s, cls, invariant, NULL, cpu, false, fmt, ap);
	va_end(ap);
}

void stress_fail_fn(struct stress *s, enum stress_class cls, const char *invariant,
		    const char *fn, int cpu, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(s, cls, invariant, fn, cpu, false, fmt, ap);
	va_end(ap);
}

/*
 * The watchdog's failure (its thread only): a hang, class crash; every
 * thread's state as the excerpt.
 */
void stress_fail_watchdog(struct stress *s, int cpu, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(s, STRESS_CRASH, "watchdog", NULL, cpu, true, fmt, ap);
	va_end(ap);
}
