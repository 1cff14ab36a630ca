// SPDX-License-Identifier: GPL-2.0
/*
 * The serial replay mode: every virtual CPU and every selector is a fiber
 * (ucontext) on the calling thread, and a seeded scheduler picks the
 * fiber that runs next. A fiber gives the thread back at the end of each
 * operation and, with probability "preempt", at kcompat's injection point
 * between hpcc's level-0 add and its carry, where it may also migrate
 * (probability "hop"). Quiescent checks run every stutter_min..max steps,
 * after the fibers stopped mid-operation have been finished.
 *
 * Everything is a pure function of the replay file:
 *  - the scheduler draws, per step, one pick (a selector with probability
 *    selector_share, else one of all nr_cpus vCPUs): a vCPU over its
 *    operation cap makes the step idle, so caps never shift the schedule;
 *  - each vCPU draws its injection decisions from its own streams, three
 *    draws per injection point whatever the probabilities, so lowering a
 *    probability keeps a subset of the same injections (shrinking).
 * ThreadSanitizer builds do not support fibers here (refused earlier).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <kcompat/kcompat.h>
#include <linux/cpumask.h>
#include "config.h"
#include "engine.h"
#include "hotplug.h"
#include "replay.h"
#include "run.h"
#include "signals.h"
#include "threads.h"
#include "watchdog.h"

#if defined(__SANITIZE_ADDRESS__)
#define SERIAL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SERIAL_ASAN 1
#endif
#endif

#ifdef SERIAL_ASAN
void __sanitizer_start_switch_fiber(void **fake_stack_save, const void *bottom, size_t size);
void __sanitizer_finish_switch_fiber(void *fake_stack_save, const void **bottom_old,
				     size_t *size_old);
#define FIBER_STACK	(1UL << 20)
#else
#define FIBER_STACK	(256UL << 10)
#endif

struct fiber {
	ucontext_t ctx;
	void *stack;
	unsigned int id;		/* CPU number, or selector index */
	bool selector;
	bool mid;			/* stopped inside an operation */
	unsigned int cpu;		/* home identity (selectors: id % nr_cpus) */
	unsigned int ident;		/* identity at the end of its last step */
	bool hopped;			/* an injected hop in the current step */
	unsigned long started;		/* operations started */
	struct stress_rng rng;		/* the scenario's stream, as in threads.c */
	struct stress_rng hop_rng, pre_rng;
	void *fake_stack;
};

struct serial {
	struct stress *s;
	struct replay *rp;
	struct fiber *fibers;		/* nr_cpus vCPUs, then the selectors */
	unsigned int nr_fibers;
	struct fiber *cur;
	ucontext_t main_ctx;
	bool draining;			/* no preemption while finishing operations */
	unsigned long hops, preempts;
	const void *main_bottom;
	size_t main_size;
	void *main_fake;
};

static struct serial S;

static void switch_to_fiber(struct fiber *f)
{
	S.cur = f;
#ifdef SERIAL_ASAN
	__sanitizer_start_switch_fiber(&S.main_fake, f->stack, FIBER_STACK);
#endif
	swapcontext(&S.main_ctx, &f->ctx);
#ifdef SERIAL_ASAN
	__sanitizer_finish_switch_fiber(S.main_fake, NULL, NULL);
#endif
	S.cur = NULL;
	kc_set_cpu(0);		/* the controller's identity, as in the engine */
}

static void switch_to_main(struct fiber *f)
{
#ifdef SERIAL_ASAN
	__sanitizer_start_switch_fiber(&f->fake_stack, S.main_bottom, S.main_size);
#endif
	swapcontext(&f->ctx, &S.main_ctx);
#ifdef SERIAL_ASAN
	__sanitizer_finish_switch_fiber(f->fake_stack, NULL, NULL);
#endif
}

static void fiber_entry(void)
{
	struct stress *s = S.s;
	struct fiber *f = S.cur;

#ifdef SERIAL_ASAN
	__sanitizer_finish_switch_fiber(NULL, &S.main_bottom, &S.main_size);
#endif
	for (;;) {
		struct stress_thread *th = &s->threads[f - S.fibers];

		/* Its own CPU, or where the scenario moved it; home after a hop (threads.c). */
		kc_set_cpu(kc_cpu_online_fallback(f->hopped ? f->cpu : f->ident));
		f->hopped = false;
		if (f->selector)
			s->run.sc->select_step(s, f->id, &f->rng);
		else
			s->run.sc->cpu_step(s, f->id, &f->rng);
		f->ident = kc_get_cpu();
		atomic_store_explicit(&th->progress, th->progress + 1, memory_order_relaxed);
		f->mid = false;
		switch_to_main(f);
	}
}

