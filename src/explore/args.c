// SPDX-License-Identifier: GPL-2.0
/*
 * The explorer's options as rows of the engine's kind (src/opts.h): each
 * parsed into struct xp_args by stress_opt_parse(), with its range, and
 * --help and docs/explore.md's option list generated from the same rows.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "opts.h"
#include "args.h"
#include <kcompat/ctx.h>
#include "memmodel.h"
#include "mm/oom_algo.h"

enum {
	XO_ROW,			/* stress_opt_parse() does it all */
	XO_HARNESS,
	XO_SIZES,
	XO_SLEEP,
	XO_FIBER_SWITCH,
	XO_BATCH,
	XO_ALGO,
};

static const char *const reductions[] = { "none", "sleep", "dpor", NULL };
static const char *const switches[] = { "asm", "ucontext", NULL };
/*
 * The oom harness's selections, by the names oom_algo_parse() takes (this
 * file is also linked without lib/mm: the names from their header).
 */
static const char *const algos[OOM_NR_ALGOS + 1] = OOM_ALGO_NAMES;

#define F(field)	OPT_FIELD(struct xp_args, field)
#define U(lo, hi)	.type = OPT_UINT, .min = (lo), .max = (hi)

static const struct stress_opt rows[] = {
	{ "harness", 0, "NAME", OPT_CODE, .id = XO_HARNESS, .deflt = "counter_storm",
	  .help = "The harness to explore:" },
	{ "litmus", 0, "FILE", OPT_STRING, F(cfg.litmus),
	  .help = "litmus: the program (scripts/litmus translates a test)." },
	{ "cpus", 0, "N", U(2, 4), F(cfg.cpus), .deflt = "2", .help = "Adder vCPUs." },
	{ "adds", 0, "N", U(1, XP_MAX_ADDS), F(cfg.adds), .deflt = "3",
	  .help = "Adds each adder makes." },
	{ "readers", 0, "N", U(0, 2), F(cfg.readers), .deflt = "1",
	  .help = "Reader fibers." },
	{ "reads", 0, "N", U(0, 16), F(cfg.reads), .deflt = "1",
	  .help = "Steps each reader makes." },
	{ "batch", 0, "N", U(2, 1UL << 20), F(cfg.batch), .id = XO_BATCH, .deflt = "2",
	  .help = "The hpcc batch, a power of two." },
	{ "sizes", 0, "A,B,...", OPT_CODE, .id = XO_SIZES,
	  .help = "Add sizes, 1..8 decimal sizes each within +-2^52 (default: batch-1, -batch,"
		  " batch+1, 2*batch)." },
	{ "bound", 0, "K", OPT_INT, F(cfg.bound), .smin = -1, .smax = 15, .deflt = "2",
	  .help = "Preemption bound, -1 for none." },
	{ "reduction", 0, "R", OPT_CHOICE, F(cfg.reduction), .choices = reductions,
	  .deflt = "none", .help = "How the search cuts equivalent schedules: every schedule,"
	  " sleep sets or DPOR." },
	{ "sleep", 0, NULL, OPT_CODE, .id = XO_SLEEP, .help = "The same as --reduction sleep." },
	{ "memory-model", 0, "M", OPT_CHOICE, F(model), .choices = xp_mm_names, .deflt = "sc",
	  .help = "Store buffers whose flushes are scheduled under tso and pso (reduction none"
		  " or sleep)." },
	{ "budget", 0, "N", U(1, 1UL << 40), F(cfg.budget),
	  .help = "Stop after N executions (\"cut by budget\": no verdict, exit 4)." },
	{ "pct", 0, NULL, OPT_FLAG, F(cfg.pct), .help = "PCT instead of the enumeration." },
	{ "depth", 0, "D", U(1, 16), F(cfg.pct_depth), .deflt = "3",
	  .help = "PCT: the bug depth." },
	{ "runs", 0, "N", U(1, 1UL << 40), F(cfg.pct_runs), .deflt = "1000",
	  .help = "PCT: executions." },
	{ "seed", 0, "S", U(0, 1UL << 62), F(cfg.seed), .deflt = "1", .help = "PCT: the seed." },
	{ "tasks", 0, "N", U(2, XP_OOM_MAX_TASKS), F(cfg.tasks), .deflt = "2",
	  .help = "oom: initial tasks." },
	{ "forks", 0, "0|1", U(0, 1), F(cfg.forks), .deflt = "1",
	  .help = "oom: a fiber that forks and exits a task." },
	{ "algo", 0, "NAME", OPT_CHOICE, F(algo), .choices = algos, .id = XO_ALGO,
	  .deflt = "bounded", .help = "oom: the selection." },
	{ "plant", 0, NULL, OPT_FLAG, F(cfg.plant), .help = "Plant a lost update in the harness"
	  " (the explorer's self-test); a pattern: drop its barrier." },
	{ "save", 0, "FILE", OPT_STRING, F(save),
	  .help = "On a failure, write the shrunk schedule to FILE." },
	{ "replay-schedule", 0, "FILE", OPT_STRING, F(replay),
	  .help = "Run one schedule file and report." },
	{ "json", 0, "FILE", OPT_STRING, F(json), .help = "The report as JSON too." },
	{ "fiber-switch", 0, "S", OPT_CHOICE, F(fiber_switch), .choices = switches,
	  .id = XO_FIBER_SWITCH, .help = "How fibers switch (default asm on x86-64 without a"
	  " sanitizer; ucontext to compare)." },
	{ "timeout", 0, "S", U(0, 1UL << 30), F(timeout), .help = "No verdict (exit 4) after S"
	  " seconds; 0: none (default 3600, 60 for --replay-schedule)." },
	{ "list-harnesses", 0, NULL, OPT_FLAG, F(list), .help = "List the harnesses and exit." },
	{ "help-markdown", 0, NULL, OPT_FLAG, F(help_markdown),
	  .help = "This option list as Markdown (docs/explore.md) and exit." },
	{ "help", 'h', NULL, OPT_FLAG, F(help), .help = "This help and exit." },
	{ 0 },
};

