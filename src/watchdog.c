// SPDX-License-Identifier: GPL-2.0
/*
 * The watchdog: a thread of its own, on its own clock, that holds every
 * mode to its limits whatever the controller is doing (blocked in a
 * thread creation, a lock, a scenario's check, a write). The controller
 * publishes the current run, its deadline and its phase, and beats a
 * heartbeat; the workers count their steps. With W the stall timeout
 * (--stall-timeout, default 30 s + 10 ms x threads per host core) and S
 * the stop limit (5 s + 2 ms x threads per host core):
 *
 *  - a running (not parked, not exited) thread whose step count did not
 *    move for W: the run fails (invariant "watchdog", every thread's
 *    state) and is stopped; the controller reports it as usual;
 *  - the controller without a heartbeat for W, the deadline passed by
 *    more than W, or a run still going S after the watchdog failed it:
 *    the watchdog writes the report itself (reason, phase, every
 *    thread's state, flight recorder, verdict) and exits 1;
 *  - a first SIGINT/SIGTERM not honoured within S of its arrival (seen
 *    pending, even before the controller runs its handler): the same,
 *    exit 128 + signo (whatever the mode: run, replay, search, shrink).
 *
 * So a run never outlives its deadline by more than W, and a signal is
 * never ignored for more than S.
 *
 * Progress, not scheduling luck: before it fails a run for a stall (a
 * thread, the controller, or the deadline passed), the watchdog asks the
 * scheduler (sched.c) whether a thread of the run was starved of CPU over
 * the last W/2 to W: waiting for a CPU and given almost nothing. If so the
 * host is overloaded, nothing is hung: it judges again a second later,
 * and at the latest after STARVED_MAX x W it fails the run whatever the
 * cause. A hung thread is not starved unless the host is (blocked, it
 * waits for no CPU; spinning, it gets its share), so a real hang is
 * still reported after W.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <kcompat/kcompat.h>
#include "config.h"
#include "engine.h"
#include "report.h"
#include "run.h"
#include "signals.h"
#include "threads.h"
#include "verdict.h"
#include "watchdog.h"

static const char *const phase_names[] = {
	[PH_IDLE] = "idle", [PH_SETUP] = "setup", [PH_START] = "starting threads",
	[PH_RUN] = "running", [PH_STUTTER] = "stutter (parking every thread)",
	[PH_STOP] = "stopping threads", [PH_FINAL] = "final checks and teardown",
	[PH_SERIAL] = "serial schedule",
};

static const struct stress_config *wd_cfg;
static double wd_t0;			/* when the watchdog started (~ the process) */
static pthread_mutex_t watch_lock = PTHREAD_MUTEX_INITIALIZER;
static struct stress *watched;		/* under watch_lock */
static atomic_ulong beat;		/* controller heartbeat */
static atomic_flag exiting = ATOMIC_FLAG_INIT;
static struct stress *seen_run;		/* watchdog thread only: */
static unsigned long seen_beat;
static double beat_at;

bool stress_wd_fake_starved;

/* At most this many stall timeouts of starvation before a stall is failed anyway. */
#define STARVED_MAX	10

/*
 * Scheduler samples of the watched run's threads (the controller, then
 * the workers), taken every W/2 from the moment a stall becomes possible
 * (something without progress for W/2) for as long as it is: a stall is
 * judged over the time since the older of the last two, W/2 to W.
 * Watchdog thread only.
 */
static struct {
	struct stress *run;
	struct stress_sched *smp[2];	/* [0] the older samples, [1] the newer */
	bool *ok[2];
	double at[2];			/* when; 0: none */
	unsigned int n[2];		/* how many: 1 + workers, or 1 */
	unsigned int cap;
	double judged_at;		/* a verdict holds for a second */
	bool starved;
	unsigned int deferrals;		/* stalls put off in this run */
} probe;

static double threads_per_core(const struct stress_config *cfg)
{
	int cores[1024], n = stress_host_cores(cores, 1024);

	return (double)(cfg->nr_cpus + cfg->nr_selectors) / (n < 1 ? 1 : n);
}

double stress_default_stall_timeout(const struct stress_config *cfg)
{
	return 30.0 + 0.010 * threads_per_core(cfg);
}

