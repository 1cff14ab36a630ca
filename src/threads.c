// SPDX-License-Identifier: GPL-2.0
/*
 * Worker threads and phases. Thread i < nr_cpus is virtual CPU i, pinned
 * to host core i % ncores, and holds that vCPU between its steps (owned
 * model of kcompat.h: an injected hop migrates it for the rest of the
 * step); the selector threads follow, unpinned, and hold none. Every
 * wait is on a pthread condition variable: 256 or 8192 threads on two
 * cores never spin. A stutter parks every worker (vCPUs and selectors)
 * between two steps, so the scenario's quiescent() sees no update and no
 * selector in flight.
 */
#include <errno.h>
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
#include "stress.h"


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

/*
 * A parked vCPU thread gives its vCPU back first (kcompat.h, owned
 * model): a thread waiting for that vCPU in the middle of its step can
 * then finish the step and park too. Taking it back happens outside the
 * engine's lock.
 */
static void park(struct stress *s, struct stress_thread *th)
{
	unsigned long gen;

	kc_cpu_unhold();
	kc_rcu_thread_offline();	/* qsbr: no grace period waits for a parked CPU */
	pthread_mutex_lock(&s->lock);
	/* The controller may have resumed already: re-check under the lock. */
	if (!atomic_load(&s->park_req)) {
		pthread_mutex_unlock(&s->lock);
		if (!th->selector)
			kc_cpu_hold();
		kc_rcu_thread_online();
		return;
	}
	gen = s->park_gen;
	s->nr_parked++;
	atomic_store_explicit(&th->state, TS_PARKED, memory_order_relaxed);
	pthread_cond_signal(&s->ctl_cond);
	while (s->park_gen == gen)
		pthread_cond_wait(&s->cond, &s->lock);
	s->nr_parked--;
	pthread_mutex_unlock(&s->lock);
	if (!th->selector)
		kc_cpu_hold();
	kc_rcu_thread_online();
	atomic_store_explicit(&th->state, TS_RUN, memory_order_relaxed);
}

/*
 * Selectors run at most --selector-duty of the time (every 16 steps they
 * sleep at least as long as they ran, and at least 50 us), so that with
 * few vCPUs they do not steal half the machine and bounce the counters'
 * cache lines; they still check hundreds of thousands of times a second.
 */