#define NR_ROWS	(sizeof(rows) / sizeof(rows[0]) - 1)
/* getopt_long's value of row i: above every character getopt returns. */
#define XO_VAL	256

/* --harness's text: the registered harnesses, from the registry. */
static void harness_help(char *buf, size_t len, const char *head)
{
	const struct xp_harness *h;
	unsigned int i;
	size_t n = snprintf(buf, len, "%s", head);

	for (i = 0; (h = xp_harness_at(i)) && n < len; i++)
		n += snprintf(buf + n, len - n, "%s %s%s%s%s", i ? "," : "", h->name,
			      h->alias ? " (" : "", h->alias ? h->alias : "", h->alias ? ")" : "");
	if (n < len)
		snprintf(buf + n, len - n, ".");
}

/* A ranged row's text with its range, from the row itself. */
static void range_help(const struct stress_opt *o, char *buf, size_t len)
{
	if (o->type == OPT_INT)
		snprintf(buf, len, "%s Range: %lld..%lld.", o->help, o->smin, o->smax);
	else
		snprintf(buf, len, "%s Range: %llu..%llu.", o->help, o->min, o->max);
}

static void usage(FILE *f, bool md)
{
	char text[512];
	unsigned int i;

	if (!md)
		fprintf(f, "usage: explore [options]\n");
	for (i = 0; i < NR_ROWS; i++) {
		struct stress_opt o = rows[i];

		if (o.id == XO_HARNESS)
			harness_help(text, sizeof(text), o.help);
		else if (o.type == OPT_UINT || o.type == OPT_INT)
			range_help(&o, text, sizeof(text));
		if (o.id == XO_HARNESS || o.type == OPT_UINT || o.type == OPT_INT)
			o.help = text;
		if (md)
			stress_opt_markdown(f, &o);
		else
			stress_opt_help(f, &o, 80);
	}
}

