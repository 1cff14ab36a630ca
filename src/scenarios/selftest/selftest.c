// SPDX-License-Identifier: GPL-2.0
/*
 * selftest: exercises the engine's failure paths for the CLI tests
 * (reproducer line, KTAP "not ok", JSON failures, watchdog). Registered
 * only when STRESS_SELFTEST is set in the environment, so it never shows
 * in --list or "all" otherwise.
 */
#include <ctype.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "scenario.h"

/* Options (set before setup). */
static struct selftest_cfg {
	unsigned long fail_after;	/* a vCPU fails after this many steps; 0: never */
	const char *fail_as;		/* ... with this invariant (default "selftest") */
	unsigned long known_after;	/* from this step on, every step fails another way */
	bool stall;			/* vCPU 0 stops making progress */
	bool starved;			/* the watchdog finds every run starved */
	bool late_resume;		/* vCPU 0 resumes from its first park last */
	bool hold_resume;		/* vCPU 0 never finishes its first resume */
	bool idle;			/* every vCPU but 0 makes no step */
	bool busy_setup;		/* setup and teardown each use BUSY_S of CPU */
	int hang;			/* enum hang */
} cfg;
static atomic_uint nr_resumed;		/* the other workers through their first resume */

/*
 * --selftest-hang WHERE: a deterministic hang for the watchdog tests
 * (docs/stress.md). Nothing here waits for a time to pass: each hang
 * lasts forever (until the watchdog ends the process), or until a signal.
 */
enum hang { HANG_NONE, HANG_STEP, HANG_REPLAY_STEP, HANG_START, HANG_START_UNTIL_SIGNAL,
	    HANG_START_SLOW, HANG_START_ALIVE, HANG_START_DEAF, HANG_QUIESCENT };
static const char *const hang_names[] = {
	"none", "step", "replay-step", "start", "start-until-signal", "start-slow", "start-alive",
	"start-deaf", "quiescent", NULL,
};

static void nap(void)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

/*
 * --selftest-busy-setup: the scenario's setup and its teardown each use
 * this much CPU time of the controller's thread (its CPU clock, so the
 * amount does not depend on the load): CPU outside the run phase, which
 * the run's run_cpu_s must leave out.
 */
#define BUSY_S	0.05

static double thread_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void busy(void)
{
	double end = thread_cpu_s() + BUSY_S;

	while (thread_cpu_s() < end)
		;
}

static void say(const char *what)
{
	fprintf(stderr, "selftest: %s\n", what);
	fflush(stderr);
}

/*
 * --selftest-late-resume: woken from its first park, vCPU 0 waits (holding
 * no vCPU) until every other worker has woken from that park too, then
 * ends the run with a deliberate failure. The engine's resume must not
 * need a woken worker to run before the others can wake: with a shared
 * mutex re-taken on wake-up this waits until the watchdog ends the run.
 */
static void resumed(struct stress *s, unsigned int worker)
{
	static __thread bool counted;
	unsigned int others = stress_nr_cpus(s) + stress_nr_selectors(s) - 1;

	if (counted)
		return;
	counted = true;
	if (!worker && cfg.hold_resume) {
		say("vCPU 0 woke from its first park and holds there until the run stops");
		while (!stress_stopping(s))
			nap();
		return;
	}
	if (worker) {
		atomic_fetch_add(&nr_resumed, 1);
		return;
	}
	say("vCPU 0 woke from its first park and waits for every other worker to wake");
	while (atomic_load(&nr_resumed) < others && !stress_stopping(s))
		nap();
	if (!stress_stopping(s))
		stress_fail(s, "selftest", 0, "late resume: the %u other workers woke while vCPU 0 "
			    "held back after its own wake-up", others);
}

