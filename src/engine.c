// SPDX-License-Identifier: GPL-2.0
/*
 * One run of one scenario: set up, start the threads, drive the phases
 * (run, stutter, progress lines, watchdog) from the calling thread until
 * the duration ends, a signal arrives or an invariant fails; stop, run
 * the final checks and tear down. Also the services of scenario.h.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <kcompat/kcompat.h>
#include "util/json.h"
#include "config.h"
#include "engine.h"
#include "hotplug.h"
#include "inject.h"
#include "parse.h"
#include "recorder.h"
#include "report.h"
#include "run.h"
#include "signals.h"
#include "threads.h"
#include "verdict.h"
#include "watchdog.h"

void (*stress_hook)(struct stress *s, enum stress_hook where, unsigned int arg);

/* --- services for scenarios --- */

unsigned int stress_nr_cpus(struct stress *s)
{
	return s->run.cfg->nr_cpus;
}

unsigned int stress_nr_selectors(struct stress *s)
{
	return s->setup.nr_threads - s->run.cfg->nr_cpus;
}

unsigned long stress_batch(struct stress *s)
{
	return s->run.cfg->batch;
}

unsigned long long stress_seed(struct stress *s)
{
	return s->run.seed;
}

const struct hpcc_shape *stress_shape(struct stress *s)
{
	return &s->setup.shape;
}

void *stress_priv(struct stress *s)
{
	return s->setup.priv;
}

void stress_set_priv(struct stress *s, void *priv)
{
	s->setup.priv = priv;
}

bool stress_stopping(struct stress *s)
{
	return atomic_load_explicit(&s->stop, memory_order_relaxed);
}

bool stress_serial(struct stress *s)
{
	return atomic_load(&s->wd.phase) == PH_SERIAL;
}

bool stress_checking(struct stress *s)
{
	return !s->run.cfg->no_check;
}

bool stress_verbose(struct stress *s)
{
	return s->run.cfg->verbose;
}

/* --- the run --- */

void stress_build_reproducer(const struct stress_config *cfg, const struct scenario *sc,
			     unsigned long long seed, double duration, char *buf, size_t len)
{
	char dur[32], stall[64] = "", steps[48] = "", nice[32] = "";

	stress_format_duration(duration, dur, sizeof(dur));
	if (cfg->steps)
		snprintf(steps, sizeof(steps), " --steps %llu", cfg->steps);
	if (cfg->vcpu_nice < 0)
		snprintf(nice, sizeof(nice), " --vcpu-nice auto");
	else if (cfg->vcpu_nice)
		snprintf(nice, sizeof(nice), " --vcpu-nice %d", cfg->vcpu_nice);
	if (cfg->stall_timeout) {
		char t[32];

		stress_format_duration(cfg->stall_timeout, t, sizeof(t));
		snprintf(stall, sizeof(stall), " --stall-timeout %s", t);
	}
	snprintf(buf, len, "%s --scenario %s --cpus %u --batch %lu --seed %llu --duration %s "
		 "--selectors %u --selector-duty %g --inject %s --stutter %s --hotplug %s "
		 "--rcu %s%s%s%s%s%s%s",
		 cfg->argv0, sc->name, cfg->nr_cpus, cfg->batch, seed, dur,
		 cfg->nr_selectors, cfg->selector_duty, cfg->inject.text, cfg->stutter.text,
		 cfg->hotplug_text, cfg->rcu, stall,
		 steps, nice, cfg->pcpu_ops == KC_PCPU_ATOMIC ? " --pcpu-ops atomic" : "",
		 cfg->no_check ? " --no-check" : "", cfg->scenario_args);
}

static double stutter_interval(struct stress *s, struct stress_rng *r)
{
	const struct stutter_spec *st = &s->run.cfg->stutter;

	if (st->max <= st->min)
		return st->min;
	return st->min + (st->max - st->min) * (stress_rng_next(r) >> 11) *
	       (1.0 / 9007199254740992.0);
}

static void sleep_s(double secs)
{
	struct timespec ts = { (time_t)secs, (long)((secs - (time_t)secs) * 1e9) };

	nanosleep(&ts, NULL);
}

/* The scenario's own report, taken while its state still exists. */
void stress_capture_reports(struct stress *s)
{
	size_t len;
	FILE *m;

	if (s->run.sc->report_text && (m = open_memstream(&s->res.sc_text, &len))) {
		s->run.sc->report_text(s, m);
		fclose(m);
	}
	if (s->run.sc->report_json && (m = open_memstream(&s->res.sc_json, &len))) {
		struct json j;

		/* Members after "name" in the run's "scenario_data" object. */
		json_init_inside(&j, m);
		s->run.sc->report_json(s, &j);
		fclose(m);
	}
}

