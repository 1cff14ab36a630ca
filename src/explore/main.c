// SPDX-License-Identifier: GPL-2.0
/*
 * explore: systematic schedule exploration of a harness (docs/explore.md).
 * Prints KTAP; exit 0 when no execution failed (or a replayed schedule
 * did not reproduce), 1 when one did (its shrunk schedule is printed and,
 * with --save, written), 2 on bad input, 3 when an output file cannot be
 * written, 4 when the watchdog (--timeout) or the budget (--budget, before
 * a failure) ended it without a verdict.
 */
#include <math.h>
#include <signal.h>
#include <unistd.h>
#include <sys/time.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "util/json.h"
#include "util/ktap.h"
#include "args.h"
#include "xp.h"
#include "memmodel.h"

#define XP_TIMEOUT_SEARCH	3600
#define XP_TIMEOUT_REPLAY	60

static char timeout_msg[128];
static struct ktap ktap;

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

static const char *const reduction_names[] = {
	[XP_RED_NONE] = "none", [XP_RED_SLEEP] = "sleep", [XP_RED_DPOR] = "dpor",
};

static void print_schedule(const struct xp_run *r)
{
	struct xp_run full;
	char buf[96];
	unsigned int i;

	/* Run it once more to name each step's access. */
	xp_run_schedule(r->choice, r->prefix_len, &full);
	ktap_diag(&ktap, "schedule (%u steps, %u preemptions, the first %u chosen):", full.len,
		  full.preemptions, r->prefix_len);
	xp_exec_begin();
	for (i = 0; i < full.len && !xp_failed(); i++) {
		ktap_diag(&ktap, "  %3u fiber %u %s%s", i, full.choice[i],
			  xp_access_name(xp_pending(full.choice[i]), buf, sizeof(buf)),
			  i > 0 && full.choice[i] != full.choice[i - 1] &&
			  (xp_enabled() & (1U << full.choice[i - 1])) ? "  <- preemption" : "");
		xp_step(full.choice[i]);
	}
	xp_exec_end();
}


static void json_cfg(struct json *j, const struct xp_cfg *cfg)
{
	json_kstr(j, "harness", cfg->harness);
	json_ku64(j, "cpus", cfg->cpus);
	json_ku64(j, "adds", cfg->adds);
	json_ku64(j, "readers", cfg->readers);
	json_ku64(j, "reads", cfg->reads);
	json_ku64(j, "batch", cfg->batch);
	json_kstr(j, "mode", cfg->pct ? "pct" : "dfs");
	json_ki64(j, "bound", cfg->bound);
	json_kstr(j, "reduction", reduction_names[cfg->reduction]);
	json_ku64(j, "budget", cfg->budget);
	json_ku64(j, "depth", cfg->pct_depth);
	json_ku64(j, "runs", cfg->pct_runs);
	json_kseed(j, "seed", cfg->seed);
	json_kbool(j, "plant", cfg->plant);
}

static void json_stats(struct json *j, const struct xp_stats *st)
{
	json_ku64(j, "executions", st->executions);
	json_ku64(j, "steps", st->steps);
	json_ku64(j, "sleep_pruned", st->sleep_pruned);
	json_ku64(j, "sleep_blocked", st->sleep_blocked);
	json_ku64(j, "traces", st->traces);
	json_ku64(j, "bound_cut", st->bound_cut);
	json_kbool(j, "complete", st->complete);
	json_kbool(j, "budget_cut", st->budget_cut);
	/* Milliseconds, as the text report's precision. */
	json_kdouble(j, "seconds", round(st->seconds * 1000) / 1000);
}

struct json_arg {
	const struct xp_cfg *cfg;
	const struct xp_stats *st;
	const struct xp_run *fail;	/* NULL: no execution failed */
};

static int json_fill(FILE *f, const void *p)
{
	const struct json_arg *a = p;
	struct json j;
	unsigned int i;

	json_init(&j, f);
	json_obj_begin(&j);
	json_cfg(&j, a->cfg);
	json_stats(&j, a->st);
	json_ku64(&j, "tasks", a->cfg->tasks);
	json_ku64(&j, "forks", a->cfg->forks);
	json_kstr(&j, "algo", a->cfg->algo);
	json_kstr(&j, "memory_model", xp_mm_name());
	json_kbool(&j, "failed", a->fail);
	if (a->fail) {
		json_kstr(&j, "invariant", a->fail->invariant);
		json_ku64(&j, "preemptions", a->fail->preemptions);
		json_karr_begin(&j, "schedule");
		for (i = 0; i < a->fail->prefix_len; i++)
			json_u64(&j, a->fail->choice[i]);
		json_arr_end(&j);
	}
	json_obj_end(&j);
	json_finish(&j);
	return ferror(f) ? -1 : 0;
}