/* The after-add hook: the injection point, on the running fiber. */
static void serial_hook(void)
{
	struct fiber *f = S.cur;
	unsigned long long u_hop, target, u_pre;
	unsigned int cpu;

	if (!f || f->selector)
		return;
	u_hop = stress_rng_next(&f->hop_rng);
	target = stress_rng_next(&f->hop_rng);
	u_pre = stress_rng_next(&f->pre_rng);
	if ((u_hop >> 11) * (1.0 / 9007199254740992.0) < S.rp->hop) {
		kc_set_cpu(kc_cpu_online_fallback((unsigned int)(((unsigned __int128)target *
								   S.rp->nr_cpus) >> 64)));
		f->hopped = true;
		S.hops++;
	}
	if (S.draining || (u_pre >> 11) * (1.0 / 9007199254740992.0) >= S.rp->preempt)
		return;
	S.preempts++;
	cpu = kc_get_cpu();
	switch_to_main(f);
	kc_set_cpu(cpu);
}

static void resume(struct fiber *f)
{
	if (!f->mid) {
		f->mid = true;
		if (!f->selector)
			f->started++;
	}
	switch_to_fiber(f);
}

/* Finish every operation in progress, in fiber order. */
static void drain(void)
{
	unsigned int i;

	S.draining = true;
	for (i = 0; i < S.nr_fibers; i++)
		while (S.fibers[i].mid)
			switch_to_fiber(&S.fibers[i]);
	S.draining = false;
}

static unsigned long stutter_gap(struct replay *rp, struct stress_rng *r)
{
	if (!rp->stutter_min)
		return 0;
	if (rp->stutter_max <= rp->stutter_min)
		return rp->stutter_min;
	return rp->stutter_min + stress_rng_below(r, rp->stutter_max - rp->stutter_min + 1);
}

