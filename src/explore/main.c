// SPDX-License-Identifier: GPL-2.0
/*
 * explore: systematic schedule exploration of a harness (docs/explore.md).
 * Prints KTAP; exit 0 when no execution failed (or a replayed schedule
 * did not reproduce), 1 when one did (its shrunk schedule is printed and,
 * with --save, written), 2 on bad input, 3 when an output file cannot be
 * written, 4 when the watchdog (--timeout) ended it without a verdict.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <unistd.h>
#include <sys/time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "ctx.h"
#include "xp.h"
#include "memmodel.h"

#define XP_TIMEOUT_SEARCH	3600
#define XP_TIMEOUT_REPLAY	60

static char timeout_msg[128];

/* No verdict: the line is ready before the timer runs (write() only here). */
static void watchdog(int sig)
{
	ssize_t n = write(STDOUT_FILENO, timeout_msg, strlen(timeout_msg));

	(void)n;
	_exit(4);
}

static void watchdog_start(long seconds)
{
	struct itimerval it = { .it_value = { .tv_sec = seconds } };
	struct sigaction sa = { .sa_handler = watchdog };

	if (!seconds)
		return;
	snprintf(timeout_msg, sizeof(timeout_msg), "# watchdog: no verdict within %ld s "
		 "(--timeout)\nnot ok 1 explore # no verdict: timeout\n", seconds);
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* It covered the full search's traces and failures on every configuration measured. */
#define XP_RED_DEFAULT	XP_RED_NONE

static const char *const reduction_names[] = {
	[XP_RED_NONE] = "none", [XP_RED_SLEEP] = "sleep", [XP_RED_DPOR] = "dpor",
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: explore [options]\n"
"  --harness NAME        counter_storm (storm), oom (oom_race), compaction, or a\n"
"                        barrier pattern: sb, mp, publish; or litmus\n"
"  --litmus FILE         litmus: the program (scripts/litmus translates a test)\n"
"  --cpus N --adds N     adder vCPUs (2..4) and adds each (1..%d)\n"
"  --readers N --reads N reader fibers and reader steps each\n"
"  --batch N             hpcc batch (power of two > 1)\n"
"  --sizes A,B,...       add sizes, each within +-2^52 (default: batch-1, -batch,\n"
"                        batch+1, 2*batch)\n"
"  --bound K             preemption bound, -1 for none (default 2)\n"
"  --reduction R         none, sleep (sleep sets) or dpor (default %s)\n"
"  --sleep               the same as --reduction sleep\n"
"  --memory-model M      sc (default), tso or pso: store buffers whose flushes are\n"
"                        scheduled (reduction none or sleep)\n"
"  --budget N            stop after N executions (\"cut by budget\")\n"
"  --pct --depth D --runs N --seed S   PCT instead of the enumeration\n"
"  --tasks N --forks 0|1 oom: initial tasks (2..20), a fiber that forks and exits a task\n"
"  --algo NAME           oom: precise, v16 or bounded (default)\n"
"  --plant               plant a lost update in the harness (the explorer's self-test);\n"
"                        a pattern: drop its barrier\n"
"  --save FILE           on a failure, write the shrunk schedule to FILE\n"
"  --replay-schedule FILE  run one schedule file and report\n"
"  --json FILE           the report as JSON too\n"
"  --fiber-switch asm|ucontext  how fibers switch (default asm on x86-64 without\n"
"                        a sanitizer; ucontext to compare)\n"
"  --timeout S           no verdict (exit 4) after S seconds; 0: none (default %d,\n"
"                        %d for --replay-schedule)\n", XP_MAX_ADDS,
		reduction_names[XP_RED_DEFAULT], XP_TIMEOUT_SEARCH, XP_TIMEOUT_REPLAY);
}

static const struct xp_harness *const harnesses[] = {
	&xp_storm_harness, &xp_oom_harness, &xp_compaction_harness, &xp_zone_desc_harness,
	&xp_sb_harness, &xp_mp_harness, &xp_publish_harness, &xp_litmus_harness,
};

