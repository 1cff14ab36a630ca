// SPDX-License-Identifier: GPL-2.0
/*
 * The command line: GNU long options (--opt VALUE or --opt=VALUE), a few
 * short aliases, and every registered scenario's own options. Any error
 * is one line on stderr and exit status 2 (the caller's job).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <kcompat/kcompat.h>
#include "stress.h"

enum opt_id {
	O_SCENARIO, O_LIST, O_CPUS, O_DURATION, O_SEED, O_BATCH, O_SELECTORS,
	O_INJECT, O_STUTTER, O_REPORT, O_JSON, O_STAT, O_STALL, O_UNTIL_FAIL,
	O_ROUND, O_DESCRIBE, O_VERBOSE, O_HELP, O_VERSION, O_NO_CHECK, O_DUTY,
	O_STEPS, O_NICE, O_ROUNDS, O_REPLAY, O_REPLAY_OUT, O_SHRINK, O_REPLAY_SEARCH,
	O_RCU,
};

static const struct cli_opt {
	const char *name;
	char shortname;
	const char *arg;
	enum opt_id id;
	const char *help;
} options[] = {
	{ "scenario", 0, "NAME", O_SCENARIO, "run scenario NAME (repeatable; 'all': every one)" },
	{ "list", 0, NULL, O_LIST, "list the scenarios and exit" },
	{ "cpus", 0, "N", O_CPUS, "virtual CPUs (threads), 1..NR_CPUS (default 256)" },
	{ "duration", 't', "D", O_DURATION, "run time per scenario: 30s, 5m, 2h, 1d, bare seconds; 0 = until interrupted (default: 10s in total)" },
	{ "seed", 0, "N", O_SEED, "seed of every random decision (default: from the clock; always printed)" },
	{ "batch", 0, "B", O_BATCH, "hpcc batch size, a power of two, 2..2^24 (default 32)" },
	{ "selectors", 0, "K", O_SELECTORS, "checker/selector threads, 0..1024 (default 2, or CPUs/256 if more)" },
	{ "vcpu-nice", 0, "N", O_NICE, "vCPU threads lower their priority to nice N, 0..19, or auto (selectors get ~1/4 of the CPU); default 0" },
	{ "selector-duty", 0, "F", O_DUTY, "fraction of the time each selector may run, 0.01..1 (default 0.25)" },
	{ "inject", 0, "SPEC", O_INJECT, "faults between the level-0 add and the carry: hop=P,delay=P,yield=P or off (default hop=0.01,delay=0.0002,yield=0.0002)" },
	{ "rcu", 0, "FLAVOR", O_RCU, "RCU flavor: memb, qsbr, bp (liburcu) or ck-epoch (Concurrency Kit); default $KC_RCU_FLAVOR, else memb" },
	{ "stutter", 0, "SPEC", O_STUTTER, "park every CPU for quiescent checks every D or every MIN-MAX (seeded), or off (default 250ms-1s)" },
	{ "report", 0, "FMT", O_REPORT, "stdout format: text, ktap or json (default text)" },
	{ "json", 0, "FILE", O_JSON, "also write the JSON report to FILE" },
	{ "stat-interval", 0, "D", O_STAT, "progress line interval; 0 = none (default 1s)" },
	{ "stall-timeout", 0, "D", O_STALL, "a CPU without progress for D is a failure (default: 30s + 10ms per CPU per core)" },
	{ "steps", 0, "N", O_STEPS, "each vCPU stops after N steps; the run ends when all did (default: unbounded)" },
	{ "until-fail", 0, NULL, O_UNTIL_FAIL, "repeat with fresh seeds until a failure or --duration (total) ends" },
	{ "round", 0, "D", O_ROUND, "--until-fail: run time of one scenario per round (default 2s)" },
	{ "rounds", 0, "N", O_ROUNDS, "--until-fail: stop after N rounds (default: no limit)" },
	{ "replay", 0, "FILE", O_REPLAY, "rerun a replay file serially, exactly (docs/regress.md)" },
	{ "replay-out", 0, "FILE", O_REPLAY_OUT, "where a failure's replay file goes (default ./stress-replay-SEED.txt); with --replay/--shrink: the result" },
	{ "replay-search", 0, "N", O_REPLAY_SEARCH, "serial schedules tried to reproduce a failure, 0..1000 (default 8)" },
	{ "shrink", 0, "FILE", O_SHRINK, "shrink a replay file: fewer CPUs, injections, operations" },
	{ "describe", 0, NULL, O_DESCRIBE, "print the tree shape for --cpus/--batch as JSON and exit" },
	{ "no-check", 0, NULL, O_NO_CHECK, "benchmark mode: no ground truth, no checkers, no stutter" },
	{ "verbose", 'v', NULL, O_VERBOSE, "more detail (thread-to-core map, ...)" },
	{ "help", 'h', NULL, O_HELP, "this help" },
	{ "version", 'V', NULL, O_VERSION, "version and the hpcc source it was built from" },
};

#define NR_OPTIONS (sizeof(options) / sizeof(options[0]))

void stress_usage(FILE *out)
{
	unsigned int i, j;

	fprintf(out, "usage: stress [OPTION]...\n"
		"Stress and check hierarchical per-CPU counters (hpcc) and the mm logic on them.\n"
		"Exit status: 0 pass, 1 an invariant failed, 2 usage error, 3 internal error.\n\n"
		"Options:\n");
	for (i = 0; i < NR_OPTIONS; i++) {
		char left[48];

		snprintf(left, sizeof(left), "%s%c%s--%s%s%s",
			 options[i].shortname ? "-" : "", options[i].shortname ?
			 options[i].shortname : ' ', options[i].shortname ? ", " : " ",
			 options[i].name, options[i].arg ? " " : "",
			 options[i].arg ? options[i].arg : "");
		fprintf(out, "  %-26s %s\n", options[i].shortname ? left : left + 2,
			options[i].help);
	}
	for (i = 0; i < scenario_count(); i++) {
		const struct scenario *sc = scenario_at(i);

		if (!sc->opts || !sc->opts[0].name)
			continue;
		fprintf(out, "\nScenario %s:\n", sc->name);
		for (j = 0; sc->opts[j].name; j++) {
			char left[48];

			snprintf(left, sizeof(left), "--%s%s%s", sc->opts[j].name,
				 sc->opts[j].arg ? " " : "",
				 sc->opts[j].arg ? sc->opts[j].arg : "");
			fprintf(out, "  %-26s %s\n", left, sc->opts[j].help);
		}
	}
}

static int usage_error(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "stress: ");
	fprintf(stderr, fmt, a, b);
	fprintf(stderr, " (try --help)\n");
	return -1;
}

static const struct scenario_opt *find_scenario_opt(const char *name, size_t len)
{
	unsigned int i, j;

	for (i = 0; i < scenario_count(); i++) {
		const struct scenario *sc = scenario_at(i);

		for (j = 0; sc->opts && sc->opts[j].name; j++)
			if (strlen(sc->opts[j].name) == len &&
			    !strncmp(sc->opts[j].name, name, len))
				return &sc->opts[j];
	}
	return NULL;
}

static int add_scenario(struct stress_config *cfg, const struct scenario *sc)
{
	unsigned int i;

	for (i = 0; i < cfg->nr_scenarios; i++)
		if (cfg->scenarios[i] == sc)
			return 0;
	cfg->scenarios[cfg->nr_scenarios++] = sc;
	return 0;
}

static void append_arg(struct stress_config *cfg, const char *name, const char *val)
{
	size_t n = strlen(cfg->scenario_args);
	char *p = cfg->scenario_args + n;
	size_t room = sizeof(cfg->scenario_args) - n;

	if (!val)
		snprintf(p, room, " --%s", name);
	else if (strpbrk(val, " \t'\"$\\`;&|<>*?()"))
		snprintf(p, room, " --%s='%s'", name, val);
	else
		snprintf(p, room, " --%s=%s", name, val);
}

static int apply(struct stress_config *cfg, enum opt_id id, const char *name,
		 const char *val, enum stress_action *act)
{
	unsigned long long v;
	char err[160];
	unsigned int i;

	switch (id) {
	case O_SCENARIO:
		if (!strcmp(val, "all")) {
			for (i = 0; i < scenario_count(); i++)
				add_scenario(cfg, scenario_at(i));
			return 0;
		}
		if (!scenario_find(val))
			return usage_error("--scenario: unknown scenario '%s'%s", val,
					   " (see --list)");
		return add_scenario(cfg, scenario_find(val));
	case O_CPUS:
		if (stress_parse_ulong(val, 1, NR_CPUS, &v, err, sizeof(err)))
			goto bad;
		cfg->nr_cpus = v;
		return 0;
	case O_DURATION:
		if (stress_parse_duration(val, &cfg->duration, err, sizeof(err)))
			goto bad;
		cfg->duration_given = true;
		return 0;
	case O_SEED:
		if (stress_parse_ulong(val, 0, ~0ULL, &v, err, sizeof(err)))
			goto bad;
		cfg->seed = v;
		cfg->seed_given = true;
		return 0;
	case O_BATCH:
		if (stress_parse_ulong(val, 2, STRESS_MAX_BATCH, &v, err, sizeof(err)))
			goto bad;
		if (v & (v - 1)) {
			snprintf(err, sizeof(err), "%s is not a power of two", val);
			goto bad;
		}
		cfg->batch = v;
		return 0;
	case O_ROUNDS:
		if (stress_parse_ulong(val, 1, ~0ULL, &v, err, sizeof(err)))
			goto bad;
		cfg->rounds = v;
		return 0;
	case O_NICE:
		if (!strcmp(val, "auto")) {
			cfg->vcpu_nice = -1;
			return 0;
		}
		if (stress_parse_ulong(val, 0, 19, &v, err, sizeof(err)))
			goto bad;
		cfg->vcpu_nice = v;
		return 0;
	case O_STEPS:
		if (stress_parse_ulong(val, 1, ~0ULL, &v, err, sizeof(err)))
			goto bad;
		cfg->steps = v;
		return 0;
	case O_SELECTORS:
		if (stress_parse_ulong(val, 0, STRESS_MAX_SELECTORS, &v, err, sizeof(err)))
			goto bad;
		cfg->nr_selectors = v;
		cfg->selectors_given = true;
		return 0;
	case O_DUTY: {
		char *end;
		double d = strtod(val, &end);

		if (!*val || *end || !(d >= 0.01 && d <= 1)) {
			snprintf(err, sizeof(err), "'%s' is not a fraction in [0.01, 1]", val);
			goto bad;
		}
		cfg->selector_duty = d;
		return 0;
	}
	case O_INJECT:
		if (stress_parse_inject(val, &cfg->inject, err, sizeof(err)))
			goto bad;
		return 0;
	case O_STUTTER:
		if (stress_parse_stutter(val, &cfg->stutter, err, sizeof(err)))
			goto bad;
		return 0;
	case O_REPORT:
		if (!strcmp(val, "text"))
			cfg->report = REPORT_TEXT;
		else if (!strcmp(val, "ktap"))
			cfg->report = REPORT_KTAP;
		else if (!strcmp(val, "json"))
			cfg->report = REPORT_JSON;
		else
			return usage_error("--report: '%s' is not one of text, ktap, json%s",
					   val, "");
		return 0;
	case O_JSON:
		if (!*val)
			return usage_error("--json: empty file name%s%s", "", "");
		cfg->json_file = val;
		return 0;
	case O_STAT:
		if (stress_parse_duration(val, &cfg->stat_interval, err, sizeof(err)))
			goto bad;
		return 0;
	case O_STALL:
		if (stress_parse_duration(val, &cfg->stall_timeout, err, sizeof(err)))
			goto bad;
		if (cfg->stall_timeout < 0.1) {
			snprintf(err, sizeof(err), "'%s' is below the minimum of 100ms", val);
			goto bad;
		}
		return 0;
	case O_ROUND:
		if (stress_parse_duration(val, &cfg->round, err, sizeof(err)))
			goto bad;
		if (cfg->round <= 0) {
			snprintf(err, sizeof(err), "'%s' must be positive", val);
			goto bad;
		}
		return 0;
	case O_LIST:
		*act = ACT_LIST;
		return 0;
	case O_HELP:
		*act = ACT_HELP;
		return 0;
	case O_VERSION:
		*act = ACT_VERSION;
		return 0;
	case O_DESCRIBE:
		*act = ACT_DESCRIBE;
		return 0;
	case O_UNTIL_FAIL:
		cfg->until_fail = true;
		return 0;
	case O_VERBOSE:
		cfg->verbose = true;
		return 0;
	case O_REPLAY:
	case O_SHRINK:
		if (!*val)
			return usage_error("--%s: empty file name%s", name, "");
		*(id == O_REPLAY ? &cfg->replay_file : &cfg->shrink_file) = val;
		*act = id == O_REPLAY ? ACT_REPLAY : ACT_SHRINK;
		return 0;
	case O_REPLAY_OUT:
		if (!*val)
			return usage_error("--replay-out: empty file name%s%s", "", "");
		cfg->replay_out = val;
		return 0;
	case O_REPLAY_SEARCH:
		if (stress_parse_ulong(val, 0, 1000, &v, err, sizeof(err)))
			goto bad;
		cfg->replay_search = v;
		return 0;
	case O_NO_CHECK:
		cfg->no_check = true;
		return 0;
	case O_RCU:
		if (!kc_rcu_flavor_valid(val))
			return usage_error("--rcu: '%s' is not an RCU flavor (%s)", val,
					   KC_RCU_FLAVORS);
		cfg->rcu = val;
		return 0;
	}
	return 0;
bad:
	return usage_error("--%s: %s", name, err);
}

static void set_defaults(struct stress_config *cfg)
{
	char err[64];

	memset(cfg, 0, sizeof(*cfg));
	cfg->nr_cpus = 256;
	cfg->nr_selectors = 2;
	cfg->batch = 32;
	cfg->stat_interval = 1;
	cfg->round = 2;
	cfg->replay_search = 8;
	cfg->selector_duty = 0.25;
	stress_parse_inject("hop=0.01,delay=0.0002,yield=0.0002", &cfg->inject, err, sizeof(err));
	stress_parse_stutter("250ms-1s", &cfg->stutter, err, sizeof(err));
}

int stress_cli_parse(int argc, char **argv, struct stress_config *cfg,
		     enum stress_action *act)
{
	enum stress_action requested = ACT_RUN;
	int i;

	set_defaults(cfg);
	cfg->argv0 = argv[0];
	*act = ACT_RUN;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *name, *val = NULL, *eq;
		const struct cli_opt *o = NULL;
		const struct scenario_opt *so;
		size_t len;
		unsigned int k;

		if (a[0] != '-' || !a[1])
			return usage_error("unexpected argument '%s'%s", a, "");
		if (a[1] != '-') {
			/* -x, or -x VALUE */
			for (k = 0; k < NR_OPTIONS; k++)
				if (options[k].shortname && options[k].shortname == a[1] && !a[2])
					o = &options[k];
			if (!o)
				return usage_error("unknown option '%s'%s", a, "");
			if (o->arg) {
				if (i + 1 >= argc)
					return usage_error("-%s: missing %s", a + 1, o->arg);
				val = argv[++i];
			}
			if (apply(cfg, o->id, o->name, val, &requested))
				return -1;
			continue;
		}
		name = a + 2;
		eq = strchr(name, '=');
		len = eq ? (size_t)(eq - name) : strlen(name);
		for (k = 0; k < NR_OPTIONS; k++)
			if (strlen(options[k].name) == len && !strncmp(options[k].name, name, len))
				o = &options[k];
		so = o ? NULL : find_scenario_opt(name, len);
		if (!o && !so)
			return usage_error("unknown option '%s'%s", a, "");
		if ((o && !o->arg) || (so && !so->arg)) {
			if (eq) {
				fprintf(stderr, "stress: option '--%.*s' takes no value "
					"(try --help)\n", (int)len, name);
				return -1;
			}
		} else if (eq) {
			val = eq + 1;
		} else {
			if (i + 1 >= argc)
				return usage_error("%s: missing %s", a, o ? o->arg : so->arg);
			val = argv[++i];
		}
		if (o) {
			if (apply(cfg, o->id, o->name, val, &requested))
				return -1;
		} else {
			char err[160] = "invalid value";

			if (so->parse(val, err, sizeof(err)))
				return usage_error("--%s: %s", so->name, err);
			append_arg(cfg, so->name, val);
		}
	}
	*act = requested;
	if (!cfg->rcu) {
		const char *env = getenv(KC_RCU_FLAVOR_ENV);

		if (env && *env && !kc_rcu_flavor_valid(env))
			return usage_error(KC_RCU_FLAVOR_ENV "='%s' is not an RCU flavor (%s)",
					   env, KC_RCU_FLAVORS);
		cfg->rcu = env && *env ? env : "memb";
	}
	if (!cfg->nr_scenarios)
		for (i = 0; i < (int)scenario_count(); i++)
			add_scenario(cfg, scenario_at(i));
	if (!cfg->seed_given)
		cfg->seed = stress_mix((unsigned long long)time(NULL) ^
				       ((unsigned long long)getpid() << 32) ^
				       (unsigned long long)clock());
	if (!cfg->duration_given)
		cfg->duration = cfg->nr_scenarios ? 10.0 / cfg->nr_scenarios : 10.0;
	/* Checks cost O(nr_cpus): more checkers for more CPUs. */
	if (!cfg->selectors_given && cfg->nr_cpus / 256 > cfg->nr_selectors)
		cfg->nr_selectors = cfg->nr_cpus / 256;
	if (cfg->no_check) {
		cfg->nr_selectors = 0;
		cfg->stutter.min = cfg->stutter.max = 0;
		snprintf(cfg->stutter.text, sizeof(cfg->stutter.text), "off");
	}
	return 0;
}
