// SPDX-License-Identifier: GPL-2.0
/*
 * Worker threads and phases. Thread i < nr_cpus is virtual CPU i, pinned
 * to host core i % ncores, and holds a vCPU between its steps (owned
 * model of kcompat.h: an injected hop migrates it, and a migrating thread
 * may swap vCPUs with it at a preemption point, so it may stay on another
 * vCPU); the selector threads follow, unpinned, and hold none. Every
 * wait sleeps (256 or 8192 threads on two cores never spin) on a futex
 * word of its own, never on a lock the workers share: a start or a
 * resume wakes the workers as a tree (each woken one wakes two more), so
 * none waits for more than a chain of log2(threads) wake-ups, and none
 * for a lock holder to be scheduled. (With a mutex and a condition
 * variable they took the mutex one after the other; on a loaded host
 * every hand-off waited for a time slice and a stutter of 258 threads
 * took tens of seconds.) The words are C11 atomics: TSan sees their
 * acquire and release, the futex only sleeps. A stutter parks every worker (vCPUs and selectors)
 * between two steps, so the scenario's quiescent() sees no update and no
 * selector in flight.
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <stdio.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <kcompat/kcompat.h>
#include <linux/cpumask.h>
#include "config.h"
#include "engine.h"
#include "hotplug.h"
#include "inject.h"
#include "run.h"
#include "signals.h"
#include "threads.h"
#include "watchdog.h"


#if defined(__SANITIZE_ADDRESS__) || defined(KC_TSAN)
#define WORKER_STACK	(512UL << 10)	/* sanitizers need room for redzones/shadow */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WORKER_STACK	(512UL << 10)
#endif
#endif
#ifndef WORKER_STACK
#define WORKER_STACK	STRESS_STACK_SIZE
#endif

/*
 * vCPU steps between two checks of the stop and park requests: the loop's
 * own cost per step stays small; a stop or a stutter waits a microsecond
 * or two longer.
 */
#define STEP_BURST	16

/*
 * Selectors are few and vCPUs many: at equal priority 2 selectors among
 * 256 busy vCPU threads get under 1% of the machine. --vcpu-nice N lets
 * the vCPU threads lower their own priority (never raising anyone's: no
 * privilege needed); "auto" picks the value that gives the selectors
 * about a quarter of the CPU time. Not the default: on a host loaded by
 * other work, nice vCPU threads starve, a stutter waits for each of them
 * to run once, and a starved thread holding the engine's mutex blocks
 * the controller (priority inversion).
 */
int stress_vcpu_nice(const struct stress_config *cfg, unsigned int nr_selectors)
{
	static const unsigned int weight[20] = {
		1024, 820, 655, 526, 423, 335, 272, 215, 172, 137,
		110, 87, 70, 56, 45, 36, 29, 23, 18, 15,
	};
	unsigned long target;
	int nice;

	if (!nr_selectors || !cfg->vcpu_nice)
		return 0;
	if (cfg->vcpu_nice > 0)
		return cfg->vcpu_nice;
	target = 3UL * 1024 * nr_selectors / cfg->nr_cpus;
	for (nice = 0; nice < 19 && weight[nice] > target; nice++)
		;
	return nice;
}

/* Sleep while *@w is @val, at most @ns (0: no limit); may return early. */
static void word_wait(atomic_uint *w, unsigned int val, long ns)
{
	struct timespec ts = { ns / 1000000000L, ns % 1000000000L };

	syscall(SYS_futex, w, FUTEX_WAIT_PRIVATE, val, ns ? &ts : NULL, NULL, 0);
}

