// SPDX-License-Identifier: GPL-2.0
/*
 * The command line, parsed by getopt_long (GNU conventions: --opt VALUE,
 * --opt=VALUE, unique abbreviations, -t1s, -t 1s, combined short flags,
 * "--" ends the options). The engine's options are the table below; every
 * registered scenario adds its own (struct stress_opt, src/opts.h). Any error is
 * one line on stderr and -1 (exit status 2, the caller's job), also for
 * an option that does not apply to what was selected.
 *
 * Adding an engine option: an enum value and a row in options[] (scope:
 * what it needs, see enum opt_scope; its --help section, enum opt_group);
 * a case in apply() only if its value needs code beyond the row's type
 * (opts.h).
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <kcompat/kcompat.h>
#include "cli.h"
#include "config.h"
#include "parse.h"
#include "registry.h"

enum opt_id {
	/* Above every short option character: getopt_long returns these. */
	O_SCENARIO = 256, O_LIST, O_CPUS, O_DURATION, O_SEED, O_BATCH, O_SELECTORS,
	O_INJECT, O_STUTTER, O_REPORT, O_JSON, O_STAT, O_STALL, O_UNTIL_FAIL,
	O_ROUND, O_DESCRIBE, O_VERBOSE, O_HELP, O_VERSION, O_NO_CHECK, O_DUTY,
	O_STEPS, O_NICE, O_ROUNDS, O_REPLAY, O_REPLAY_OUT, O_SHRINK, O_REPLAY_SEARCH,
	O_PCPU_OPS,
	O_RCU,
	O_HOTPLUG,
	O_HELP_MD,
	O_KNOWN, O_FINDINGS_OUT,
	O_LIST_INV,
	O_END,
	O_SCENARIO_OPT = 1024,	/* + index into the scenario option list */
};

/* Where an option applies; one that does not is a usage error. */
enum opt_scope {
	ANY = 0,
	RUN = 1 << 0,		/* a run's shape: a replay file sets it (--replay, --shrink) */
	UNTIL_FAIL = 1 << 1,	/* only with --until-fail */
};

static const char *const report_names[] = { "text", "ktap", "json", NULL };

/* E(name, short, arg, id, scope, --help section (enum opt_group), fields...) */
#define E(n, s, a, i, sc, g, ...)	{ n, s, a, .id = i, .scope = sc, .group = OPT_GROUP_##g, \
				  __VA_ARGS__ }
#define F(field)		OPT_FIELD(struct stress_config, field)

