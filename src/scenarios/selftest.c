// SPDX-License-Identifier: GPL-2.0
/*
 * selftest: exercises the engine's failure paths for the CLI tests
 * (reproducer line, KTAP "not ok", JSON failures, watchdog). Registered
 * only when STRESS_SELFTEST is set in the environment, so it never shows
 * in --list or "all" otherwise.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "scenario.h"

static unsigned long fail_after;	/* a vCPU fails after this many steps; 0: never */
static bool stall;			/* vCPU 0 stops making progress */

static int parse_fail_after(const char *val, char *err, size_t errlen)
{
	char *end;

	fail_after = strtoul(val, &end, 10);
	if (!*val || *end || !fail_after) {
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

static const struct scenario_opt selftest_opts[] = {
	{ "selftest-fail-after", "N", "selftest: vCPU 0 fails an invariant after N steps",
	  parse_fail_after },
	{ "selftest-stall", NULL, "selftest: vCPU 0 stops making progress", parse_stall },
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
	while (stall && !stress_stopping(s)) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		nanosleep(&ts, NULL);
	}
}

static void selftest_select_step(struct stress *s, unsigned int id, struct stress_rng *r)
{
	stress_count_checks(s, 1);
	stress_margin(s, "selftest", (double)stress_rng_below(r, 10), 10);
}

static void selftest_teardown(struct stress *s)
{
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