double stress_stop_limit(const struct stress_config *cfg)
{
	return 5.0 + 0.002 * threads_per_core(cfg);
}

double stress_stall_limit(const struct stress_config *cfg)
{
	return cfg->stall_timeout ? cfg->stall_timeout : stress_default_stall_timeout(cfg);
}

void stress_watch_beat(void)
{
	atomic_fetch_add_explicit(&beat, 1, memory_order_relaxed);
}

void stress_watch_phase(struct stress *s, enum stress_phase ph)
{
	atomic_store_explicit(&s->wd.phase, ph, memory_order_release);
	stress_watch_beat();
}

/* From now on the watchdog holds @s to @deadline (absolute, 0: none). */
void stress_watch_run(struct stress *s, double deadline)
{
	s->wd.deadline = deadline;
	s->wd.ctl_tid = (int)syscall(SYS_gettid);
	atomic_store(&s->wd.phase, PH_SETUP);
	stress_watch_beat();
	pthread_mutex_lock(&watch_lock);
	watched = s;
	pthread_mutex_unlock(&watch_lock);
}

/* After this returns the watchdog no longer reads @s: it may be freed. */
void stress_watch_end(struct stress *s)
{
	pthread_mutex_lock(&watch_lock);
	if (watched == s)
		watched = NULL;
	pthread_mutex_unlock(&watch_lock);
	atomic_store(&s->wd.phase, PH_IDLE);
}

static bool threads_visible(struct stress *s)
{
	int ph = atomic_load_explicit(&s->wd.phase, memory_order_acquire);

	return ph >= PH_START && ph != PH_SERIAL && s->threads;
}

/*
 * Threads without a step for @limit that should be making steps: every
 * started thread, except one waiting for "go" while the controller still
 * creates threads, one parked during a stutter, and one that exited. (A
 * thread still parked after the stutter, or still waiting once the run is
 * stopping, is a lost wake-up: it counts.) How many, the first, and the
 * longest time without a step of any of them (@idle).
 */
static unsigned int stalled_threads(struct stress *s, double now, double limit, int *first,
				    double *idle)
{
	int ph = atomic_load(&s->wd.phase);
	unsigned int i, n = 0;

	for (i = 0; i < s->setup.nr_threads; i++) {
		struct stress_thread *th = &s->threads[i];
		unsigned long p = atomic_load_explicit(&th->progress, memory_order_relaxed);
		int st = atomic_load_explicit(&th->state, memory_order_relaxed);

		if (!atomic_load_explicit(&th->started, memory_order_acquire) || st == TS_EXITED || st == TS_OFFLINE || (st == TS_NEW && ph == PH_START) ||
		    (st == TS_PARKED && ph == PH_STUTTER) || p != th->seen || !th->seen_at) {
			th->seen = p;
			th->seen_at = now;
			continue;
		}
		if (now - th->seen_at > *idle)
			*idle = now - th->seen_at;
		if (now - th->seen_at > limit && !n++)
			*first = i;
	}
	return n;
}

/* Sample @i: the controller (0), then worker i - 1. */
static int probe_tid(struct stress *s, unsigned int i)
{
	return i ? atomic_load_explicit(&s->threads[i - 1].os_tid, memory_order_relaxed) :
		   s->wd.ctl_tid;
}

static bool probe_alloc(unsigned int n)
{
	unsigned int k;

	if (probe.cap >= n)
		return true;
	for (k = 0; k < 2; k++) {
		free(probe.smp[k]);
		free(probe.ok[k]);
		probe.smp[k] = calloc(n, sizeof(*probe.smp[k]));
		probe.ok[k] = calloc(n, sizeof(*probe.ok[k]));
		if (!probe.smp[k] || !probe.ok[k]) {
			probe.cap = 0;
			return false;
		}
	}
	probe.cap = n;
	return true;
}

/*
 * Samples every @w/2 while a stall is possible (@suspect); none otherwise.
 * The workers only once they are visible (before, the controller may still
 * be setting up their array).
 */