static const struct stress_opt options[] = {
	E("scenario", 's', "NAME", O_SCENARIO, RUN, RUN,
	  .help = "run scenario NAME (repeatable; 'all': every one)."),
	E("list", 0, NULL, O_LIST, ANY, MODES, .help = "list the scenarios and exit."),
	E("list-invariants", 0, NULL, O_LIST_INV, ANY, MODES,
	  .help = "list the invariants a run can fail with (the engine's, each scenario's: "
		  "meaning, spec anchor) and exit."),
	E("cpus", 'c', "N", O_CPUS, RUN, RUN, .type = OPT_UINT, F(nr_cpus), .min = 1,
	  .max = NR_CPUS, .deflt = "256", .help = "virtual CPUs (threads), 1..NR_CPUS."),
	E("duration", 't', "D", O_DURATION, RUN, RUN, .type = OPT_DURATION, F(duration),
	  .help = "run time per scenario: 30s, 5m, 2h, 1d, bare seconds; 0 = until "
		  "interrupted (default: 10s in total)."),
	E("seed", 0, "N", O_SEED, RUN, RUN, .type = OPT_UINT, F(seed), .max = ~0ULL,
	  .help = "seed of every random decision, 0..2^64-1 (default: from the clock; "
		  "always printed)."),
	E("batch", 0, "B", O_BATCH, RUN, RUN, .deflt = "32",
	  .help = "hpcc batch size, a power of two, 2..2^24."),
	E("selectors", 0, "K", O_SELECTORS, RUN, CHECKING, .type = OPT_UINT, F(nr_selectors),
	  .max = STRESS_MAX_SELECTORS,
	  .help = "checker/selector threads, 0..1024 (default 2, or CPUs/256 if more)."),
	E("vcpu-nice", 0, "N", O_NICE, RUN, RUN, .deflt = "0",
	  .help = "vCPU threads lower their priority to nice N, 0..19, or auto (selectors "
		  "get ~1/4 of the CPU)."),
	E("selector-duty", 0, "F", O_DUTY, RUN, CHECKING, .type = OPT_DOUBLE, F(selector_duty),
	  .fmin = 0.01, .fmax = 1, .deflt = "0.05",
	  .help = "fraction of the time each selector may run."),
	E("inject", 0, "SPEC", O_INJECT, RUN, FAULTS, .deflt = "hop=0.01,delay=0.0002,yield=0.0002",
	  .help = "faults between the level-0 add and the carry: hop=P,delay=P,yield=P "
		  "or off."),
	E("pcpu-ops", 0, "MODEL", O_PCPU_OPS, RUN, RUN,
	  .help = "this_cpu ops: owned (a vCPU is run by one thread at a time, no LOCK, as "
		  "in the kernel) or atomic (LOCK-prefixed; threads may share a vCPU) "
		  "(default owned, or $KC_PCPU_OPS)."),
	E("rcu", 0, "FLAVOR", O_RCU, ANY, RUN,
	  .help = "RCU flavor: memb, qsbr, bp (liburcu) or ck-epoch (Concurrency Kit); "
		  "default $KC_RCU_FLAVOR, else memb."),
	E("stutter", 0, "SPEC", O_STUTTER, RUN, CHECKING, .deflt = "250ms-1s",
	  .help = "park every CPU for quiescent checks every D or every MIN-MAX (seeded), "
		  "or off."),
	E("hotplug", 0, "P", O_HOTPLUG, RUN, FAULTS, .deflt = "0.75",
	  .help = "at each quiescent point, with probability P (a plain decimal in "
		  "[0, 1]), 1 to CPUs/16 CPUs go offline (their threads park) or come back; "
		  "or off."),
	E("report", 0, "FMT", O_REPORT, ANY, OUTPUT, .type = OPT_CHOICE, F(report),
	  .choices = report_names, .deflt = "text", .help = "stdout format."),
	E("json", 0, "FILE", O_JSON, ANY, OUTPUT, .type = OPT_STRING, F(json_file),
	  .help = "also write the JSON report to FILE."),
	E("known", 0, "FILE", O_KNOWN, RUN, CHECKING, .type = OPT_STRING, F(known_file),
	  .help = "findings whose signature FILE names (--findings-out's format) are "
		  "counted and the run goes on; only a new one fails it."),
	E("findings-out", 0, "FILE", O_FINDINGS_OUT, RUN, OUTPUT, .type = OPT_STRING,
	  F(findings_file),
	  .help = "write the runs' finding signatures with their hits to FILE."),
	E("stat-interval", 0, "D", O_STAT, RUN, OUTPUT, .type = OPT_DURATION, F(stat_interval),
	  .deflt = "1s", .help = "progress line interval; 0 = none."),
	E("stall-timeout", 0, "D", O_STALL, ANY, CHECKING, .type = OPT_DURATION, F(stall_timeout),
	  .fmin = 0.1,
	  .help = "the watchdog's limit: a thread or the controller without progress for "
		  "D, or a run past its deadline by more than D, is a failure (default: "
		  "30s + 10ms per thread per core)."),
	E("steps", 0, "N", O_STEPS, RUN, RUN, .type = OPT_UINT, F(steps), .min = 1, .max = ~0ULL,
	  .help = "each vCPU stops after N steps; the run ends when all did (default: "
		  "unbounded)."),
	E("until-fail", 0, NULL, O_UNTIL_FAIL, RUN, UNTIL_FAIL, .type = OPT_FLAG, F(until_fail),
	  .help = "repeat with fresh seeds until a failure or --duration (total) ends."),
	E("round", 0, "D", O_ROUND, RUN | UNTIL_FAIL, UNTIL_FAIL, .type = OPT_DURATION, F(round),
	  .fmin = 0.001, .deflt = "2s",
	  .help = "--until-fail: run time of one scenario per round (with --steps: until its "
		  "steps are done, within the total)."),
	E("rounds", 0, "N", O_ROUNDS, RUN | UNTIL_FAIL, UNTIL_FAIL, .type = OPT_UINT, F(rounds),
	  .min = 1, .max = ~0ULL, .help = "--until-fail: stop after N rounds (default: no limit)."),
	E("replay", 0, "FILE", O_REPLAY, ANY, REPLAY, .type = OPT_STRING, F(replay_file),
	  .help = "rerun a replay file serially, exactly (docs/regress.md)."),
	E("replay-out", 0, "FILE", O_REPLAY_OUT, ANY, REPLAY, .type = OPT_STRING, F(replay_out),
	  .help = "where a failure's replay file goes (default ./stress-replay-SEED.txt, "
		  "or -2, -3, ... before .txt: never an existing file); "
		  "with --replay/--shrink: the result."),
	E("replay-search", 0, "N", O_REPLAY_SEARCH, ANY, REPLAY, .type = OPT_UINT, F(replay_search),
	  .max = 1000, .deflt = "8",
	  .help = "serial schedules tried to reproduce a failure, 0..1000."),
	E("shrink", 0, "FILE", O_SHRINK, ANY, REPLAY, .type = OPT_STRING, F(shrink_file),
	  .help = "shrink a replay file: fewer CPUs, injections, operations."),
	E("describe", 0, NULL, O_DESCRIBE, ANY, MODES,
	  .help = "print the tree shape for --cpus/--batch as JSON and exit."),
	E("no-check", 0, NULL, O_NO_CHECK, RUN, MODES, .type = OPT_FLAG, F(no_check),
	  .help = "benchmark mode: no ground truth, no checkers, no stutter."),
	E("verbose", 'v', NULL, O_VERBOSE, ANY, OUTPUT, .type = OPT_FLAG, F(verbose),
	  .help = "more detail (thread-to-core map, ...)."),
	E("help", 'h', NULL, O_HELP, ANY, MODES,
	  .help = "this help, whatever else is given; --help SCENARIO: that scenario's "
		  "options."),
	E("help-markdown", 0, NULL, O_HELP_MD, ANY, MODES,
	  .help = "the option reference as Markdown (docs/stress.md)."),
	E("version", 'V', NULL, O_VERSION, ANY, MODES,
	  .help = "version and the hpcc source it was built from."),
	{ .name = NULL }
};