static void word_wake(atomic_uint *w)
{
	syscall(SYS_futex, w, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/*
 * Wake every worker asleep on @w (go, park_gen) as a tree: the waker
 * wakes WAKE_FANOUT of them and each woken one wakes WAKE_FANOUT more
 * (word_wait_passing()). One wake of all takes every sleeper off the
 * futex and wakes them one by one; the first woken on the waker's core
 * preempts it, and the rest stay asleep until its next time slice. With
 * 8192 workers beside 6 busy loops on 2 cores a start took minutes (the
 * controller woke a few workers per round of 4096 spinning threads); as
 * a tree, no sleeper waits for one preempted waker.
 */
#define WAKE_FANOUT	2

static void word_wake_tree(atomic_uint *w)
{
	syscall(SYS_futex, w, FUTEX_WAKE_PRIVATE, WAKE_FANOUT, NULL, NULL, 0);
}

/* word_wait() on a word woken as a tree: once it moved, pass the wake-up on. */
static void word_wait_passing(atomic_uint *w, unsigned int val)
{
	word_wait(w, val, 0);
	if (atomic_load(w) != val)
		word_wake_tree(w);
}

/*
 * A worker parked (@always false: only the last one) or exited: wake the
 * controller. seq_cst counts: of two workers counting themselves at once,
 * at least one sees the other's count.
 */
static void ctl_wake(struct stress *s, bool always)
{
	if (!always && atomic_load(&s->workers.nr_parked) + atomic_load(&s->workers.nr_exited) <
	    atomic_load_explicit(&s->workers.nr_started, memory_order_relaxed))
		return;
	atomic_fetch_add(&s->workers.ctl_seq, 1);
	word_wake(&s->workers.ctl_seq);
}

/*
 * The controller sleeps until a worker wakes it or @secs passed (it beats
 * the watchdog and checks stop and the deadline in between); @seq was
 * read before the caller tested its condition, so no wake-up is lost.
 */
static void ctl_wait(struct stress *s, unsigned int seq, double secs)
{
	word_wait(&s->workers.ctl_seq, seq, (long)(secs * 1e9));
}

/*
 * A parked vCPU thread gives its vCPU back first (kcompat.h, owned
 * model): a thread waiting for that vCPU in the middle of its step can
 * then finish the step and park too. It counts itself parked, reads the
 * generation, then re-checks the request (seq_cst, as the resume's
 * clear-then-increment): a resume it does not see cleared has not yet
 * moved the generation it waits on. A thread counted during a resume
 * runs no step before it looks at park_req again (worker()). Woken, it
 * takes its vCPU back.
 *
 * A vCPU thread whose CPU a quiescent point took offline (--hotplug,
 * src/hotplug.c) stays parked, counted in nr_parked and in state
 * TS_OFFLINE, through every resume until one finds its CPU online again
 * (or the run stops: stress_threads_stop() moves park_gen too). It comes
 * back on its own CPU when the one it last ran as went offline.
 */
static void park(struct stress *s, struct stress_thread *th)
{
	unsigned int gen;

	kc_cpu_unhold();
	kc_rcu_thread_offline();	/* qsbr: no grace period waits for a parked CPU */
	atomic_store_explicit(&th->state, TS_PARKED, memory_order_relaxed);
	atomic_fetch_add(&s->workers.nr_parked, 1);
	gen = atomic_load(&s->workers.park_gen);
	if (atomic_load(&s->workers.park_req)) {
		ctl_wake(s, false);
		while (atomic_load(&s->workers.park_gen) == gen)
			word_wait_passing(&s->workers.park_gen, gen);
	}
	while (!th->selector && !cpu_online(th->id) && !atomic_load(&s->stop)) {
		atomic_store_explicit(&th->state, TS_OFFLINE, memory_order_relaxed);
		gen = atomic_load(&s->workers.park_gen);
		if (cpu_online(th->id) || atomic_load(&s->stop))
			break;
		word_wait_passing(&s->workers.park_gen, gen);
	}
	atomic_fetch_sub(&s->workers.nr_parked, 1);
	/*
	 * No longer parked: should the resume take it long (a hook, its vCPU),
	 * the watchdog judges it like any running thread, also once the next
	 * stutter waits for it (a parked one is exempt there).
	 */
	atomic_store_explicit(&th->state, TS_RUN, memory_order_relaxed);
	stress_test_hook(s, STRESS_HOOK_RESUMED, th - s->threads);
	if (!th->selector && !cpu_online(kc_get_cpu()))
		kc_set_cpu(kc_cpu_online_fallback(th->id));	/* not held: a plain move */
	if (!th->selector)
		kc_cpu_hold();
	kc_rcu_thread_online();
	atomic_store_explicit(&th->state, TS_RUN, memory_order_relaxed);
}

/*
 * Selectors run at most --selector-duty of the time, so that with few
 * vCPUs they do not steal half the machine and bounce the counters'
 * cache lines: once they have run PACE_QUANTUM (looked at every 16
 * steps), they sleep in proportion. One sleep per quantum, not per few
 * steps: a sleep and its wake-up cost more CPU than a dozen checks, and
 * used to be most of what the selectors spent.
 */
#define PACE_QUANTUM	500e-6
#define PACE_MAX_REST	50e-3

static void pace(struct stress *s, double *since, unsigned long n)
{
	double duty = s->run.cfg->selector_duty, busy, rest;
	struct timespec ts;

	if (duty >= 1 || (n & 15) != 15)
		return;
	busy = stress_now() - *since;
	if (busy < PACE_QUANTUM)
		return;
	rest = busy * (1 / duty - 1);
	if (rest > PACE_MAX_REST)	/* a long step (or a preemption) is not a debt */
		rest = PACE_MAX_REST;
	ts.tv_sec = (time_t)rest;
	ts.tv_nsec = (long)((rest - ts.tv_sec) * 1e9);
	kc_rcu_thread_offline();
	nanosleep(&ts, NULL);
	kc_rcu_thread_online();
	*since = stress_now();
}

static void *worker(void *arg)
{
	struct stress_thread *th = arg;
	struct stress *s = th->s;
	const struct scenario *sc = s->run.sc;
	struct stress_rng rng;
	char stream[80];
	double busy_since;
	unsigned long n = 0;

	atomic_store_explicit(&th->os_tid, (int)syscall(SYS_gettid), memory_order_relaxed);
	kc_set_cpu(th->selector ? th->id % s->run.cfg->nr_cpus : th->id);
	kc_rcu_register_thread();
	/* One stream per scenario and thread: same seed, same sequence. */
	snprintf(stream, sizeof(stream), "%s/%s", sc->name, th->selector ? "select" : "cpu");
	stress_rng_seed(&rng, s->run.seed, stream, th->id);
	if (!th->selector) {
		stress_inject_attach(s, th->id);
		if (s->workers.vcpu_nice)
			setpriority(PRIO_PROCESS, syscall(SYS_gettid), s->workers.vcpu_nice);
	}

	/* A stop before the start sets go too. */
	while (!atomic_load(&s->workers.go))
		word_wait_passing(&s->workers.go, 0);
	stress_test_hook(s, STRESS_HOOK_WORKER_GO,
			 th->selector ? s->run.cfg->nr_cpus + th->id : th->id);
	/* A vCPU thread runs its vCPU, as a task pinned to a CPU would. */
	if (!th->selector)
		kc_cpu_hold();

	/*
	 * qsbr: a worker reports its own quiescent states, after each step,
	 * and is offline whenever it waits (park, pace, exit).
	 */
	kc_rcu_thread_online();
	atomic_store_explicit(&th->state, TS_RUN, memory_order_relaxed);
	busy_since = stress_now();
	while (!atomic_load_explicit(&s->stop, memory_order_relaxed)) {
		if (atomic_load_explicit(&s->workers.park_req, memory_order_acquire)) {
			park(s, th);
			busy_since = stress_now();	/* parked is not busy */
			continue;
		}
		atomic_store_explicit(&th->state, TS_STEP, memory_order_relaxed);
		if (!th->selector && s->run.cfg->steps && n >= s->run.cfg->steps) {
			kc_rcu_thread_offline();
			atomic_fetch_add(&s->workers.nr_vcpus_done, 1);
			break;
		}
		if (th->selector) {
			sc->select_step(s, th->id, &rng);
			pace(s, &busy_since, n + 1);
		} else {
			/* A burst of steps per check of the stop and park flags. */
			unsigned long k, burst = STEP_BURST;

			if (s->run.cfg->steps && s->run.cfg->steps - n < burst)
				burst = s->run.cfg->steps - n;
			if (sc->cpu_steps) {
				sc->cpu_steps(s, th->id, &rng, burst);
			} else {
				for (k = 0; k < burst; k++) {
					stress_step_home(th->id);
					sc->cpu_step(s, th->id, &rng);
				}
			}
			kc_cpu_preempt();	/* lend the vCPU to a thread waiting for it */
			n += burst - 1;
		}
		kc_rcu_quiescent_state();
		atomic_store_explicit(&th->progress, ++n, memory_order_relaxed);
		atomic_store_explicit(&th->state, TS_RUN, memory_order_relaxed);
	}
	kc_rcu_thread_offline();

	if (!th->selector) {
		unsigned long hops, delays, yields;

		stress_inject_counts(&hops, &delays, &yields);
		if (hops)
			stress_soft(s, "inject_hop", hops);
		if (delays)
			stress_soft(s, "inject_delay", delays);
		if (yields)
			stress_soft(s, "inject_yield", yields);
		stress_inject_detach();
		kc_cpu_unhold();
	}
	kc_rcu_unregister_thread();
	atomic_store_explicit(&th->state, TS_EXITED, memory_order_relaxed);
	atomic_fetch_add(&s->workers.nr_exited, 1);
	ctl_wake(s, true);
	return NULL;
}

/*
 * Create every worker; they wait for "go". 0; 1 when a signal (or a stop)
 * came first, 2 when the run's deadline did: creation ends there and the
 * run stops with the threads it has; -1 after reporting an internal error.
 * SIGINT/SIGTERM are blocked around each pthread_create() only (so that
 * workers inherit them blocked): never for the whole creation, which on an
 * overloaded host takes minutes for a few hundred threads.
 */
int stress_threads_start(struct stress *s)
{
	unsigned int nr_cpus = s->run.cfg->nr_cpus, i;
	int cores[CPU_SETSIZE], ncores = stress_host_cores(cores, CPU_SETSIZE);
	pthread_attr_t attr;
	sigset_t old;
	int err = 0;

	s->workers.vcpu_nice = stress_vcpu_nice(s->run.cfg, s->setup.nr_threads - nr_cpus);
	for (i = 0; i < s->setup.nr_threads; i++) {
		struct stress_thread *th = &s->threads[i];

		if (stress_signalled || atomic_load(&s->stop))
			return 1;
		/*
		 * Past the deadline by half the watchdog's limit: the run would
		 * end as a crash, so stop here. A short run that merely starts
		 * late still runs (its deadline alone is no reason to stop).
		 */
		if (s->wd.deadline && stress_now() >= s->wd.deadline +
				      stress_stall_limit(s->run.cfg) / 2)
			return 2;
		stress_test_hook(s, STRESS_HOOK_THREAD_START, i);
		th->s = s;
		th->selector = i >= nr_cpus;
		th->id = th->selector ? i - nr_cpus : i;
		th->core = -1;
		pthread_attr_init(&attr);
		pthread_attr_setstacksize(&attr, WORKER_STACK);
		if (!th->selector && ncores > 0) {
			cpu_set_t set;

			CPU_ZERO(&set);
			th->core = cores[i % ncores];
			CPU_SET(th->core, &set);
			pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		}
		stress_signals_block(&old);
		err = pthread_create(&th->tid, &attr, worker, th);
		stress_signals_restore(&old);
		pthread_attr_destroy(&attr);
		if (err)
			break;
		atomic_store_explicit(&th->started, true, memory_order_release);
		atomic_fetch_add_explicit(&s->workers.nr_started, 1, memory_order_relaxed);
		stress_watch_beat();
	}
	if (err) {
		stress_internal_error(s, "cannot create thread %u of %u: %s", i,
				      s->setup.nr_threads, strerror(err));
		return -1;
	}
	/*
	 * The clock starts before "go" is published: no step can come before
	 * t0, however long waking the workers keeps the controller away.
	 */
	s->workers.cpu_at_go = stress_cpu_us();
	atomic_store(&s->t0, stress_now());
	atomic_store(&s->workers.go, 1);
	word_wake_tree(&s->workers.go);
	return 0;
}

static unsigned int nr_started(struct stress *s)
{
	return atomic_load_explicit(&s->workers.nr_started, memory_order_relaxed);
}

/*
 * A stutter: park every worker, run the scenario's quiescent(), resume.
 * It gives up (resumes at once, no check) on a stop, a signal or the
 * run's deadline: the final check follows then anyway. A worker that
 * never parks is the watchdog's (no progress for the stall timeout), which
 * then stops the run. False when given up.
 */
bool stress_threads_quiesce(struct stress *s)
{
	unsigned int total = nr_started(s);
	double t0 = stress_now(), t1;
	bool ok = true;

	atomic_store(&s->workers.park_req, true);
	for (;;) {
		unsigned int seq = atomic_load(&s->workers.ctl_seq);

		if (atomic_load(&s->workers.nr_parked) +
		    atomic_load(&s->workers.nr_exited) >= total)
			break;
		ctl_wait(s, seq, 0.05);
		stress_watch_beat();
		if (atomic_load(&s->stop) || stress_signalled ||
		    (s->wd.deadline && stress_now() >= s->wd.deadline)) {
			ok = false;
			break;
		}
	}
	s->workers.park_time += stress_now() - t0;
	t1 = stress_now();
	if (ok && !atomic_load(&s->stop)) {
		stress_hotplug_step(s);
		stress_test_hook(s, STRESS_HOOK_QUIESCENT, 0);
		stress_quiescent_point(s);
	}
	t0 = stress_now();
	atomic_store(&s->workers.park_req, false);
	atomic_fetch_add(&s->workers.park_gen, 1);
	word_wake_tree(&s->workers.park_gen);
	s->workers.quiescent_time += t0 - t1;
	return ok;
}

/*
 * Stop and join every worker. Waits as long as they take to exit, unless
 * the watchdog failed the run: a thread stuck for the stall timeout will
 * not exit, so a second later the run is reported without it (false; the
 * caller must not tear down what that thread may still use).
 */
bool stress_threads_stop(struct stress *s)
{
	unsigned int total = nr_started(s), i;
	double fired;
	bool ok = true;

	atomic_store(&s->stop, true);
	atomic_store(&s->workers.go, 1);	/* workers not started yet see the stop */
	word_wake_tree(&s->workers.go);
	atomic_fetch_add(&s->workers.park_gen, 1);	/* and those parked while offline */
	word_wake_tree(&s->workers.park_gen);
	for (;;) {
		unsigned int seq = atomic_load(&s->workers.ctl_seq);

		if (atomic_load(&s->workers.nr_exited) >= total)
			break;
		ctl_wait(s, seq, 0.05);
		stress_watch_beat();
		fired = atomic_load(&s->wd.fired_at);
		if (fired && stress_now() - fired > 1.0) {
			ok = false;
			break;
		}
	}
	for (i = 0; i < s->setup.nr_threads; i++) {
		struct stress_thread *th = &s->threads[i];

		if (!th->started)
			continue;
		/* Given up: the stuck threads are let go (detached), the others joined. */
		if (ok || atomic_load(&th->state) == TS_EXITED)
			pthread_join(th->tid, NULL);
		else
			pthread_detach(th->tid);
	}
	return ok;
}

/* Every vCPU did its --steps. */
bool stress_threads_done(struct stress *s)
{
	return s->run.cfg->steps && atomic_load(&s->workers.nr_vcpus_done) >= s->run.cfg->nr_cpus;
}