/* The controller's hooks, and the workers' (scenario.h). */
static void selftest_hook(struct stress *s, enum stress_hook where, unsigned int arg)
{
	if (where == STRESS_HOOK_RESUMED && (cfg.late_resume || cfg.hold_resume))
		resumed(s, arg);
	if (where == STRESS_HOOK_THREAD_START && arg == 1 && cfg.hang == HANG_START) {
		say("controller hangs before creating thread 1");
		for (;;)
			nap();
	}
	if (where == STRESS_HOOK_THREAD_START && arg == 1 && cfg.hang == HANG_START_UNTIL_SIGNAL) {
		say("controller blocked before creating thread 1 until a signal");
		while (!stress_interrupted())
			nap();
	}
	/* Alive (a heartbeat per thread) but at least 10 ms per thread: only a deadline stops it. */
	if (where == STRESS_HOOK_THREAD_START && cfg.hang == HANG_START_SLOW)
		nap();
	/* Alive (a heartbeat every nap) but never done, deadline or not: the watchdog's deadline rule. */
	if (where == STRESS_HOOK_THREAD_START && arg == 1 && cfg.hang == HANG_START_ALIVE) {
		say("controller stays alive before creating thread 1, past any deadline");
		for (;;) {
			stress_watch_beat();
			nap();
		}
	}
	/* The same, SIGINT/SIGTERM blocked: a signal stays pending, its handler never runs. */
	if (where == STRESS_HOOK_THREAD_START && arg == 1 && cfg.hang == HANG_START_DEAF) {
		sigset_t set;

		sigemptyset(&set);
		sigaddset(&set, SIGINT);
		sigaddset(&set, SIGTERM);
		pthread_sigmask(SIG_BLOCK, &set, NULL);
		say("controller stays alive before creating thread 1, deaf to signals");
		for (;;) {
			stress_watch_beat();
			nap();
		}
	}
	/* --selftest-idle: a run whose window sees only vCPU 0's steps (the minimum's tests). */
	if (where == STRESS_HOOK_WORKER_GO && cfg.idle && arg && arg < stress_nr_cpus(s))
		while (!stress_stopping(s))
			nap();
	if (where == STRESS_HOOK_QUIESCENT && cfg.hang == HANG_QUIESCENT) {
		say("controller hangs in a stutter, every worker parked");
		for (;;)
			nap();
	}
}

static const struct stress_opt selftest_opts[] = {
	{ "selftest-fail-after", .arg = "N", .type = OPT_UINT,
	  OPT_FIELD(struct selftest_cfg, fail_after), .min = 1, .max = ~0UL,
	  .help = "vCPU 0 fails an invariant after N steps." },
	{ "selftest-fail-as", .arg = "NAME", .type = OPT_STRING,
	  OPT_FIELD(struct selftest_cfg, fail_as),
	  .help = "--selftest-fail-after's invariant (default selftest): an undeclared "
		  "one is an internal error." },
	{ "selftest-known-after", .arg = "N", .type = OPT_UINT,
	  OPT_FIELD(struct selftest_cfg, known_after), .min = 1, .max = ~0UL,
	  .help = "from step N on, every step of vCPU 0 fails a second signature "
		  "(selftest/contract/selftest_known): the --known tests." },
	{ "selftest-stall", .type = OPT_FLAG, OPT_FIELD(struct selftest_cfg, stall),
	  .help = "vCPU 0 stops making progress." },
	{ "selftest-starved", .type = OPT_FLAG, OPT_FIELD(struct selftest_cfg, starved),
	  .help = "the watchdog finds the run starved of CPU whenever it looks." },
	{ "selftest-late-resume", .type = OPT_FLAG, OPT_FIELD(struct selftest_cfg, late_resume),
	  .help = "vCPU 0 wakes from its first park last, then fails deliberately." },
	{ "selftest-hold-resume", .type = OPT_FLAG, OPT_FIELD(struct selftest_cfg, hold_resume),
	  .help = "vCPU 0 holds in its first resume (no vCPU) until the run stops." },
	{ "selftest-idle", .type = OPT_FLAG, OPT_FIELD(struct selftest_cfg, idle),
	  .help = "every vCPU but 0 waits, from its start, until the run stops (no step)." },
	{ "selftest-busy-setup", .type = OPT_FLAG, OPT_FIELD(struct selftest_cfg, busy_setup),
	  .help = "setup and teardown each use 50 ms of CPU (outside the run's run_cpu_s)." },
	{ "selftest-hang", .arg = "WHERE", .type = OPT_CHOICE, OPT_FIELD(struct selftest_cfg, hang),
	  .choices = hang_names,
	  .help = "hang forever: step (vCPU 0, deaf to stop), replay-step (the same in a "
		  "serial replay only), start (the controller, before thread 1), "
		  "start-until-signal, start-slow (10 ms per thread created), start-alive (the "
		  "controller, before thread 1, with a heartbeat), start-deaf (the same, "
		  "SIGINT/SIGTERM blocked), quiescent (the controller, "
		  "in a stutter)." },
	{ .name = NULL }
};