#define NR_OPTIONS	(sizeof(options) / sizeof(options[0]) - 1)
#define MAX_SC_OPTS	128

/* Every scenario's options, flattened (rebuilt by each parse). */
struct sc_opt_ref {
	const struct scenario *sc;
	const struct stress_opt *opt;
};

struct parse_state {
	struct sc_opt_ref sc_opts[MAX_SC_OPTS];
	unsigned int nr_sc_opts;
	struct option longopts[NR_OPTIONS + MAX_SC_OPTS + 1];
	char shortopts[2 + 3 * NR_OPTIONS + 1];
	/* Given on this command line: how (first spelling, "" = not given). */
	char given[O_END - O_SCENARIO][40];
	bool sc_given[MAX_SC_OPTS];
};

#define HELP_WIDTH	80

static void scenario_help(FILE *out, const struct scenario *sc, bool md)
{
	const struct stress_opt *o;

	if (!sc->opts || !sc->opts[0].name)
		return;
	if (md)
		fprintf(out, "\nScenario `%s` (its options need it selected):\n\n", sc->name);
	else
		fprintf(out, "\nScenario %s (its options need it selected):\n", sc->name);
	for (o = sc->opts; o->name; o++)
		md ? stress_opt_markdown(out, o) : stress_opt_help(out, o, HELP_WIDTH);
}