const struct xp_harness *xp_harness_find(const char *name)
{
	unsigned int i;

	if (!strcmp(name, "storm"))
		name = "counter_storm";
	else if (!strcmp(name, "oom_race"))
		name = "oom";
	for (i = 0; i < sizeof(harnesses) / sizeof(harnesses[0]); i++)
		if (!strcmp(name, harnesses[i]->name))
			return harnesses[i];
	return NULL;
}

/* Decimal sizes within +-XP_SIZE_MAX (xp.h says why). */
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

static long num(const char *opt, const char *v, long min, long max)
{
	char *end;
	long n = strtol(v, &end, 0);

	if (end == v || *end || n < min || n > max) {
		fprintf(stderr, "explore: bad %s '%s' (%ld..%ld)\n", opt, v, min, max);
		exit(2);
	}
	return n;
}

static void print_schedule(const struct xp_run *r)
{
	struct xp_run full;
	char buf[96];
	unsigned int i;

	/* Run it once more to name each step's access. */
	xp_run_schedule(r->choice, r->prefix_len, &full);
	printf("# schedule (%u steps, %u preemptions, the first %u chosen):\n", full.len,
	       full.preemptions, r->prefix_len);
	xp_exec_begin();
	for (i = 0; i < full.len && !xp_failed(); i++) {
		printf("#   %3u fiber %u %s%s\n", i, full.choice[i],
		       xp_access_name(xp_pending(full.choice[i]), buf, sizeof(buf)),
		       i > 0 && full.choice[i] != full.choice[i - 1] &&
		       (xp_enabled() & (1U << full.choice[i - 1])) ? "  <- preemption" : "");
		xp_step(full.choice[i]);
	}
	xp_exec_end();
}

struct json_arg {
	const struct xp_cfg *cfg;
	const struct xp_stats *st;
	const struct xp_run *fail;
	bool failed;
};

static int json_fill(FILE *f, const void *p)
{
	const struct json_arg *a = p;
	const struct xp_cfg *cfg = a->cfg;
	const struct xp_stats *st = a->st;
	const struct xp_run *fail = a->fail;
	bool failed = a->failed;
	unsigned int i;

	fprintf(f, "{\"harness\": \"%s\", \"cpus\": %u, \"adds\": %u, \"readers\": %u, "
		"\"reads\": %u, \"batch\": %lu, \"mode\": \"%s\", \"bound\": %d, \"reduction\": \"%s\", "
		"\"executions\": %lu, \"steps\": %lu, \"sleep_pruned\": %lu, \"sleep_blocked\": %lu, \"traces\": %lu, "
		"\"bound_cut\": %lu, \"complete\": %s, \"budget_cut\": %s, \"seconds\": %.3f, "
		"\"tasks\": %u, \"forks\": %u, \"algo\": \"%s\", \"memory_model\": \"%s\", \"failed\": %s",
		cfg->harness, cfg->cpus, cfg->adds, cfg->readers, cfg->reads, cfg->batch,
		cfg->pct ? "pct" : "dfs", cfg->bound, reduction_names[cfg->reduction],
		st->executions, st->steps, st->sleep_pruned, st->sleep_blocked, st->traces,
		st->bound_cut,
		st->complete ? "true" : "false", st->budget_cut ? "true" : "false", st->seconds,
		cfg->tasks, cfg->forks, cfg->algo, xp_mm_name(), failed ? "true" : "false");
	if (failed) {
		fprintf(f, ", \"invariant\": \"%s\", \"preemptions\": %u, \"schedule\": [",
			fail->invariant, fail->preemptions);
		for (i = 0; i < fail->prefix_len; i++)
			fprintf(f, "%s%u", i ? ", " : "", fail->choice[i]);
		fprintf(f, "]");
	}
	fprintf(f, "}\n");
	return ferror(f) ? -1 : 0;
}