/*
 * What every run needs before its threads (or fibers) start: locks, the
 * tree shape, the per-thread state, the flight recorder and the
 * scenario's setup. 0, or -1 after reporting an internal error.
 */
int stress_run_prepare(struct stress *s)
{
	const struct stress_config *cfg = s->run.cfg;

	stress_tally_init(&s->tally);
	if (hpcc_shape_compute(&s->setup.shape, cfg->nr_cpus, cfg->batch)) {
		stress_internal_error(s, "no tree shape for %u CPUs, batch %lu", cfg->nr_cpus,
				      cfg->batch);
		return -1;
	}
	s->setup.nr_threads = cfg->nr_cpus + (s->run.sc->select_step ? cfg->nr_selectors : 0);
	s->threads = aligned_alloc(64, sizeof(*s->threads) * s->setup.nr_threads);
	s->setup.rec = recorder_new(s->setup.nr_threads, 64);
	if (!s->threads || !s->setup.rec || !s->run.sc->cpu_step) {
		stress_internal_error(s, "out of memory or scenario without cpu_step");
		return -1;
	}
	memset(s->threads, 0, sizeof(*s->threads) * s->setup.nr_threads);
	s->setup.warn_base = kc_warn_count();
	if (s->run.sc->setup && s->run.sc->setup(s)) {
		stress_internal_error(s, "scenario %s: setup failed", s->run.sc->name);
		return -1;
	}
	return 0;
}

/*
 * A window too short to judge: fewer operations than one per vCPU (a run
 * whose threads took the whole duration to start did nothing) is no
 * verdict, INCOMPLETE, never a pass. A failure or a signal says more.
 */
static void judge_window(struct stress *s)
{
	unsigned long min = stress_min_ops(s->run.cfg);

	if (s->res.starved || s->res.interrupted || atomic_load(&s->tally.failed) ||
	    s->res.internal_error || s->res.ops >= min)
		return;
	s->res.starved = true;
	snprintf(s->res.incomplete_why, sizeof(s->res.incomplete_why), "%lu operation(s) in the "
		 "measured window, fewer than the minimum %lu (one per vCPU)", s->res.ops, min);
	fprintf(stderr, "stress: %s: %s: incomplete\n", s->run.sc->name, s->res.incomplete_why);
}

/*
 * The run proper, watched by the watchdog from stress_run(). Its clock
 * starts before the threads are created: on an overloaded host creating
 * them can take minutes, and neither the deadline nor a signal may wait
 * for that (a compaction_churn run once stalled there for minutes).
 */