static const char *const group_names[OPT_GROUP_END] = {
	[OPT_GROUP_NONE] = "ungrouped (a row without its section)",
	[OPT_GROUP_RUN] = "run",
	[OPT_GROUP_CHECKING] = "checking",
	[OPT_GROUP_FAULTS] = "faults",
	[OPT_GROUP_OUTPUT] = "output",
	[OPT_GROUP_UNTIL_FAIL] = "until-fail",
	[OPT_GROUP_REPLAY] = "replay",
	[OPT_GROUP_MODES] = "modes",
};

/* The engine's rows of section @g under its heading; nothing if it has none. */
static void group_help(FILE *out, enum opt_group g, bool md)
{
	bool first = true;
	unsigned int i;

	for (i = 0; i < NR_OPTIONS; i++) {
		if (options[i].group != g)
			continue;
		if (first && md)
			fprintf(out, "%sEngine options, %s:\n\n", g > OPT_GROUP_RUN ? "\n" : "",
				group_names[g]);
		else if (first)
			fprintf(out, "\nOptions, %s:\n", group_names[g]);
		first = false;
		md ? stress_opt_markdown(out, &options[i]) :
		     stress_opt_help(out, &options[i], HELP_WIDTH);
	}
}

/* --help, --help SCENARIO and --help-markdown: all from the tables. */
void stress_usage(FILE *out, const struct stress_config *cfg)
{
	bool md = cfg->help_markdown;
	enum opt_group g;
	unsigned int i;

	if (cfg->help_scenario) {
		scenario_help(out, cfg->help_scenario, false);
		return;
	}
	if (!md)
		fprintf(out, "usage: stress [OPTION]...\n"
			"Stress and check hierarchical per-CPU counters (hpcc) and the mm logic\n"
			"on them. Exit status: 0 pass, 1 an invariant failed, 2 usage error,\n"
			"3 internal error, 4 incomplete (the host starved the run: no verdict),\n"
			"128+N stopped by signal N. Long options take --opt VALUE or\n"
			"--opt=VALUE (or a unique abbreviation); short ones -tVALUE or -t VALUE,\n"
			"flags combined (-vh); \"--\" ends the options.\n");
	for (g = OPT_GROUP_NONE; g < OPT_GROUP_END; g++)
		group_help(out, g, md);
	for (i = 0; i < scenario_count(); i++)
		scenario_help(out, scenario_at(i), md);
}

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
	char msg[1024], esc[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* A user's bytes are shown, never sent to the terminal raw. */
	fprintf(stderr, "stress: %s (try --help)\n", stress_escape(msg, esc, sizeof(esc)));
	return -1;
}

/* Edit distance (insert, delete, substitute, swap neighbours), capped. */
static unsigned int distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	unsigned int d[3][64], *prev2 = d[0], *prev = d[1], *cur = d[2], *t;

	if (la >= 63 || lb >= 63)
		return 99;
	for (j = 0; j <= lb; j++)
		prev[j] = j;
	for (i = 1; i <= la; i++) {
		cur[0] = i;
		for (j = 1; j <= lb; j++) {
			unsigned int c = prev[j - 1] + (a[i - 1] != b[j - 1]);

			if (prev[j] + 1 < c)
				c = prev[j] + 1;
			if (cur[j - 1] + 1 < c)
				c = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < c)
				c = prev2[j - 2] + 1;
			cur[j] = c;
		}
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb];
}