static int write_json(const char *path, const struct xp_cfg *cfg, const struct xp_stats *st,
		      const struct xp_run *fail, bool failed)
{
	struct json_arg a = { cfg, st, fail, failed };

	return xp_write_file(path, json_fill, &a);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "harness", 1, NULL, 'H' }, { "cpus", 1, NULL, 'c' }, { "adds", 1, NULL, 'a' },
		{ "readers", 1, NULL, 'r' }, { "reads", 1, NULL, 'R' }, { "batch", 1, NULL, 'b' },
		{ "sizes", 1, NULL, 'z' }, { "bound", 1, NULL, 'k' }, { "sleep", 0, NULL, 's' },
		{ "reduction", 1, NULL, 'D' },
		{ "budget", 1, NULL, 'B' }, { "pct", 0, NULL, 'p' }, { "depth", 1, NULL, 'd' },
		{ "runs", 1, NULL, 'n' }, { "seed", 1, NULL, 'S' }, { "save", 1, NULL, 'o' },
		{ "replay-schedule", 1, NULL, 'y' }, { "json", 1, NULL, 'j' },
		{ "plant", 0, NULL, 'P' }, { "help", 0, NULL, 'h' }, { "tasks", 1, NULL, 't' },
		{ "forks", 1, NULL, 'f' }, { "algo", 1, NULL, 'A' }, { "timeout", 1, NULL, 'T' },
		{ "fiber-switch", 1, NULL, 'F' },
		{ "memory-model", 1, NULL, 'M' }, { "litmus", 1, NULL, 'L' },
		{ NULL, 0, NULL, 0 },
	};
	const struct xp_harness *h;
	struct xp_cfg cfg = {
		.harness = "counter_storm", .cpus = 2, .adds = 3, .readers = 1, .reads = 1,
		.batch = 2, .bound = 2, .pct_depth = 3, .pct_runs = 1000, .seed = 1,
		.tasks = 2, .forks = 1, .algo = "bounded", .reduction = XP_RED_DEFAULT,
	};
	const char *save = NULL, *replay = NULL, *json = NULL;
	static struct xp_sched sched;
	struct xp_stats st = { 0 };
	struct xp_run fail = { 0 };
	long timeout = -1;
	double t0;
	int o, failed, out_err = 0;

	opterr = 0;
	while ((o = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (o) {
		case 'H':
			h = xp_harness_find(optarg);
			if (!h) {
				fprintf(stderr, "explore: unknown harness '%s'\n", optarg);
				return 2;
			}
			cfg.harness = h->name;
			break;
		case 't': cfg.tasks = (unsigned int)num("--tasks", optarg, 2, XP_OOM_MAX_TASKS); break;
		case 'f': cfg.forks = (unsigned int)num("--forks", optarg, 0, 1); break;
		case 'A': cfg.algo = optarg; break;
		case 'c': cfg.cpus = (unsigned int)num("--cpus", optarg, 2, 4); break;
		case 'a': cfg.adds = (unsigned int)num("--adds", optarg, 1, XP_MAX_ADDS); break;
		case 'r': cfg.readers = (unsigned int)num("--readers", optarg, 0, 2); break;
		case 'R': cfg.reads = (unsigned int)num("--reads", optarg, 0, 16); break;
		case 'b': cfg.batch = (unsigned long)num("--batch", optarg, 2, 1L << 20); break;
		case 'z':
			if (xp_parse_sizes(optarg, &cfg)) {
				fprintf(stderr, "explore: bad --sizes '%s' (1..%d decimal sizes, "
					"each within +-2^52)\n", optarg, XP_MAX_ADDS);
				return 2;
			}
			break;
		case 'k': cfg.bound = (int)num("--bound", optarg, -1, 15); break;
		case 's': cfg.reduction = XP_RED_SLEEP; break;
		case 'D':
			for (o = 0; o < 3 && strcmp(optarg, reduction_names[o]); o++)
				;
			if (o == 3) {
				fprintf(stderr, "explore: bad --reduction '%s' (none, sleep, dpor)\n",
					optarg);
				return 2;
			}
			cfg.reduction = (enum xp_reduction)o;
			break;
		case 'B': cfg.budget = (unsigned long)num("--budget", optarg, 1, 1L << 40); break;
		case 'p': cfg.pct = true; break;
		case 'd': cfg.pct_depth = (unsigned int)num("--depth", optarg, 1, 16); break;
		case 'n': cfg.pct_runs = (unsigned long)num("--runs", optarg, 1, 1L << 40); break;
		case 'S': cfg.seed = (unsigned long)num("--seed", optarg, 0, 1L << 62); break;
		case 'o': save = optarg; break;
		case 'y': replay = optarg; break;
		case 'j': json = optarg; break;
		case 'P': cfg.plant = true; break;
		case 'T': timeout = num("--timeout", optarg, 0, 1L << 30); break;
		case 'F':
			if (!strcmp(optarg, "ucontext")) {
				xp_ctx_use_ucontext = true;
			} else if (strcmp(optarg, "asm") || !xp_ctx_asm_available()) {
				fprintf(stderr, "explore: bad --fiber-switch '%s' (%s)\n", optarg,
					xp_ctx_asm_available() ? "asm or ucontext" : "ucontext only here");
				return 2;
			}
			break;
		case 'L': cfg.litmus = optarg; break;
		case 'M':
			if (xp_mm_parse(optarg) < 0) {
				fprintf(stderr, "explore: bad --memory-model '%s' (sc, tso, pso)\n",
					optarg);
				return 2;
			}
			xp_mm = (enum xp_model)xp_mm_parse(optarg);
			break;
		case 'h': usage(stdout); return 0;
		default:
			fprintf(stderr, "explore: bad option '%s' (see --help)\n", argv[optind - 1]);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "explore: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	if (replay && xp_schedule_load(replay, &cfg, &sched))
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	watchdog_start(timeout >= 0 ? timeout : replay ? XP_TIMEOUT_REPLAY : XP_TIMEOUT_SEARCH);
	/* Its races miss a flush that a buffered store enables: docs/explore.md. */
	if (xp_mm != XP_MM_SC && cfg.reduction == XP_RED_DPOR && !cfg.pct) {
		fprintf(stderr, "explore: --reduction dpor explores sc only (--memory-model %s:"
			" none or sleep)\n", xp_mm_name());
		return 2;
	}
	kc_pcpu_set_ops(KC_PCPU_ATOMIC);
	h = xp_harness_find(cfg.harness);
	if (!h || h->init(&cfg) || xp_machine_init(h, &cfg) ||
	    (replay && xp_schedule_check(replay, &sched)))
		return 2;

	printf("KTAP version 1\n1..1\n");
	if (h == &xp_storm_harness)
		printf("# explore: harness %s cpus %u adds %u readers %u reads %u batch %lu\n",
		       cfg.harness, cfg.cpus, cfg.adds, cfg.readers, cfg.reads, cfg.batch);
	else if (h == &xp_oom_harness)
		printf("# explore: harness %s cpus 2 tasks %u forks %u algo %s batch %lu (%s)\n",
		       cfg.harness, cfg.tasks, cfg.forks, cfg.algo, cfg.batch, xp_oom_impl());
	else if (h == &xp_litmus_harness)
		printf("# explore: harness litmus %s\n", cfg.litmus);
	else if (h == &xp_compaction_harness)
		printf("# explore: harness %s cpus 2 requesters 2 resets 1\n", cfg.harness);
	else
		printf("# explore: harness %s cpus 2%s\n", cfg.harness,
		       cfg.plant ? " (barrier planted out)" : "");
	printf("# memory model %s\n", xp_mm_name());
	t0 = now();
	if (replay) {
		struct xp_run r;

		failed = xp_schedule_replay(replay, &sched, &r);
		if (!failed) {
			printf("# replay %s: not reproduced (expected %s): %s\n", replay,
			       sched.expect, r.message);
			printf("ok 1 explore replay not reproduced\n");
			return 0;
		}
		printf("# replay %s: FAIL %s (expected %s)\n", replay, r.invariant, sched.expect);
		printf("# %s: %s\n", r.invariant, r.message);
		print_schedule(&r);
		printf("not ok 1 explore replay %s\n", r.invariant);
		return 1;
	}
	if (cfg.pct) {
		printf("# mode pct depth %u runs %lu seed %lu\n", cfg.pct_depth, cfg.pct_runs,
		       cfg.seed);
		failed = xp_pct(&cfg, &st, &fail);
	} else {
		printf("# mode dfs bound %d reduction %s%s\n", cfg.bound,
		       reduction_names[cfg.reduction], cfg.budget ? " budget" : "");
		failed = xp_dfs(&cfg, &st, &fail);
	}
	st.seconds = now() - t0;
	for (o = 0; !cfg.pct && o <= st.bound_reached && o < 16; o++)
		printf("# bound %d: %lu executions\n", o, st.per_bound[o]);
	printf("# executions %lu steps %lu sleep_pruned %lu sleep_blocked %lu bound_cut %lu"
	       " time %.2f s\n", st.executions, st.steps, st.sleep_pruned, st.sleep_blocked,
	       st.bound_cut, st.seconds);
	if (!cfg.pct)
		printf("# traces %lu\n", st.traces);
	if (failed) {
		unsigned int found = fail.len, pre = fail.preemptions;

		xp_shrink(&fail);
		printf("# FAIL %s after %lu executions: %s\n", fail.invariant, st.executions,
		       fail.message);
		printf("# found with %u steps and %u preemptions; shrunk to a %u-step prefix\n",
		       found, pre, fail.prefix_len);
		print_schedule(&fail);
		if (save && xp_schedule_save(save, &cfg, &fail))
			out_err = 1;
		else if (save)
			printf("# schedule saved to %s (explore --replay-schedule %s)\n", save,
			       save);
	} else if (cfg.pct) {
		double p = 1.0 / xp_nr_fibers();
		unsigned int i;

		for (i = 1; i < cfg.pct_depth; i++)
			p /= st.pct_k;
		printf("# no failure in %lu PCT executions of depth %u (%u steps a run: a depth-%u"
		       " bug is found with probability >= %.3g per execution)\n", st.executions,
		       cfg.pct_depth, st.pct_k, cfg.pct_depth, p);
	} else if (st.budget_cut) {
		printf("# cut by budget at %lu executions (bound %d not exhausted)\n",
		       st.executions, st.bound_reached);
	} else if (cfg.reduction == XP_RED_SLEEP && cfg.bound >= 0) {
		printf("# exhausted within bound %d with sleep sets (a heuristic under a bound:"
		       " docs/explore.md)\n", cfg.bound);
	} else if (cfg.reduction == XP_RED_DPOR && cfg.bound >= 0) {
		printf("# exhausted within bound %d with DPOR (as many traces as the full search"
		       " wherever measured, not proved: docs/explore.md; --reduction none for"
		       " complete)\n", cfg.bound);
	} else if (cfg.bound >= 0) {
		printf("# complete within bound %d\n", cfg.bound);
	} else {
		printf("# complete (unbounded)\n");
	}
	if (json && write_json(json, &cfg, &st, &fail, failed))
		out_err = 1;
	printf("%s 1 explore %s%s%s%s%s\n", failed ? "not ok" : "ok", cfg.harness,
	       xp_mm == XP_MM_SC ? "" : " ", xp_mm == XP_MM_SC ? "" : xp_mm_name(),
	       failed ? " " : "", failed ? fail.invariant : "");
	return out_err ? 3 : failed ? 1 : 0;
}