/*
 * A schedule replays the search that saved it: --batch or --algo given
 * with it must be the file's (now in @a), 0; else -1 with one line.
 */
static int replay_agrees(const struct xp_args *a, unsigned long batch, const char *algo)
{
	if (a->batch_given && batch != a->cfg.batch) {
		fprintf(stderr, "explore: %s was saved with --batch %lu, not %lu\n", a->replay,
			a->cfg.batch, batch);
		return -1;
	}
	if (a->algo_given && strcmp(algo, a->cfg.algo)) {
		fprintf(stderr, "explore: %s was saved with --algo %s, not %s\n", a->replay,
			a->cfg.algo, algo);
		return -1;
	}
	return 0;
}

/* The schedule file checked, the watchdog armed, the harness and machine ready: 0 or 2. */
static int prepare(struct xp_args *a, struct xp_sched *sched, const struct xp_harness **hp)
{
	const struct xp_harness *h;
	unsigned long batch = a->cfg.batch;
	const char *algo = a->cfg.algo;

	/* A schedule file names its own model. */
	xp_mm = (enum xp_model)a->model;
	if (a->replay && (xp_schedule_load(a->replay, &a->cfg, sched) ||
			  replay_agrees(a, batch, algo)))
		return 2;
	/* Its races miss a flush that a buffered store enables: docs/explore.md. */
	if (xp_mm != XP_MM_SC && a->cfg.reduction == XP_RED_DPOR && !a->cfg.pct) {
		fprintf(stderr, "explore: --reduction dpor explores sc only (--memory-model %s:"
			" none or sleep)\n", xp_mm_name());
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	watchdog_start(a->timeout >= 0 ? a->timeout :
		       a->replay ? XP_TIMEOUT_REPLAY : XP_TIMEOUT_SEARCH);
	kc_pcpu_set_ops(KC_PCPU_ATOMIC);
	h = xp_harness_find(a->cfg.harness);
	if (!h || h->init(&a->cfg) || xp_machine_init(h, &a->cfg) ||
	    (a->replay && xp_schedule_check(a->replay, sched)))
		return 2;
	*hp = h;
	return 0;
}

static void print_header(const struct xp_harness *h, const struct xp_cfg *cfg)
{
	char conf[160];

	if (h->describe)
		h->describe(cfg, conf, sizeof(conf));
	else
		snprintf(conf, sizeof(conf), " cpus 2%s", cfg->plant ? " (barrier planted out)" : "");
	ktap_begin(&ktap, stdout, 1);
	ktap_diag(&ktap, "explore: harness %s%s", cfg->harness, conf);
	ktap_diag(&ktap, "memory model %s", xp_mm_name());
}

/* One schedule file on this tree: 1 when it fails, 0 when not reproduced. */
static int replay(const char *path, const struct xp_sched *sched)
{
	char name[96];
	struct xp_run r;

	if (!xp_schedule_replay(path, sched, &r)) {
		ktap_diag(&ktap, "replay %s: not reproduced (expected %s): %s", path, sched->expect,
			  r.message);
		ktap_result(&ktap, KTAP_PASS, "explore replay not reproduced", NULL);
		return 0;
	}
	ktap_diag(&ktap, "replay %s: FAIL %s (expected %s)", path, r.invariant, sched->expect);
	ktap_diag(&ktap, "%s: %s", r.invariant, r.message);
	print_schedule(&r);
	snprintf(name, sizeof(name), "explore replay %s", r.invariant);
	ktap_result(&ktap, KTAP_FAIL, name, NULL);
	return 1;
}

/* The enumeration or PCT, with its counts: 1 when an execution failed. */
static int search(const struct xp_cfg *cfg, struct xp_stats *st, struct xp_run *fail)
{
	double t0 = now();
	int failed, b;

	if (cfg->pct) {
		ktap_diag(&ktap, "mode pct depth %u runs %lu seed %lu", cfg->pct_depth,
			  cfg->pct_runs, cfg->seed);
		failed = xp_pct(cfg, st, fail);
	} else {
		ktap_diag(&ktap, "mode dfs bound %d reduction %s%s", cfg->bound,
			  reduction_names[cfg->reduction], cfg->budget ? " budget" : "");
		failed = xp_dfs(cfg, st, fail);
	}
	st->seconds = now() - t0;
	for (b = 0; !cfg->pct && b <= st->bound_reached && b < 16; b++)
		ktap_diag(&ktap, "bound %d: %lu executions", b, st->per_bound[b]);
	ktap_diag(&ktap, "executions %lu steps %lu sleep_pruned %lu sleep_blocked %lu bound_cut"
		  " %lu time %.2f s", st->executions, st->steps, st->sleep_pruned,
		  st->sleep_blocked, st->bound_cut, st->seconds);
	if (!cfg->pct)
		ktap_diag(&ktap, "traces %lu", st->traces);
	return failed;
}

/* Shrunk, printed and (--save) written: 0, or -1 when the file cannot be. */
static int report_failure(const struct xp_args *a, const struct xp_stats *st,
			  struct xp_run *fail)
{
	unsigned int found = fail->len, pre = fail->preemptions;

	xp_shrink(fail);
	ktap_diag(&ktap, "FAIL %s after %lu executions: %s", fail->invariant, st->executions,
		  fail->message);
	ktap_diag(&ktap, "found with %u steps and %u preemptions; shrunk to a %u-step prefix",
		  found, pre, fail->prefix_len);
	print_schedule(fail);
	if (!a->save)
		return 0;
	if (xp_schedule_save(a->save, &a->cfg, fail))
		return -1;
	ktap_diag(&ktap, "schedule saved to %s (explore --replay-schedule %s)", a->save, a->save);
	return 0;
}

/* What a search cut by its budget left unexplored, in @buf. */
static const char *unexplored(const struct xp_cfg *cfg, const struct xp_stats *st, char *buf,
			      size_t len)
{
	int b = st->bound_reached;

	if (b < 0)
		snprintf(buf, len, "the unbounded search not exhausted");
	else if (b == cfg->bound)
		snprintf(buf, len, "bound %d not exhausted", b);
	else if (b + 1 == cfg->bound)
		snprintf(buf, len, "bound %d not exhausted, bound %d not explored", b, b + 1);
	else
		snprintf(buf, len, "bound %d not exhausted, bounds %d to %d not explored", b, b + 1,
			 cfg->bound);
	return buf;
}

/* What a search without a failure covered. */
static void report_pass(const struct xp_cfg *cfg, const struct xp_stats *st)
{
	double p = 1.0 / xp_nr_fibers();
	char left[96];
	unsigned int i;

	if (cfg->pct) {
		for (i = 1; i < cfg->pct_depth; i++)
			p /= st->pct_k;
		ktap_diag(&ktap, "no failure in %lu PCT executions of depth %u (%u steps a run: a"
			  " depth-%u bug is found with probability >= %.3g per execution)",
			  st->executions, cfg->pct_depth, st->pct_k, cfg->pct_depth, p);
	} else if (st->budget_cut) {
		ktap_diag(&ktap, "cut by budget at %lu executions (%s): no verdict", st->executions,
			  unexplored(cfg, st, left, sizeof(left)));
	} else if (cfg->reduction == XP_RED_SLEEP && cfg->bound >= 0) {
		ktap_diag(&ktap, "exhausted within bound %d with sleep sets (a heuristic under a"
			  " bound: docs/explore.md)", cfg->bound);
	} else if (cfg->reduction == XP_RED_DPOR && cfg->bound >= 0) {
		ktap_diag(&ktap, "exhausted within bound %d with DPOR (as many traces as the full"
			  " search wherever measured, not proved: docs/explore.md; --reduction none"
			  " for complete)", cfg->bound);
	} else if (cfg->bound >= 0) {
		ktap_diag(&ktap, "complete within bound %d", cfg->bound);
	} else {
		ktap_diag(&ktap, "complete (unbounded)");
	}
}

/* The search, its report and result line: the exit status. */
static int explore(const struct xp_args *a)
{
	struct xp_stats st = { 0 };
	struct xp_run fail = { 0 };
	struct json_arg ja = { &a->cfg, &st, NULL };
	char name[96];
	int failed, out_err = 0;

	failed = search(&a->cfg, &st, &fail);
	if (failed)
		out_err = report_failure(a, &st, &fail);
	else
		report_pass(&a->cfg, &st);
	ja.fail = failed ? &fail : NULL;
	if (a->json && xp_write_file(a->json, json_fill, &ja))
		out_err = -1;
	snprintf(name, sizeof(name), "explore %s%s%s%s%s", a->cfg.harness,
		 xp_mm == XP_MM_SC ? "" : " ", xp_mm == XP_MM_SC ? "" : xp_mm_name(),
		 failed ? " " : "", failed ? fail.invariant : "");
	/* A search its budget cut has no verdict on the schedules it left. */
	if (!failed && st.budget_cut) {
		ktap_result(&ktap, KTAP_SKIP, name, "no verdict: cut by budget");
		return out_err ? 3 : 4;
	}
	ktap_result(&ktap, failed ? KTAP_FAIL : KTAP_PASS, name, NULL);
	return out_err ? 3 : failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	static struct xp_args args;
	static struct xp_sched sched;
	const struct xp_harness *h;
	int act = xp_args_parse(argc, argv, &args);

	if (act < 0)
		return 2;
	if (act == XP_ACT_HELP)
		return 0;
	if (prepare(&args, &sched, &h))
		return 2;
	print_header(h, &args.cfg);
	if (act == XP_ACT_REPLAY)
		return replay(args.replay, &sched);
	return explore(&args);
}