/* "unknown option '--cpu=3'; did you mean '--cpus'?" and its kin. */
static int unknown_long(struct parse_state *ps, const char *arg)
{
	char name[64], list[256] = "";
	const char *eq = strchr(arg + 2, '=');
	size_t len = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
	unsigned int i, best = 99, nr_prefix = 0, d;
	const char *best_name = NULL;

	snprintf(name, sizeof(name), "%.*s", (int)len, arg + 2);
	for (i = 0; ps->longopts[i].name; i++) {
		const char *cand = ps->longopts[i].name;

		if (!strcmp(cand, name))	/* known: then the value was the problem */
			return usage_error("option '--%s' takes no value", name);
		if (len && !strncmp(cand, name, len)) {
			size_t n = strlen(list);

			if (n + strlen(cand) + 5 < sizeof(list))
				snprintf(list + n, sizeof(list) - n, "%s--%s", n ? ", " : "", cand);
			nr_prefix++;
		}
		d = distance(name, cand);
		if (d < best) {
			best = d;
			best_name = cand;
		}
	}
	if (nr_prefix > 1)
		return usage_error("option '--%s' is ambiguous: %s", name, list);
	/* A name with bytes no option has is no typo of one: no suggestion. */
	if (best_name && best <= (len > 6 ? 3 : 2) && stress_printable(name))
		return usage_error("unknown option '%s'; did you mean '--%s'?", arg, best_name);
	return usage_error("unknown option '%s'", arg);
}

static void build_tables(struct parse_state *ps)
{
	unsigned int i, j, n = 0;
	char *s = ps->shortopts;

	memset(ps, 0, sizeof(*ps));
	/* ':' first: a missing argument is reported as ':', not '?'. */
	*s++ = ':';
	for (i = 0; i < NR_OPTIONS; i++) {
		ps->longopts[n++] = (struct option){ options[i].name,
			options[i].arg ? required_argument : no_argument, NULL, options[i].id };
		if (options[i].shortname) {
			*s++ = options[i].shortname;
			if (options[i].arg)
				*s++ = ':';
		}
	}
	*s = 0;
	for (i = 0; i < scenario_count(); i++) {
		const struct scenario *sc = scenario_at(i);

		for (j = 0; sc->opts && sc->opts[j].name && ps->nr_sc_opts < MAX_SC_OPTS; j++) {
			ps->sc_opts[ps->nr_sc_opts] = (struct sc_opt_ref){ sc, &sc->opts[j] };
			ps->longopts[n++] = (struct option){ sc->opts[j].name,
				sc->opts[j].arg ? required_argument : no_argument, NULL,
				O_SCENARIO_OPT + ps->nr_sc_opts };
			ps->nr_sc_opts++;
		}
	}
	ps->longopts[n] = (struct option){ 0 };
}

static const struct stress_opt *engine_opt(int id)
{
	unsigned int i;

	for (i = 0; i < NR_OPTIONS; i++)
		if ((int)options[i].id == id)
			return &options[i];
	return NULL;
}