static void probe_track(struct stress *s, double now, double w, bool suspect)
{
	unsigned int i, n;
	struct stress_sched *smp;
	bool *ok;

	if (probe.run != s || !suspect) {
		memset(probe.at, 0, sizeof(probe.at));
		probe.judged_at = 0;
		probe.run = s;
		probe.deferrals = 0;
	}
	if (!suspect || (probe.at[1] && now - probe.at[1] < w / 2))
		return;
	n = threads_visible(s) ? s->setup.nr_threads + 1 : 1;
	if (!probe_alloc(n))
		return;
	smp = probe.smp[0];
	ok = probe.ok[0];
	probe.smp[0] = probe.smp[1];
	probe.ok[0] = probe.ok[1];
	probe.at[0] = probe.at[1];
	probe.n[0] = probe.n[1];
	probe.smp[1] = smp;
	probe.ok[1] = ok;
	for (i = 0; i < n; i++)
		ok[i] = stress_sched_read(probe_tid(s, i), &smp[i]);
	probe.at[1] = now;
	probe.n[1] = n;
}

/*
 * Put off a stall @age past the stall timeout @w? Yes while any thread of
 * the run or the controller was starved since the older samples: what
 * waits may wait for it (a vCPU, a park), and a hang is not told from a
 * starved host then. A note on stderr the first time; never past
 * STARVED_MAX x @w.
 */
static bool probe_defer(struct stress *s, double now, double w, double age)
{
	unsigned int i, b = probe.at[0] ? 0 : 1;
	struct stress_sched cur;
	char who[32];

	if (age > (STARVED_MAX - 1) * w)
		return false;	/* probe.starved: the last judgement, for give_up() */
	/*
	 * No samples old enough to judge by (a watchdog that woke late on a
	 * loaded host): look again once there are, within the bound above.
	 */
	if (!probe.at[b] || now - probe.at[b] < w / 4)
		return true;
	if (probe.judged_at && now - probe.judged_at < 1.0)
		return probe.starved;
	/* The first starved one will do. */
	for (i = 0; i < probe.n[b]; i++)
		if (probe.ok[b][i] && stress_sched_read(probe_tid(s, i), &cur) &&
		    stress_sched_starved(&probe.smp[b][i], &cur, now - probe.at[b]))
			break;
	probe.judged_at = now;
	probe.starved = i < probe.n[b] || stress_wd_fake_starved;
	if (probe.starved && !probe.deferrals++ && !ftrylockfile(stderr)) {
		/* The self-test's simulated starvation names no thread. */
		if (i >= probe.n[b])
			snprintf(who, sizeof(who), "a thread");
		else if (!i)
			snprintf(who, sizeof(who), "the controller");
		else
			snprintf(who, sizeof(who), "%s %u", s->threads[i - 1].selector ?
				 "selector" : "cpu", s->threads[i - 1].id);
		fprintf(stderr, "stress: watchdog: a stall of %.1fs, but %s was starved of CPU "
			"over the last %.1fs (an overloaded host, not a hang): judging again\n",
			w + age, who, now - probe.at[b]);
		funlockfile(stderr);
	}
	return probe.starved;
}

/*
 * What the report needs of @s, copied without reading anything the
 * controller may be writing: fields set before the run was published
 * (watch_lock orders them), atomics, and what the key and failure locks
 * guard, if they can be taken (the controller may hold one forever).
 * Timing results (elapsed, ops) are the watchdog's own.
 */
static struct stress *snapshot(struct stress *s, double now, bool interrupted, bool starved)
{
	struct stress *c = stress_run_new(&s->run);

	if (!c)
		return NULL;
	stress_result_forced(c, s, now, threads_visible(s) ? stress_threads_ops(s) : 0, interrupted,
			     starved);
	stress_tally_snapshot(&c->tally, &s->tally);
	return c;
}

/*
 * The last resort: the report, written by this thread on a stdout of its
 * own (the controller may hold stdout's lock forever), then exit.
 */