static const struct stress_invariant selftest_invariants[] = {
	STRESS_INVARIANT("selftest",
			 "the engine's own checks of itself: a deliberate failure, a late resume",
			 "docs/spec/stress.md#stress-exit"),
	{ .name = NULL }
};

struct selftest {
	unsigned long steps;	/* vCPU 0 only */
};

static int selftest_setup(struct stress *s)
{
	struct selftest *st = calloc(1, sizeof(*st));

	if (!st)
		return -1;
	if (cfg.busy_setup)
		busy();
	stress_set_priv(s, st);
	atomic_store(&nr_resumed, 0);
	stress_wd_fake_starved = cfg.starved;
	stress_hook = cfg.hang >= HANG_START || cfg.late_resume || cfg.hold_resume || cfg.idle ?
		      selftest_hook : NULL;
	return 0;
}

static void selftest_cpu_step(struct stress *s, unsigned int cpu, struct stress_rng *r)
{
	struct selftest *st = stress_priv(s);
	long v = (long)stress_rng_below(r, 100);

	stress_trace(s, cpu, "selftest-step", cpu, v);
	if (cpu)
		return;
	st->steps++;
	if (cfg.known_after && st->steps >= cfg.known_after)
		stress_fail_fn(s, STRESS_CONTRACT, "selftest", "selftest_known", 0,
			       "deliberate second finding at step %lu", st->steps);
	if (cfg.fail_after && st->steps == cfg.fail_after)
		stress_fail(s, cfg.fail_as ? cfg.fail_as : "selftest", 0,
			    "deliberate failure after %lu steps (value %ld)",
			    st->steps, v);
	while (cfg.stall && !stress_stopping(s))
		nap();
	if (cfg.hang == HANG_STEP || (cfg.hang == HANG_REPLAY_STEP && stress_serial(s))) {
		say("vCPU 0 hangs in its step");
		for (;;)
			nap();
	}
}

static void selftest_select_step(struct stress *s, unsigned int id, struct stress_rng *r)
{
	stress_count_checks(s, 1);
	stress_margin(s, "selftest", (double)stress_rng_below(r, 10), 10);
}

static void selftest_teardown(struct stress *s)
{
	stress_hook = NULL;
	if (cfg.busy_setup)
		busy();
	free(stress_priv(s));
	stress_set_priv(s, NULL);
}

static const struct scenario selftest = {
	.name = "selftest",
	.summary = "engine self-test (only with STRESS_SELFTEST=1)",
	.invariants = selftest_invariants,
	.opts = selftest_opts,
	.opt_cfg = &cfg,
	.setup = selftest_setup,
	.cpu_step = selftest_cpu_step,
	.select_step = selftest_select_step,
	.teardown = selftest_teardown,
};

static void __attribute__((constructor)) selftest_register(void)
{
	if (getenv("STRESS_SELFTEST"))
		scenario_register(&selftest);
	else
		scenario_declare(&selftest);
}