static int run_threads(struct stress *s)
{
	const struct stress_config *cfg = s->run.cfg;
	double now, next_stat, next_stutter = 0, last_t, deadline = s->wd.deadline, t_create;
	unsigned long last_ops = 0;
	struct stress_rng srng;
	int started;
	bool stopped;

	s->res.skipped = cfg->no_check;
	if (stress_run_prepare(s))
		return STRESS_EXIT_INTERNAL;
	stress_inject_install(cfg);
	stress_hotplug_begin(s);
	stress_rng_seed(&srng, s->run.seed, "stutter", 0);

	stress_watch_phase(s, PH_START);
	t_create = stress_now();
	started = stress_threads_start(s);
	if (started < 0) {
		stress_threads_stop(s);
		return STRESS_EXIT_INTERNAL;
	}
	/*
	 * Workers step from "go" on: elapsed and ops/s count from there (t0,
	 * read just before it), not from thread creation. No "go": no window.
	 */
	if (started)
		s->t0 = stress_now();
	last_t = s->t0;
	s->res.startup = s->t0 - t_create;
	/*
	 * Creation outlasted the deadline by half the stall limit before every
	 * thread existed: the scenario never ran as asked, so no verdict
	 * either way (the watchdog's starved runs).
	 */
	if (started == 2) {
		s->res.starved = true;
		snprintf(s->res.incomplete_why, sizeof(s->res.incomplete_why),
			 "starting the threads outlasted the run");
		fprintf(stderr, "stress: %s: starting the threads outlasted the run (%u of %u in "
			"%.1fs): incomplete\n", s->run.sc->name,
			atomic_load(&s->workers.nr_started), s->setup.nr_threads, s->res.startup);
	}
	/*
	 * A late start (setup and thread creation under load) still gets its
	 * whole measured window, up to a quarter of the stall limit past the
	 * deadline: the watchdog holds the run to the deadline plus that limit.
	 */
	if (deadline && !started && s->t0 + s->run.duration > deadline) {
		double cap = deadline + stress_stall_limit(cfg) / 4;

		deadline = s->t0 + s->run.duration < cap ? s->t0 + s->run.duration : cap;
	}
	stress_watch_phase(s, PH_RUN);
	next_stat = cfg->stat_interval > 0 ? s->t0 + cfg->stat_interval : 0;
	if (cfg->stutter.min > 0)
		next_stutter = s->t0 + stutter_interval(s, &srng);
	for (;;) {
		stress_watch_beat();
		if (atomic_load(&s->stop))
			break;
		if (stress_signalled) {
			s->res.interrupted = true;
			break;
		}
		now = stress_now();
		if ((deadline && now >= deadline) || stress_threads_done(s))
			break;
		/* No stutter in the last half second: the final check follows anyway. */
		if (next_stutter && now >= next_stutter && !(deadline && deadline - now < 0.5)) {
			stress_watch_phase(s, PH_STUTTER);
			stress_threads_quiesce(s);
			stress_watch_phase(s, PH_RUN);
			now = stress_now();
			next_stutter = stutter_interval(s, &srng);
			/* The stutter held to its limits: the interval within MIN-MAX. */
			if (next_stutter < cfg->stutter.min || next_stutter > cfg->stutter.max)
				stress_fail(s, "stutter", -1, "a stutter interval of %.3f s, "
					    "outside %s", next_stutter, cfg->stutter.text);
			next_stutter += now;
		}
		if (next_stat && now >= next_stat) {
			unsigned long ops = stress_threads_ops(s);

			report_progress(s, now - s->t0, ops, (ops - last_ops) / (now - last_t));
			last_ops = ops;
			last_t = now;
			next_stat += cfg->stat_interval;
			if (next_stat < now)
				next_stat = now + cfg->stat_interval;
		}
		/* Up to the deadline, not past it: a 1 ms run is not a 10 ms one. */
		sleep_s(deadline && deadline - now < 0.01 ? deadline - now : 0.01);
	}
	now = stress_now();
	stress_watch_phase(s, PH_STOP);
	stopped = stress_threads_stop(s);
	/* The run phase's CPU: from "go" (published only when started is 0) to here. */
	if (!started) {
		s->res.run_cpu = (stress_cpu_us() - s->workers.cpu_at_go) / 1e6;
		s->res.run_cpu_known = true;
	}
	if (!stopped) {
		/* The watchdog failed the run: report it, no teardown (threads still run). */
		s->res.elapsed = now - s->t0;
		s->res.ops = stress_threads_ops(s);
		s->res.stalled = true;
		kc_set_after_pcpu_add_hook(NULL);
		return STRESS_EXIT_FAIL;
	}
	stress_watch_phase(s, PH_FINAL);
	kc_set_after_pcpu_add_hook(NULL);
	s->res.elapsed = now - s->t0;
	s->res.ops = stress_threads_ops(s);
	if (!atomic_load(&s->tally.failed) && s->run.sc->quiescent && !s->res.skipped) {
		stress_quiescent_point(s);
	}
	stress_hotplug_end(s);
	stress_capture_reports(s);
	if (s->run.sc->teardown)
		s->run.sc->teardown(s);
	stress_check_no_warn(s);
	judge_window(s);
	if (s->res.internal_error)
		return STRESS_EXIT_INTERNAL;
	if (atomic_load(&s->tally.failed))
		return STRESS_EXIT_FAIL;
	return s->res.starved ? STRESS_EXIT_INCOMPLETE : STRESS_EXIT_PASS;
}

/* The run's exit status: its verdict's (stress_verdict_exit). */
int stress_run(struct stress *s)
{
	char cmd[sizeof(s->run.reproducer)];
	int rc;

	if (s->run.sc->unavailable) {
		s->res.skipped = true;
		s->res.skip_why = s->run.sc->unavailable;
		return STRESS_EXIT_PASS;
	}
	stress_build_reproducer(s->run.cfg, s->run.sc, s->run.seed, s->run.duration, cmd,
				sizeof(cmd));
	stress_set_reproducer(s, "%s", cmd);
	stress_watch_run(s, s->run.duration > 0 ? stress_now() + s->run.duration : 0);
	rc = run_threads(s);
	stress_watch_end(s);
	/* Every path that gave up reported it: the verdict says so, and the status follows it. */
	if (rc == STRESS_EXIT_INTERNAL)
		stress_gave_up(s);
	return stress_verdict_exit(stress_verdict_of(s), stress_signal_number());
}