/* Apart from fibers_new(): getcontext() returns twice. */
static int __attribute__((__noinline__)) fiber_init(struct fiber *f)
{
	f->stack = mmap(NULL, FIBER_STACK, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (f->stack == MAP_FAILED) {
		f->stack = NULL;
		return -1;
	}
	if (getcontext(&f->ctx))
		return -1;
	f->ctx.uc_stack.ss_sp = f->stack;
	f->ctx.uc_stack.ss_size = FIBER_STACK;
	f->ctx.uc_link = NULL;
	makecontext(&f->ctx, fiber_entry, 0);
	return 0;
}

static int fibers_new(struct stress *s)
{
	unsigned int i;
	char stream[80];

	S.fibers = calloc(S.nr_fibers, sizeof(*S.fibers));
	if (!S.fibers)
		return -1;
	for (i = 0; i < S.nr_fibers; i++) {
		struct fiber *f = &S.fibers[i];

		f->selector = i >= s->run.cfg->nr_cpus;
		f->id = f->selector ? i - s->run.cfg->nr_cpus : i;
		f->cpu = f->selector ? f->id % s->run.cfg->nr_cpus : f->id;
		f->ident = f->cpu;
		snprintf(stream, sizeof(stream), "%s/%s", s->run.sc->name,
			 f->selector ? "select" : "cpu");
		stress_rng_seed(&f->rng, s->run.seed, stream, f->id);
		stress_rng_seed(&f->hop_rng, S.rp->sched_seed, "serial/hop", f->id);
		stress_rng_seed(&f->pre_rng, S.rp->sched_seed, "serial/preempt", f->id);
		if (fiber_init(f))
			return -1;
	}
	return 0;
}

static void fibers_free(void)
{
	unsigned int i;

	for (i = 0; S.fibers && i < S.nr_fibers; i++)
		if (S.fibers[i].stack)
			munmap(S.fibers[i].stack, FIBER_STACK);
	free(S.fibers);
	S.fibers = NULL;
}

static bool can_start(struct fiber *f)
{
	const unsigned long *ops = S.rp->ops;

	/* An offline CPU runs nothing (--hotplug): the step is idle. */
	if (!f->mid && !f->selector && !cpu_online(f->cpu))
		return false;
	return f->mid || f->selector || !ops || f->started < ops[f->id];
}

/* The schedule proper; returns when the steps are done or a check failed. */
static void schedule(struct stress *s, struct replay *rp)
{
	unsigned int nr_cpus = s->run.cfg->nr_cpus, nr_sel = S.nr_fibers - nr_cpus;
	struct stress_rng r;
	unsigned long step, next_q;
	struct fiber *f;

	stress_rng_seed(&r, rp->sched_seed, "serial/schedule", 0);
	next_q = stutter_gap(rp, &r);
	for (step = 0; step < rp->steps; step++) {
		stress_watch_beat();
		if (next_q && step == next_q) {
			drain();
			if (!atomic_load(&s->tally.failed))
				stress_hotplug_step(s);
			if (!atomic_load(&s->tally.failed)) {
				stress_quiescent_point(s);
			}
			next_q = step + stutter_gap(rp, &r);
		}
		if (nr_sel && stress_rng_chance(&r, rp->selector_share))
			f = &S.fibers[nr_cpus + stress_rng_below(&r, nr_sel)];
		else
			f = &S.fibers[stress_rng_below(&r, nr_cpus)];
		if (!atomic_load(&s->tally.failed) && can_start(f))
			resume(f);
		if (atomic_load(&s->tally.failed)) {
			rp->fail_step = step + 1;
			return;
		}
		if (atomic_load(&s->stop))	/* internal error */
			break;
		if (stress_signalled) {
			s->res.interrupted = true;
			break;
		}
	}
	rp->fail_step = 0;
}

static void set_result(struct stress *s, struct replay *rp)
{
	unsigned int i;

	rp->has_result = true;
	rp->failed = atomic_load(&s->tally.failed);
	snprintf(rp->invariant, sizeof(rp->invariant), "%s",
		 s->tally.nr_failures ? s->tally.failures[0].invariant : "");
	rp->hops = S.hops;
	rp->preempts = S.preempts;
	rp->quiescent = atomic_load(&s->res.quiescent);
	if (!rp->ops)
		rp->ops = malloc(sizeof(*rp->ops) * rp->nr_cpus);
	if (rp->ops)
		for (i = 0; i < rp->nr_cpus; i++)
			rp->ops[i] = S.fibers[i].started;
	if (rp->failed && rp->fail_step)
		rp->steps = rp->fail_step;
	if (rp->failed)
		snprintf(rp->expect, sizeof(rp->expect), "%s", rp->invariant);
}

/*
 * One run of s->sc as stress_run() does it (setup, steps, final checks,
 * teardown, WARN check), but serially. On return @rp holds the outcome,
 * and its caps are tightened to what the run used (steps up to the
 * failure, operations started per CPU), so that saving it gives a
 * replay file that stops right at the failure.
 */
static int run_serial(struct stress *s, struct replay *rp)
{
	struct kc_warn_info wi;
	double t0;
	int rc = STRESS_EXIT_PASS;

	memset(&S, 0, sizeof(S));
	S.s = s;
	S.rp = rp;
	/* Fibers are sized by the configuration, caps by the file: one count. */
	if (rp->nr_cpus != s->run.cfg->nr_cpus) {
		stress_internal_error(s, "replay file has %u CPUs, the run %u", rp->nr_cpus,
				      s->run.cfg->nr_cpus);
		return STRESS_EXIT_INTERNAL;
	}
	if (stress_run_prepare(s))
		return STRESS_EXIT_INTERNAL;
	S.nr_fibers = s->setup.nr_threads;
	if (fibers_new(s)) {
		stress_internal_error(s, "cannot make %u fibers", S.nr_fibers);
		fibers_free();
		return STRESS_EXIT_INTERNAL;
	}
	kc_set_after_pcpu_add_hook(serial_hook);
	stress_hotplug_begin(s);
	t0 = stress_now();
	stress_watch_phase(s, PH_SERIAL);
	schedule(s, rp);
	/* Finish what is in progress: a fiber may sit in an RCU read-side section. */
	drain();
	stress_watch_phase(s, PH_FINAL);
	kc_set_after_pcpu_add_hook(NULL);
	kc_set_cpu(0);
	s->res.elapsed = stress_now() - t0;
	s->res.ops = stress_threads_ops(s);
	if (!atomic_load(&s->tally.failed) && s->run.sc->quiescent && !s->res.interrupted) {
		stress_quiescent_point(s);
	}
	stress_hotplug_end(s);
	set_result(s, rp);
	stress_capture_reports(s);
	if (s->run.sc->teardown)
		s->run.sc->teardown(s);
	fibers_free();
	if (kc_warn_count() != s->setup.warn_base) {
		kc_warn_get(&wi);
		stress_fail(s, "no_warn", -1, "%lu WARN(s) fired during the run; first: %s",
			    kc_warn_count() - s->setup.warn_base, wi.first);
		if (!rp->failed) {
			rp->failed = true;
			snprintf(rp->invariant, sizeof(rp->invariant), "no_warn");
			snprintf(rp->expect, sizeof(rp->expect), "no_warn");
		}
	}
	if (s->res.internal_error)
		rc = STRESS_EXIT_INTERNAL;
	else if (atomic_load(&s->tally.failed))
		rc = STRESS_EXIT_FAIL;
	return rc;
}

/* The watchdog holds a replay to its heartbeat: one beat per schedule step. */
int serial_run(struct stress *s, struct replay *rp)
{
	int rc;

	stress_watch_run(s, 0);
	rc = run_serial(s, rp);
	stress_watch_end(s);
	return rc;
}
