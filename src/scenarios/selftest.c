// SPDX-License-Identifier: GPL-2.0
/*
 * selftest: exercises the engine's failure paths for the CLI tests
 * (reproducer line, KTAP "not ok", JSON failures, watchdog). Registered
 * only when STRESS_SELFTEST is set in the environment, so it never shows
 * in --list or "all" otherwise.
 */
#include <ctype.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "scenario.h"

static unsigned long fail_after;	/* a vCPU fails after this many steps; 0: never */
static bool stall;			/* vCPU 0 stops making progress */
static bool late_resume;		/* vCPU 0 resumes from its first park last */
static atomic_uint nr_resumed;		/* the other workers through their first resume */

/*
 * --selftest-hang WHERE: a deterministic hang for the watchdog tests
 * (docs/stress.md). Nothing here waits for a time to pass: each hang
 * lasts forever (until the watchdog ends the process), or until a signal.
 */
enum hang { HANG_NONE, HANG_STEP, HANG_REPLAY_STEP, HANG_START, HANG_START_UNTIL_SIGNAL,
	    HANG_START_SLOW, HANG_QUIESCENT };
static const char *const hang_names[] = {
	"none", "step", "replay-step", "start", "start-until-signal", "start-slow", "quiescent",
};
static enum hang hang;

static int parse_fail_after(const char *val, char *err, size_t errlen)
{
	char *end;

	fail_after = strtoul(val, &end, 10);
	if (!isdigit((unsigned char)*val) || *end || !fail_after) {
		snprintf(err, errlen, "'%s' is not a positive integer", val);
		return -1;
	}
	return 0;
}

static int parse_stall(const char *val, char *err, size_t errlen)
{
	stall = true;
	return 0;
}

static int parse_starved(const char *val, char *err, size_t errlen)
{
	stress_wd_fake_starved = true;
	return 0;
}

static int parse_late_resume(const char *val, char *err, size_t errlen)
{
	late_resume = true;
	return 0;
}

static int parse_hang(const char *val, char *err, size_t errlen)
{
	int i = stress_opt_choice(val, hang_names, sizeof(hang_names) / sizeof(hang_names[0]),
				  err, errlen);

	if (i < 0)
		return -1;
	hang = i;
	return 0;
}

static void nap(void)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };

	nanosleep(&ts, NULL);
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
	if (where == STRESS_HOOK_RESUMED && late_resume)
		resumed(s, arg);
	if (where == STRESS_HOOK_THREAD_START && arg == 1 && hang == HANG_START) {
		say("controller hangs before creating thread 1");
		for (;;)
			nap();
	}
	if (where == STRESS_HOOK_THREAD_START && arg == 1 && hang == HANG_START_UNTIL_SIGNAL) {
		say("controller blocked before creating thread 1 until a signal");
		while (!stress_interrupted())
			nap();
	}
	/* Alive (a heartbeat per thread) but at least 10 ms per thread: only a deadline stops it. */
	if (where == STRESS_HOOK_THREAD_START && hang == HANG_START_SLOW)
		nap();
	if (where == STRESS_HOOK_QUIESCENT && hang == HANG_QUIESCENT) {
		say("controller hangs in a stutter, every worker parked");
		for (;;)
			nap();
	}
}

static const struct scenario_opt selftest_opts[] = {
	{ "selftest-fail-after", "N", "selftest: vCPU 0 fails an invariant after N steps",
	  parse_fail_after },
	{ "selftest-stall", NULL, "selftest: vCPU 0 stops making progress", parse_stall },
	{ "selftest-starved", NULL, "selftest: the watchdog finds the run starved of CPU "
	  "whenever it looks", parse_starved },
	{ "selftest-late-resume", NULL, "selftest: vCPU 0 wakes from its first park last, "
	  "then fails deliberately", parse_late_resume },
	{ "selftest-hang", "WHERE",
	  "selftest: hang forever: step (vCPU 0, deaf to stop), replay-step (the same in a serial "
	  "replay only), start (the controller, before thread 1), start-until-signal, start-slow "
	  "(10 ms per thread created), quiescent (the controller, in a stutter)", parse_hang },
	{ NULL, NULL, NULL, NULL },
};

struct selftest {
	unsigned long steps;	/* vCPU 0 only */
};

static int selftest_setup(struct stress *s)
{
	struct selftest *st = calloc(1, sizeof(*st));

	if (!st)
		return -1;
	stress_set_priv(s, st);
	atomic_store(&nr_resumed, 0);
	stress_hook = hang >= HANG_START || late_resume ? selftest_hook : NULL;
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
	if (fail_after && st->steps == fail_after)
		stress_fail(s, "selftest", 0, "deliberate failure after %lu steps (value %ld)",
			    st->steps, v);
	while (stall && !stress_stopping(s))
		nap();
	if (hang == HANG_STEP || (hang == HANG_REPLAY_STEP && stress_serial(s))) {
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
	free(stress_priv(s));
	stress_set_priv(s, NULL);
}

static const struct scenario selftest = {
	.name = "selftest",
	.summary = "engine self-test (only with STRESS_SELFTEST=1)",
	.opts = selftest_opts,
	.setup = selftest_setup,
	.cpu_step = selftest_cpu_step,
	.select_step = selftest_select_step,
	.teardown = selftest_teardown,
};

static void __attribute__((constructor)) selftest_register(void)
{
	if (getenv("STRESS_SELFTEST"))
		scenario_register(&selftest);
}