static void pace(struct stress *s, double *since, unsigned long n)
{
	double duty = s->cfg->selector_duty, busy, rest;
	struct timespec ts;

	if (duty >= 1 || (n & 15) != 15)
		return;
	busy = stress_now() - *since;
	rest = busy * (1 / duty - 1);
	if (rest < 50e-6)
		rest = 50e-6;
	if (rest > 10e-3)	/* e.g. time spent parked is not busy time */
		rest = 10e-3;
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
	const struct scenario *sc = s->sc;
	struct stress_rng rng;
	char stream[80];
	double busy_since;
	unsigned long n = 0;

	kc_set_cpu(th->selector ? th->id % s->cfg->nr_cpus : th->id);
	kc_rcu_register_thread();
	/* One stream per scenario and thread: same seed, same sequence. */
	snprintf(stream, sizeof(stream), "%s/%s", sc->name, th->selector ? "select" : "cpu");
	stress_rng_seed(&rng, s->seed, stream, th->id);
	if (!th->selector) {
		stress_inject_attach(s, th->id);
		if (s->vcpu_nice)
			setpriority(PRIO_PROCESS, syscall(SYS_gettid), s->vcpu_nice);
	}

	pthread_mutex_lock(&s->lock);
	while (!s->go && !atomic_load(&s->stop))
		pthread_cond_wait(&s->cond, &s->lock);
	pthread_mutex_unlock(&s->lock);
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
		if (atomic_load_explicit(&s->park_req, memory_order_acquire)) {
			park(s, th);
			continue;
		}
		atomic_store_explicit(&th->state, TS_STEP, memory_order_relaxed);
		if (!th->selector && s->cfg->steps && n >= s->cfg->steps) {
			kc_rcu_thread_offline();
			pthread_mutex_lock(&s->lock);
			s->nr_vcpus_done++;
			pthread_mutex_unlock(&s->lock);
			break;
		}
		if (th->selector) {
			sc->select_step(s, th->id, &rng);
			pace(s, &busy_since, n + 1);
		} else {
			/* A burst of steps per check of the stop and park flags. */
			unsigned long k, burst = STEP_BURST;

			if (s->cfg->steps && s->cfg->steps - n < burst)
				burst = s->cfg->steps - n;
			for (k = 0; k < burst; k++) {
				if (stress_inject_hopped())
					kc_set_cpu(th->id);	/* back home after an injected hop */
				sc->cpu_step(s, th->id, &rng);
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
	pthread_mutex_lock(&s->lock);
	s->nr_exited++;
	pthread_cond_signal(&s->ctl_cond);
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

/*
 * Create every worker; they wait for "go". 0, 1 when a signal (or a stop)
 * came first: creation ends there and the run stops with the threads it
 * has; -1 after reporting an internal error. SIGINT/SIGTERM are blocked
 * around each pthread_create() only (so that workers inherit them
 * blocked): never for the whole creation, which on an overloaded host
 * takes minutes for a few hundred threads.
 */
int stress_threads_start(struct stress *s)
{
	unsigned int nr_cpus = s->cfg->nr_cpus, i;
	int cores[CPU_SETSIZE], ncores = stress_host_cores(cores, CPU_SETSIZE);
	pthread_attr_t attr;
	sigset_t old;
	int err = 0;

	s->vcpu_nice = stress_vcpu_nice(s->cfg, s->nr_threads - nr_cpus);
	for (i = 0; i < s->nr_threads; i++) {
		struct stress_thread *th = &s->threads[i];

		if (stress_signalled || atomic_load(&s->stop))
			return 1;
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
		stress_watch_beat();
	}
	if (err) {
		stress_internal_error(s, "cannot create thread %u of %u: %s", i,
				      s->nr_threads, strerror(err));
		return -1;
	}
	pthread_mutex_lock(&s->lock);
	s->go = true;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	return 0;
}

static void wait_ctl(struct stress *s, double secs)
{
	struct timespec ts;
	long ns;

	clock_gettime(CLOCK_REALTIME, &ts);
	ns = ts.tv_nsec + (long)(secs * 1e9);
	ts.tv_sec += ns / 1000000000L;
	ts.tv_nsec = ns % 1000000000L;
	pthread_cond_timedwait(&s->ctl_cond, &s->lock, &ts);
}

static unsigned int nr_started(struct stress *s)
{
	unsigned int i, n = 0;

	for (i = 0; i < s->nr_threads; i++)
		n += s->threads[i].started;
	return n;
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

	pthread_mutex_lock(&s->lock);
	atomic_store(&s->park_req, true);
	while (s->nr_parked + s->nr_exited < total) {
		wait_ctl(s, 0.05);
		stress_watch_beat();
		if (atomic_load(&s->stop) || stress_signalled ||
		    (s->deadline && stress_now() >= s->deadline)) {
			ok = false;
			break;
		}
	}
	pthread_mutex_unlock(&s->lock);
	s->park_time += stress_now() - t0;
	t1 = stress_now();
	if (ok && !atomic_load(&s->stop)) {
		stress_test_hook(s, STRESS_HOOK_QUIESCENT, 0);
		atomic_fetch_add(&s->quiescent, 1);
		if (s->sc->quiescent)
			s->sc->quiescent(s);
	}
	t0 = stress_now();
	pthread_mutex_lock(&s->lock);
	atomic_store(&s->park_req, false);
	s->park_gen++;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	s->quiescent_time += t0 - t1;
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
	pthread_mutex_lock(&s->lock);
	pthread_cond_broadcast(&s->cond);
	while (s->nr_exited < total) {
		wait_ctl(s, 0.05);
		stress_watch_beat();
		fired = atomic_load(&s->wd_fired_at);
		if (fired && stress_now() - fired > 1.0) {
			ok = false;
			break;
		}
	}
	pthread_mutex_unlock(&s->lock);
	for (i = 0; i < s->nr_threads; i++) {
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

unsigned long stress_threads_ops(struct stress *s)
{
	unsigned long n = 0;
	unsigned int i;

	for (i = 0; i < s->cfg->nr_cpus && i < s->nr_threads; i++)
		n += atomic_load_explicit(&s->threads[i].progress, memory_order_relaxed);
	return n;
}

/* Every vCPU did its --steps. */
bool stress_threads_done(struct stress *s)
{
	bool done;

	if (!s->cfg->steps)
		return false;
	pthread_mutex_lock(&s->lock);
	done = s->nr_vcpus_done >= s->cfg->nr_cpus;
	pthread_mutex_unlock(&s->lock);
	return done;
}