int xp_parse_sizes(const char *s, struct xp_cfg *cfg)
{
	char *end;
	long v;

	cfg->nr_sizes = 0;
	while (*s) {
		if (cfg->nr_sizes >= XP_MAX_ADDS || (*s != '-' && (*s < '0' || *s > '9')))
			return -1;
		errno = 0;
		v = strtol(s, &end, 10);
		if (errno || end == s || (*end && *end != ',') || v < -XP_SIZE_MAX ||
		    v > XP_SIZE_MAX)
			return -1;
		cfg->sizes[cfg->nr_sizes++] = v;
		s = *end ? end + 1 : end;
		if (*end && !*s)
			return -1;
	}
	return cfg->nr_sizes ? 0 : -1;
}

/* The rows' code: 0, or -1 with @err filled. */
static int apply_code(const struct stress_opt *o, struct xp_args *a, const char *val,
		      char *err, size_t errlen)
{
	const struct xp_harness *h;

	switch (o->id) {
	case XO_HARNESS:
		h = xp_harness_find(val);
		if (!h)
			return snprintf(err, errlen, "unknown harness (see --list-harnesses)"), -1;
		a->cfg.harness = h->name;
		return 0;
	case XO_SIZES:
		if (xp_parse_sizes(val, &a->cfg))
			return snprintf(err, errlen, "1..%d decimal sizes, each within +-2^52",
					XP_MAX_ADDS), -1;
		return 0;
	case XO_SLEEP:
		a->cfg.reduction = XP_RED_SLEEP;
		return 0;
	case XO_FIBER_SWITCH:
		if (a->fiber_switch == 0 && !xp_ctx_asm_available())
			return snprintf(err, errlen, "ucontext only here"), -1;
		xp_ctx_use_ucontext = a->fiber_switch == 1;
		return 0;
	case XO_BATCH:
		if (a->cfg.batch & (a->cfg.batch - 1))
			return snprintf(err, errlen, "not a power of two"), -1;
		return 0;
	case XO_ALGO:
		a->cfg.algo = algos[a->algo];
		return 0;
	}
	return 0;
}

static int apply(const struct stress_opt *o, struct xp_args *a, const char *val)
{
	char err[160];

	if (stress_opt_parse(o, a, val, err, sizeof(err)) ||
	    (o->id != XO_ROW && apply_code(o, a, val, err, sizeof(err)))) {
		fprintf(stderr, "explore: bad --%s '%s': %s\n", o->name, val ? val : "", err);
		return -1;
	}
	return 0;
}

static void defaults(struct xp_args *a)
{
	unsigned int i;

	memset(a, 0, sizeof(*a));
	a->timeout = -1;
	stress_opt_defaults(rows, a);
	for (i = 0; i < NR_ROWS; i++)
		if (rows[i].id != XO_ROW && rows[i].deflt)
			apply(&rows[i], a, rows[i].deflt);
}

static int print_help(const struct xp_args *a)
{
	const struct xp_harness *h;
	unsigned int i;

	if (a->help)
		usage(stdout, false);
	else if (a->help_markdown)
		usage(stdout, true);
	else
		for (i = 0; (h = xp_harness_at(i)); i++)
			printf("%s\n", h->name);
	return XP_ACT_HELP;
}

int xp_args_parse(int argc, char **argv, struct xp_args *a)
{
	struct option longopts[NR_ROWS + 1];
	unsigned int i;
	int o;

	for (i = 0; i < NR_ROWS; i++)
		longopts[i] = (struct option){ rows[i].name,
			rows[i].arg ? required_argument : no_argument, NULL, XO_VAL + (int)i };
	longopts[NR_ROWS] = (struct option){ 0 };
	defaults(a);
	opterr = 0;
	while ((o = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		o = o == 'h' ? XO_VAL + (int)NR_ROWS - 1 : o;
		if (o < XO_VAL || o >= XO_VAL + (int)NR_ROWS) {
			fprintf(stderr, "explore: bad option '%s' (see --help)\n", argv[optind - 1]);
			return -1;
		}
		if (apply(&rows[o - XO_VAL], a, optarg))
			return -1;
		a->batch_given |= rows[o - XO_VAL].id == XO_BATCH;
		a->algo_given |= rows[o - XO_VAL].id == XO_ALGO;
	}
	if (optind < argc) {
		fprintf(stderr, "explore: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	if (a->help || a->help_markdown || a->list)
		return print_help(a);
	return a->replay ? XP_ACT_REPLAY : XP_ACT_SEARCH;
}