static void __attribute__((noreturn)) hard_exit(struct stress *s, int status, const char *reason)
{
	const struct stress_config *cfg = s ? s->run.cfg : wd_cfg;
	int ph = s ? atomic_load(&s->wd.phase) : PH_IDLE;
	bool fresh = s && !stress_failed(s);
	struct stress *c = NULL;
	/* A signal not honoured: the scenarios after this one never start. */
	int signo = stress_signal_number();
	unsigned int not_run = s && signo && !cfg->until_fail ? cfg->nr_scenarios - s->run.index : 0;
	FILE *err, *out;
	int fd;

	if (atomic_flag_test_and_set(&exiting))
		for (;;)
			pause();
	/* Should a write block (a full pipe nobody reads), SIGALRM ends the process. */
	alarm(10);
	stress_kill_child();
	/* The failure first: its excerpt is every thread's state, now. */
	if (s && status == STRESS_EXIT_FAIL && fresh)
		stress_fail_watchdog(s, -1, "%s", reason);
	fd = dup(STDERR_FILENO);
	err = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!err)
		err = stderr;
	fprintf(err, "stress: watchdog: %s%s; exiting without the final checks\n", reason,
		s ? "" : " (no run in progress)");
	if (s) {
		fprintf(err, "# watchdog: controller phase: %s\n", phase_names[ph]);
		if (threads_visible(s) && (status != STRESS_EXIT_FAIL || !fresh))
			stress_dump_threads(s, err);
		c = snapshot(s, stress_now(), status != STRESS_EXIT_FAIL &&
			     status != STRESS_EXIT_INCOMPLETE, status == STRESS_EXIT_INCOMPLETE);
		/* The status the report gives (a failure before the signal stays 1). */
		if (c)
			status = stress_exit_worse(status, stress_verdict_exit(stress_verdict_of(c),
									   signo));
	}
	fflush(err);
	if (c) {
		fd = dup(STDOUT_FILENO);
		out = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (!out)	/* no stdout: --json FILE is still written */
			out = fopen("/dev/null", "w");
		if (out) {
			/* Our own copies of stdout and stderr; the closing line to our stderr. */
			struct report_sink k = { .cfg = cfg, .out = out, .err = err,
						 .t0 = wd_t0, .forced = true };

			if (c->run.summary)
				k.sum = *c->run.summary;
			/* KTAP: the end fills the plan with skipped runs. */
			if (!report_sink_begin(&k, 0)) {
				report_sink_run(&k, c);
				/* 3 if --json FILE could not be written. */
				status = report_sink_end(&k, status, signo,
							 cfg->scenarios + c->run.index, not_run);
			}
			fclose(out);
		}
		fflush(err);
	}
#ifdef KC_TSAN
	/*
	 * TSan's _exit() reports every finished thread nobody joined as a
	 * leak: here the controller is stuck or late by definition, so its
	 * workers are abandoned on purpose. Races were reported as they
	 * happened (halt_on_error), so nothing else is lost by this exit.
	 */
	syscall(SYS_exit_group, status);
#endif
	_exit(status);
}

/*
 * The stall limit passed: a failure, unless the host was still starving
 * the run when the watchdog stopped putting it off (STARVED_MAX x W). Then
 * nothing was judged: INCOMPLETE, exit 4, never a FAIL of the code.
 */
static void __attribute__((noreturn)) give_up(struct stress *s, const char *why)
{
	char buf[320];

	if (!probe.starved)
		hard_exit(s, STRESS_EXIT_FAIL, why);
	snprintf(buf, sizeof(buf), "%s, the host starving the run of CPU all along: incomplete",
		 why);
	hard_exit(s, STRESS_EXIT_INCOMPLETE, buf);
}