static const struct stress_opt *short_opt(int c)
{
	unsigned int i;

	for (i = 0; i < NR_OPTIONS; i++)
		if (options[i].shortname && options[i].shortname == c)
			return &options[i];
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

/* The options that need code: the rest is parsed from the table (opts.h). */
static int apply(struct stress_config *cfg, const struct stress_opt *o, const char *name,
		 const char *val, enum stress_action *act)
{
	unsigned long long v;
	char err[160];
	unsigned int i;

	switch ((enum opt_id)o->id) {
	case O_SCENARIO:
		if (!strcmp(val, "all")) {
			for (i = 0; i < scenario_count(); i++)
				add_scenario(cfg, scenario_at(i));
			return 0;
		}
		if (!scenario_find(val))
			return usage_error("%s: unknown scenario '%s' (see --list)", name, val);
		return add_scenario(cfg, scenario_find(val));
	case O_BATCH:
		if (stress_parse_ulong(val, 2, STRESS_MAX_BATCH, &v, err, sizeof(err)))
			goto bad;
		if (v & (v - 1)) {
			snprintf(err, sizeof(err), "%s is not a power of two", val);
			goto bad;
		}
		cfg->batch = v;
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
	case O_INJECT:
		if (stress_parse_inject(val, &cfg->inject, err, sizeof(err)))
			goto bad;
		return 0;
	case O_PCPU_OPS:
		if (kc_pcpu_ops_parse(val, &cfg->pcpu_ops)) {
			snprintf(err, sizeof(err), "'%s' is not owned or atomic", val);
			goto bad;
		}
		return 0;
	case O_STUTTER:
		if (stress_parse_stutter(val, &cfg->stutter, err, sizeof(err)))
			goto bad;
		return 0;
	case O_HOTPLUG:
		if (stress_parse_hotplug(val, &cfg->hotplug, cfg->hotplug_text,
					 sizeof(cfg->hotplug_text), err, sizeof(err)))
			goto bad;
		return 0;
	case O_RCU:
		if (!kc_rcu_flavor_valid(val))
			return usage_error("%s: '%s' is not an RCU flavor (%s)", name, val,
					   KC_RCU_FLAVORS);
		cfg->rcu = val;
		return 0;
	case O_LIST:
		*act = ACT_LIST;
		return 0;
	case O_LIST_INV:
		*act = ACT_LIST_INVARIANTS;
		return 0;
	case O_HELP:
		*act = ACT_HELP;
		return 0;
	case O_HELP_MD:
		*act = ACT_HELP;
		cfg->help_markdown = true;
		return 0;
	case O_VERSION:
		*act = ACT_VERSION;
		return 0;
	case O_DESCRIBE:
		*act = ACT_DESCRIBE;
		return 0;
	case O_REPLAY:
		*act = ACT_REPLAY;
		break;
	case O_SHRINK:
		*act = ACT_SHRINK;
		break;
	default:
		break;
	}
	if (stress_opt_parse(o, cfg, val, err, sizeof(err)))
		goto bad;
	return 0;
bad:
	return usage_error("%s: %s", name, err);
}

static void set_defaults(struct stress_config *cfg)
{
	enum stress_action act;
	unsigned int i;

	memset(cfg, 0, sizeof(*cfg));
	cfg->pcpu_ops = kc_pcpu_ops;	/* KC_PCPU_OPS, else owned */
	cfg->nr_selectors = 2;
	for (i = 0; i < NR_OPTIONS; i++)
		if (options[i].deflt)
			apply(cfg, &options[i], options[i].name, options[i].deflt, &act);
	for (i = 0; i < scenario_count(); i++)
		stress_opt_defaults(scenario_at(i)->opts, scenario_at(i)->opt_cfg);
}

static bool selected(const struct stress_config *cfg, const struct scenario *sc)
{
	unsigned int i;

	for (i = 0; i < cfg->nr_scenarios; i++)
		if (cfg->scenarios[i] == sc)
			return true;
	return false;
}

/* The options that choose what ./stress does: one at most. */
static bool mode_opt(enum opt_id id)
{
	return id == O_LIST || id == O_LIST_INV || id == O_HELP || id == O_HELP_MD || id == O_VERSION || id == O_DESCRIBE ||
	       id == O_REPLAY || id == O_SHRINK;
}

/*
 * What --describe reads: the tree's shape and how it is printed, and a
 * --known file, read and checked as a run reads it (scripts check one
 * before anything runs).
 */
static bool describe_opt(enum opt_id id)
{
	return id == O_DESCRIBE || id == O_CPUS || id == O_BATCH || id == O_VERBOSE ||
	       id == O_RCU || id == O_KNOWN;
}

/* The option that chose @act, for a usage error's line. */
static const char *act_name(enum stress_action act)
{
	return act == ACT_LIST ? "--list" : act == ACT_LIST_INVARIANTS ? "--list-invariants" :
	       act == ACT_VERSION ? "--version" : "--describe";
}

/* Every option given must apply to what runs: otherwise it would be ignored. */
static int check_applicable(struct parse_state *ps, const struct stress_config *cfg,
			    enum stress_action act)
{
	const char *mode = act == ACT_REPLAY ? "--replay" : "--shrink";
	unsigned int i;

	if (act == ACT_HELP)	/* the help, whatever else was given */
		return 0;
	for (i = 0; i < NR_OPTIONS; i++) {
		const char *as = ps->given[options[i].id - O_SCENARIO];

		if (!*as)
			continue;
		if ((act == ACT_LIST || act == ACT_LIST_INVARIANTS || act == ACT_VERSION) &&
		    !mode_opt(options[i].id))
			return usage_error("%s does not apply to %s", as, act_name(act));
		if (act == ACT_DESCRIBE && !describe_opt(options[i].id))
			return usage_error("%s does not apply to --describe (it reads --cpus, "
					   "--batch and --known)", as);
		if ((act == ACT_REPLAY || act == ACT_SHRINK) && (options[i].scope & RUN))
			return usage_error("%s does not apply to %s: the replay file sets the run",
					   as, mode);
		if ((options[i].scope & UNTIL_FAIL) && !cfg->until_fail)
			return usage_error("%s applies only with --until-fail", as);
	}
	for (i = 0; i < ps->nr_sc_opts; i++) {
		const struct sc_opt_ref *r = &ps->sc_opts[i];

		if (!ps->sc_given[i])
			continue;
		if (act == ACT_LIST || act == ACT_LIST_INVARIANTS || act == ACT_VERSION ||
		    act == ACT_DESCRIBE)
			return usage_error("--%s does not apply to %s", r->opt->name, act_name(act));
		if (act == ACT_REPLAY || act == ACT_SHRINK)
			return usage_error("--%s does not apply to %s: the replay file sets the run",
					   r->opt->name, mode);
		if (!selected(cfg, r->sc))
			return usage_error("--%s applies to scenario %s, which is not selected",
					   r->opt->name, r->sc->name);
	}
	return 0;
}

/*
 * --help wins over whatever else is given (docs/stress.md, One mode): a
 * first pass, as getopt reads the line (abbreviations, -vh, values, "--"),
 * that looks for it only. 1: help asked for (*act set, or -1 after a usage
 * error for --help's own SCENARIO), 0: not asked for.
 */
static int help_first(struct parse_state *ps, int argc, char **argv,
		      struct stress_config *cfg, enum stress_action *act)
{
	bool help = false;
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ps->shortopts, ps->longopts, NULL)) != -1) {
		if (c == 'h' || c == O_HELP)
			help = true;
		if (c == O_HELP_MD)
			help = cfg->help_markdown = true;
	}
	if (!help)
		return 0;
	*act = ACT_HELP;
	cfg->rcu = "memb";
	/* A configuration as complete as a run's: every scenario. */
	for (c = 0; c < (int)scenario_count(); c++)
		add_scenario(cfg, scenario_at(c));
	/* --help SCENARIO: the one argument left is that scenario. */
	if (!cfg->help_markdown && optind == argc - 1) {
		cfg->help_scenario = scenario_find(argv[optind]);
		if (!cfg->help_scenario)
			return usage_error("--help: unknown scenario '%s' (see --list)",
					   argv[optind]);
	}
	return 1;
}

int stress_cli_parse(int argc, char **argv, struct stress_config *cfg,
		     enum stress_action *act)
{
	static struct parse_state ps;	/* large; the parser is not thread-safe anyway */
	enum stress_action requested = ACT_RUN;
	char mode[40] = "";	/* the mode option given, as spelled */
	int c, i;

	set_defaults(cfg);
	build_tables(&ps);
	cfg->argv0 = argv[0];
	*act = ACT_RUN;
	c = help_first(&ps, argc, argv, cfg, act);
	if (c)
		return c < 0 ? -1 : 0;
	/* Re-entrant: glibc re-initialises getopt completely at optind 0. */
	optind = 0;
	opterr = 0;
	for (;;) {
		const struct stress_opt *o;
		char *as;

		c = getopt_long(argc, argv, ps.shortopts, ps.longopts, NULL);
		if (c == -1)
			break;
		if (c == '?') {
			/* optopt: 0 unknown/ambiguous long, >= 256 a flag given a value. */
			if (optopt == 0 || optopt >= 256)
				return unknown_long(&ps, argv[optind - 1]);
			return usage_error("unknown option '-%c'", optopt);
		}
		if (c == ':') {
			if (optopt >= O_SCENARIO_OPT) {
				const struct stress_opt *so = ps.sc_opts[optopt - O_SCENARIO_OPT].opt;

				return usage_error("--%s: missing %s", so->name, so->arg);
			}
			o = optopt >= 256 ? engine_opt(optopt) : short_opt(optopt);
			if (optopt >= 256)
				return usage_error("--%s: missing %s", o->name, o->arg);
			return usage_error("-%c: missing %s", optopt, o->arg);
		}
		if (c >= O_SCENARIO_OPT) {
			const struct stress_opt *so = ps.sc_opts[c - O_SCENARIO_OPT].opt;
			char err[160] = "invalid value";

			if (ps.sc_given[c - O_SCENARIO_OPT])
				return usage_error("--%s given twice (each option once)", so->name);

			if (stress_opt_parse(so, ps.sc_opts[c - O_SCENARIO_OPT].sc->opt_cfg, optarg,
					     err, sizeof(err)))
				return usage_error("--%s: %s", so->name, err);
			append_arg(cfg, so->name, optarg);
			ps.sc_given[c - O_SCENARIO_OPT] = true;
			continue;
		}
		o = c < 256 ? short_opt(c) : engine_opt(c);
		as = ps.given[o->id - O_SCENARIO];
		/* Once each, but for the lists (--scenario): a second value is no override. */
		if (*as && o->id != O_SCENARIO)
			return usage_error("%s given twice (each option once)", as);
		if (!*as) {
			if (c < 256)
				snprintf(as, sizeof(ps.given[0]), "-%c", c);
			else
				snprintf(as, sizeof(ps.given[0]), "--%s", o->name);
		}
		if (mode_opt(o->id) && *mode && strcmp(mode, as))
			return usage_error("%s and %s are different modes: pick one", mode, as);
		if (mode_opt(o->id))
			snprintf(mode, sizeof(mode), "%s", as);
		if (apply(cfg, o, as, optarg, &requested))
			return -1;
	}
	/* --help SCENARIO: that scenario's options. */
	if (requested == ACT_HELP && !cfg->help_markdown && optind == argc - 1) {
		cfg->help_scenario = scenario_find(argv[optind]);
		if (!cfg->help_scenario)
			return usage_error("--help: unknown scenario '%s' (see --list)",
					   argv[optind]);
		optind++;
	}
	if (optind < argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	*act = requested;
	cfg->seed_given = *ps.given[O_SEED - O_SCENARIO];
	cfg->duration_given = *ps.given[O_DURATION - O_SCENARIO];
	cfg->selectors_given = *ps.given[O_SELECTORS - O_SCENARIO];
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
	if (check_applicable(&ps, cfg, requested))
		return -1;
	if (!cfg->seed_given)
		cfg->seed = stress_mix((unsigned long long)time(NULL) ^
				       ((unsigned long long)getpid() << 32) ^
				       (unsigned long long)clock());
	/*
	 * The default: 10 s in total. A run shares it among the scenarios;
	 * --until-fail takes it as its total, unless --rounds bounds it
	 * (then every round gives every scenario its --round).
	 */
	if (!cfg->duration_given && cfg->until_fail)
		cfg->duration = cfg->rounds ? 0 : 10.0;
	else if (!cfg->duration_given)
		cfg->duration = cfg->nr_scenarios ? 10.0 / cfg->nr_scenarios : 10.0;
	/*
	 * --until-fail --steps: a round is bounded by its steps, not by the
	 * default --round, which would cut a slow round short and leave it
	 * without a verdict; its time is bounded by the total (or, with
	 * --rounds and no total, by the default total).
	 */
	if (cfg->until_fail && cfg->steps && !*ps.given[O_ROUND - O_SCENARIO])
		cfg->round = cfg->duration > 0 ? cfg->duration : 10.0;
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

/* The engine's option rows (tests/unit/test_stress_bounds.c drives their ranges). */
const struct stress_opt *stress_engine_opts(void)
{
	return options;
}