static void check_run(struct stress *s, double now)
{
	const struct stress_config *cfg = s->run.cfg;
	double w = stress_stall_limit(cfg), stop = stress_stop_limit(cfg), fired;
	unsigned long b = atomic_load_explicit(&beat, memory_order_relaxed);
	int ph = atomic_load(&s->wd.phase), first = -1;
	double idle = 0;
	unsigned int n = 0;
	char why[256];

	if (s != seen_run || b != seen_beat) {
		seen_run = s;
		seen_beat = b;
		beat_at = now;
	}
	fired = atomic_load(&s->wd.fired_at);
	if (!fired && threads_visible(s))
		n = stalled_threads(s, now, w, &first, &idle);
	probe_track(s, now, w, idle > w / 2 || now - beat_at > w / 2 ||
		    (s->wd.deadline && now > s->wd.deadline + w / 2));
	if (fired && now - fired > stop) {
		snprintf(why, sizeof(why), "the run did not end within %.1fs of the watchdog "
			 "failing it", stop);
		hard_exit(s, STRESS_EXIT_FAIL, why);
	}
	if (s->wd.deadline && now > s->wd.deadline + w &&
	    !probe_defer(s, now, w, now - s->wd.deadline - w)) {
		snprintf(why, sizeof(why), "the deadline passed by more than %.1fs (phase: %s)",
			 w, phase_names[ph]);
		give_up(s, why);
	}
	if (now - beat_at > w && !probe_defer(s, now, w, now - beat_at - w)) {
		snprintf(why, sizeof(why), "the controller made no progress for %.1fs (phase: %s)",
			 w, phase_names[ph]);
		give_up(s, why);
	}
	if (!n || probe_defer(s, now, w, idle - w))
		return;
	if (probe.starved) {
		snprintf(why, sizeof(why), "%u thread(s) made no progress for %.1fs (phase: %s)",
			 n, idle, phase_names[ph]);
		give_up(s, why);
	}
	atomic_store(&s->wd.fired_at, now);
	stress_fail_watchdog(s, s->threads[first].selector ? -1 : first,
			     "%u thread(s) made no progress for %.1fs (first: %s %u; phase: %s)%s", n,
			     probe.deferrals ? idle : w, s->threads[first].selector ? "selector" : "cpu",
			     s->threads[first].id, phase_names[ph],
			     probe.deferrals ? ", starved of CPU for part of it" : "");
}

/*
 * SIGINT or SIGTERM pending for the process but not yet handled (0: none).
 * Every thread but the controller blocks them, so the handler runs on the
 * controller, once it gets a CPU: among 8192 spinning threads of equal
 * weight a controller that just ran a long check may wait a minute for
 * its next time slice. The stop limit counts from the signal's arrival,
 * seen here, not from its handler.
 */
static int stop_signal_pending(void)
{
	char line[128];
	unsigned long long mask = 0;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "ShdPnd: %llx", &mask) == 1)
			break;
	fclose(f);
	if (mask & (1ULL << (SIGINT - 1)))
		return SIGINT;
	return mask & (1ULL << (SIGTERM - 1)) ? SIGTERM : 0;
}

static void *watchdog(void *arg)
{
	struct timespec tick = { 0, 50 * 1000 * 1000 };
	double pending_at = 0;		/* when a stop signal was first seen pending */

	(void)arg;
	/* Best effort: a watchdog starved by the load it watches is no watchdog. */
	setpriority(PRIO_PROCESS, syscall(SYS_gettid), -5);
	for (;;) {
		int sig, pending = 0;
		double now, since;

		nanosleep(&tick, NULL);
		now = stress_now();
		sig = stress_signal_number();
		if (!sig) {
			pending = stop_signal_pending();
			pending_at = pending ? (pending_at ? pending_at : now) : 0;
		}
		/* S from the earlier of its arrival (seen pending) and its handler. */
		since = sig ? stress_signalled_at() : pending_at;
		if (sig && pending_at && pending_at < since)
			since = pending_at;
		if ((sig || pending) && now - since > stress_stop_limit(wd_cfg)) {
			char why[128];

			snprintf(why, sizeof(why), "%s was not honoured within %.1fs%s",
				 (sig ? sig : pending) == SIGINT ? "SIGINT" : "SIGTERM",
				 stress_stop_limit(wd_cfg), sig ? "" : " (still pending)");
			if (!sig)
				stress_signal_note_pending(pending);
			pthread_mutex_lock(&watch_lock);
			hard_exit(watched, sig ? stress_signal_status() : STRESS_EXIT_SIGNAL(pending),
				  why);
		}
		pthread_mutex_lock(&watch_lock);
		if (watched)
			check_run(watched, now);
		pthread_mutex_unlock(&watch_lock);
	}
	return NULL;
}

/* Once per process, before any run: the watchdog thread, SIGINT/SIGTERM blocked. */
int stress_watchdog_start(const struct stress_config *cfg)
{
	pthread_attr_t attr;
	pthread_t tid;
	sigset_t old;
	int err;

	wd_cfg = cfg;
	wd_t0 = stress_now();
	stress_signals_block(&old);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 256UL << 10);
	err = pthread_create(&tid, &attr, watchdog, NULL);
	pthread_attr_destroy(&attr);
	stress_signals_restore(&old);
	if (err)
		fprintf(stderr, "stress: cannot start the watchdog thread: %s\n", strerror(err));
	return err ? -1 : 0;
}
