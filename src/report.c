// SPDX-License-Identifier: GPL-2.0
/*
 * Reporting: the header, progress lines, one verdict per run (text, or a
 * KTAP result with "# " diagnostics, through the suite's KTAP writer) and
 * the JSON document (the suite's JSON writer; schema in
 * docs/stress-report.schema.json), then the closing line. In JSON mode
 * stdout carries only the document; progress and verdict lines go to
 * stderr.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hpcc_api.h>
#include "util/json.h"
#include "util/ktap.h"
#include "config.h"
#include "engine.h"
#include "output.h"
#include "parse.h"
#include "report.h"
#include "run.h"
#include "signals.h"
#include "verdict.h"

#ifndef HPCC_SOURCE
#define HPCC_SOURCE "unknown"
#endif

/*
 * What differs between the stdout formats (--report), one table each
 * below: the pieces of a report in that format. Nothing outside them
 * tests the format.
 */
struct report_ops {
	/* stdout carries the JSON document: lines for people go to stderr */
	bool document;
	/* before a line for people written outside the report ("# ": KTAP) */
	const char *diag;
	/* a replay's outcome line speaks for it: the closing line too? */
	bool closing_in_replay;
	/* the watchdog's last report: the verdict line too? */
	bool run_when_forced;
	/* the document's start (KTAP: version and plan); may be NULL */
	void (*begin)(FILE *out, unsigned int nr_runs);
	/* a line for people on @out */
	void (*line)(FILE *out, const char *text);
	/* one run's result, @line its verdict line */
	void (*run)(struct stress *s, const char *line, FILE *out, FILE *err);
	/* a scenario a signal left unstarted */
	void (*not_run)(const struct scenario *sc, FILE *out, FILE *err);
	/* before the closing line (KTAP: the plan's rest and the totals); may be NULL */
	void (*end)(const struct stress_config *cfg, const struct stress_summary *sum,
		    unsigned int *not_run, FILE *out);
};

static const struct report_ops *ops_of(const struct stress_config *cfg);

FILE *report_human(const struct stress_config *cfg)
{
	return ops_of(cfg)->document ? stderr : stdout;
}

const char *report_diag(const struct stress_config *cfg)
{
	return ops_of(cfg)->diag;
}

double stress_worst_margin(struct stress *s, const char **name)
{
	unsigned int i, n = atomic_load(&s->tally.nr_margins);
	double w = 0;

	/* Also called while selectors run: only the atomic copy of each worst. */
	*name = "none";
	for (i = 0; i < n; i++) {
		double m = atomic_load_explicit(&s->tally.margins[i].worst_fast,
						memory_order_relaxed);

		if (m > w || (i == 0 && m >= w)) {
			w = m;
			*name = s->tally.margins[i].name;
		}
	}
	return w < 0 ? 0 : w;
}

/* One KTAP document and one JSON document per process. */
static struct ktap kt;
static struct json jw;

/*
 * The KTAP document continues on @out (the watchdog's forced report writes
 * to its own copy of stdout; the numbering carries on).
 */
static struct ktap *ktap_on(FILE *out)
{
	kt.out = out;
	kt.flush = stress_out_flush;	/* a failed write is told once, with its errno */
	return &kt;
}

/* A line for people on @out: a KTAP diagnostic in KTAP mode, else plain text. */
static void human_line(const struct stress_config *cfg, FILE *out, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void human_line(const struct stress_config *cfg, FILE *out, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	ops_of(cfg)->line(out, buf);
	stress_out_flush(out);
}

/* Counts kept as doubles (margins' used/bound) print as exact integers. */
static const char *num_text(double v, char *buf, size_t len)
{
	if (isfinite(v) && v == trunc(v) && fabs(v) < 9007199254740992.0)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.6g", v);
	return buf;
}

static void report_begin(const struct stress_config *cfg, unsigned int nr_runs, FILE *out,
			 FILE *hum)
{
	char dur[32], names[1024] = "";
	unsigned int i;
	size_t n;

	stress_format_duration(cfg->duration, dur, sizeof(dur));
	/* --until-fail: the number of runs is not known; KTAP allows no plan. */
	if (ops_of(cfg)->begin)
		ops_of(cfg)->begin(out, nr_runs);
	for (i = 0; i < cfg->nr_scenarios; i++) {
		n = strlen(names);
		snprintf(names + n, sizeof(names) - n, "%s%s", i ? "," : "",
			 cfg->scenarios[i]->name);
	}
	human_line(cfg, hum, "stress: hpcc-stress %s hpcc=%s cpus=%u batch=%lu seed=%llu "
		   "selectors=%u%s duration=%s%s inject=%s stutter=%s hotplug=%s rcu=%s pcpu-ops=%s%s "
		   "scenarios=%s",
		   STRESS_VERSION, HPCC_SOURCE, cfg->nr_cpus, cfg->batch, cfg->seed,
		   cfg->nr_selectors, cfg->no_check ? "(no-check)" : "", dur,
		   cfg->until_fail ? "(total) until-fail" : "",
		   cfg->inject.text, cfg->stutter.text, cfg->hotplug_text, cfg->rcu,
		   kc_pcpu_ops_name(cfg->pcpu_ops), cfg->no_check ? " no-check" : "",
		   names);
	stress_out_flush(hum);
}

void report_progress(struct stress *s, double t, unsigned long ops, double rate)
{
	const char *wn;
	double w = stress_worst_margin(s, &wn);

	human_line(s->run.cfg, report_human(s->run.cfg), "stress: [%s] t=%.1fs ops=%lu ops/s=%.0f "
		   "checks=%lu quiescent=%lu worst_margin=%.4f(%s)", s->run.sc->name, t, ops, rate,
		   atomic_load(&s->tally.checks),
		   atomic_load(&s->res.quiescent), w, wn);
	stress_out_flush(report_human(s->run.cfg));
}

/*
 * A measured time with three significant digits at least (elapsed=0.000412s
 * for a 1 ms run, not 0.00s), in plain decimal for the scripts that read it.
 */
static const char *secs_text(double v, char *buf, size_t len)
{
	int d = 2;

	if (v > 0 && v < 1)
		d = 2 - (int)floor(log10(v));
	snprintf(buf, len, "%.*f", d > 9 ? 9 : d, v);
	return buf;
}

/*
 * ops/s, when the window can carry a rate: one of at least 1 ms that saw
 * the operations a run needs to be judged (stress_min_ops). Else none.
 */
static bool run_rate(struct stress *s, double *rate)
{
	if (s->res.elapsed < 1e-3 || s->res.ops < stress_min_ops(s->run.cfg))
		return false;
	*rate = s->res.ops / s->res.elapsed;
	return true;
}

static void verdict_line(struct stress *s, char *buf, size_t len)
{
	const char *wn;
	double w = stress_worst_margin(s, &wn), rate;
	char dur[32], el[32], rt[32] = "-";
	int n;

	if (s->res.skip_why) {
		snprintf(buf, len, "stress: SKIP %s: %s", s->run.sc->name, s->res.skip_why);
		return;
	}
	stress_format_duration(s->run.duration, dur, sizeof(dur));
	if (run_rate(s, &rate))
		snprintf(rt, sizeof(rt), "%.0f", rate);
	n = snprintf(buf, len, "stress: %s %s cpus=%u seed=%llu batch=%lu duration=%s "
		     "elapsed=%ss startup=%.2fs ops=%lu ops/s=%s checks=%lu quiescent=%lu "
		     "worst_margin=%.4f(%s)%s%s%s%s%s%s", stress_verdict(s), s->run.sc->name,
		     s->run.cfg->nr_cpus, s->run.seed, s->run.cfg->batch, dur,
		     secs_text(s->res.elapsed, el, sizeof(el)), s->res.startup, s->res.ops, rt,
		     atomic_load(&s->tally.checks),
		     atomic_load(&s->res.quiescent), w, wn,
		     s->tally.nr_failures ? " invariant=" : "",
		     s->tally.nr_failures ? s->tally.failures[0].invariant : "",
		     s->tally.nr_failures ? " class=" : "",
		     s->tally.nr_failures ? stress_class_name(s->tally.failures[0].cls) : "",
		     s->res.interrupted ? " interrupted" : "",
		     s->res.skipped ? " checking=off" : "");
	known_verdict(s, buf, len, n);
}

static void details(struct stress *s, FILE *out)
{
	const struct run_tally *t = &s->tally;
	unsigned int i, n = atomic_load(&t->nr_margins);
	char u[40], b[40];

	for (i = 0; i < n; i++)
		fprintf(out, "# margin %s worst=%.4f used=%s bound=%s checks=%lu\n",
			t->margins[i].name, t->margins[i].worst < 0 ? 0 : t->margins[i].worst,
			num_text(t->margins[i].used, u, sizeof(u)),
			num_text(t->margins[i].bound, b, sizeof(b)),
			atomic_load(&t->margins[i].count));
	fprintf(out, "# stutter quiescent_points=%lu parking=%.3fs checking=%.3fs\n",
		atomic_load(&s->res.quiescent), s->workers.park_time, s->workers.quiescent_time);
	n = atomic_load(&t->nr_softs);
	for (i = 0; i < n; i++)
		fprintf(out, "# soft %s=%lu\n", t->softs[i].name, atomic_load(&t->softs[i].count));
	if (s->res.sc_text)
		fputs(s->res.sc_text, out);
	known_report(s, out);
	for (i = 0; i < s->tally.nr_failures; i++) {
		const struct stress_failure *f = &s->tally.failures[i];

		fprintf(out, "# failure %u: invariant=%s class=%s cpu=%d: %s\n", i + 1,
			f->invariant, stress_class_name(f->cls), f->cpu, f->msg);
		if (f->excerpt && *f->excerpt) {
			fprintf(out, "# %s:\n%s\n", !strcmp(f->invariant, "watchdog") ?
				"thread states" : "flight recorder (oldest first)", f->excerpt);
		}
	}
	if (s->tally.nr_fail_events > s->tally.nr_failures)
		fprintf(out, "# ... and %lu more failure(s)\n",
			s->tally.nr_fail_events - s->tally.nr_failures);
	if (s->tally.nr_failures)
		fprintf(out, "# reproduce: %s\n", s->run.reproducer);
}

/*
 * The details as a block of diagnostics: every line starts with "# ",
 * through the KTAP writer if @ktap.
 */
static void details_block(struct stress *s, FILE *out, bool ktap)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return;
	details(s, m);
	fclose(m);
	if (ktap) {
		ktap_diag_block(ktap_on(out), buf);
	} else {
		const char *p = buf, *nl;

		while (*p) {
			nl = strchr(p, '\n');
			if (!nl)
				nl = p + strlen(p);
			fprintf(out, "%s%.*s\n", p[0] == '#' ? "" : "# ", (int)(nl - p), p);
			p = *nl ? nl + 1 : nl;
		}
	}
	free(buf);
}

/* --- text: the details, then the verdict line --- */

static void text_line(FILE *out, const char *text)
{
	fprintf(out, "%s\n", text);
}

static void text_run(struct stress *s, const char *line, FILE *out, FILE *err)
{
	if (!s->res.skip_why)
		details_block(s, out, false);
	text_line(out, line);
}

static void text_not_run(const struct scenario *sc, FILE *out, FILE *err)
{
	fprintf(out, "stress: INTERRUPTED %s not started\n", sc->name);
}

/* --- KTAP: lines for people as diagnostics, one result per run --- */

static void ktap_open(FILE *out, unsigned int nr_runs)
{
	ktap_begin(&kt, out, nr_runs);
}

static void ktap_line(FILE *out, const char *text)
{
	if (kt.out)
		ktap_diag(ktap_on(out), "%s", text);
	else
		text_line(out, text);
}

static void ktap_run(struct stress *s, const char *line, FILE *out, FILE *err)
{
	char reason[192];
	const char *why;

	if (!s->res.skip_why)
		details_block(s, out, kt.out != NULL);
	ktap_diag(ktap_on(out), "%s", line);
	why = stress_verdict_reason(s, stress_signal_number(), reason, sizeof(reason));
	ktap_result(ktap_on(out), stress_verdict_info(stress_verdict_of(s))->ktap,
		    s->run.sc->name, why ? "%s" : NULL, why);
}

/* A scenario a signal left unstarted: # SKIP. */
static void ktap_not_run(const struct scenario *sc, FILE *out, FILE *err)
{
	ktap_result(ktap_on(out), KTAP_SKIP, sc->name, "interrupted (%s) before it started",
		    stress_signal_name(stress_signal_number()));
}

/* Planned runs that never started keep the plan whole; then the totals. */
static void ktap_close(const struct stress_config *cfg, const struct stress_summary *sum,
		       unsigned int *not_run, FILE *out)
{
	unsigned int i;
	char extra[96];

	if (!kt.out)
		return;
	for (i = ktap_nr(&kt); kt.lvl[0].plan && i < kt.lvl[0].plan; i++, (*not_run)++)
		ktap_result(ktap_on(out), KTAP_SKIP,
			    cfg->scenarios[i % cfg->nr_scenarios]->name, "%s",
			    stress_interrupted() || sum->interrupted ?
			    "interrupted before it started" : "not run: the run stopped early");
	snprintf(extra, sizeof(extra), FAIL_CLASS_TOTALS,
		 FAIL_CLASS_TOTALS_ARGS(sum->by_class));
	ktap_end(ktap_on(out), extra);
}

/* --- JSON: stdout is the document; people read stderr --- */

static void json_run_line(struct stress *s, const char *line, FILE *out, FILE *err)
{
	fprintf(err, "%s\n", line);
	if (s->tally.nr_failures)
		fprintf(err, "# reproduce: %s\n", s->run.reproducer);
}

/* The text line, on stderr. */
static void json_not_run(const struct scenario *sc, FILE *out, FILE *err)
{
	text_not_run(sc, err, out);
}

static const struct report_ops report_formats[] = {
	[REPORT_TEXT] = {
		.diag = "", .run_when_forced = true,
		.line = text_line, .run = text_run, .not_run = text_not_run,
	},
	[REPORT_KTAP] = {
		.diag = "# ", .closing_in_replay = true, .run_when_forced = true,
		.begin = ktap_open, .line = ktap_line, .run = ktap_run,
		.not_run = ktap_not_run, .end = ktap_close,
	},
	[REPORT_JSON] = {
		.document = true, .diag = "",
		.line = text_line, .run = json_run_line, .not_run = json_not_run,
	},
};

static const struct report_ops *ops_of(const struct stress_config *cfg)
{
	return &report_formats[cfg->report];
}

static void report_run(struct stress *s, FILE *out, FILE *err)
{
	char line[1024];

	verdict_line(s, line, sizeof(line));
	ops_of(s->run.cfg)->run(s, line, out, err);
	stress_out_flush(out);
}

/* "stress: SUCCESS (...)" / "stress: FAILURE (...)", like rcutorture's last line. */
static void report_end(const struct stress_config *cfg, const struct stress_summary *sum,
		       int status, FILE *out)
{
	unsigned int not_run = sum->not_run;
	char tail[32] = "";
	const char *word = status == STRESS_EXIT_PASS ? "SUCCESS" :
			   status == STRESS_EXIT_FAIL ? "FAILURE" :
			   status == STRESS_EXIT_INCOMPLETE ? "INCOMPLETE" :
			   status > 128 ? "INTERRUPTED" : "ERROR";

	if (ops_of(cfg)->end)
		ops_of(cfg)->end(cfg, sum, &not_run, out);
	if (not_run)
		snprintf(tail, sizeof(tail), ", %u not run", not_run);
	human_line(cfg, out, "stress: %s (%u run%s: %u passed, %u failed, %u skipped, %u error%s%s; "
		   "%u scenario%s, cpus=%u seed=%llu%s; %.2fs)", word, sum->runs,
		   sum->runs == 1 ? "" : "s", sum->passed, sum->failed, sum->skipped, sum->errors,
		   sum->errors == 1 ? "" : "s", tail, cfg->nr_scenarios, cfg->nr_scenarios == 1 ? "" : "s",
		   cfg->nr_cpus, cfg->seed, sum->interrupted ? ", interrupted" : "", sum->elapsed);
}

/* --- JSON (lib/util/json.h: integers exact, seeds as decimal strings) --- */

static void report_json_begin(const struct stress_config *cfg, FILE *out)
{
	unsigned int i;

	json_init(&jw, out);
	json_obj_begin(&jw);
	json_kstr(&jw, "tool", "hpcc-stress");
	json_kstr(&jw, "version", STRESS_VERSION);
	json_kstr(&jw, "hpcc_source", HPCC_SOURCE);
	json_kstr(&jw, "hpcc_api", HPCC_API_DESC);
	json_kobj_begin(&jw, "config");
	json_ku64(&jw, "cpus", cfg->nr_cpus);
	json_ku64(&jw, "batch", cfg->batch);
	json_ku64(&jw, "selectors", cfg->nr_selectors);
	json_kseed(&jw, "seed", cfg->seed);
	json_kdouble(&jw, "duration_s", cfg->duration);
	json_kobj_begin(&jw, "inject");
	json_kdouble(&jw, "hop", cfg->inject.hop);
	json_kdouble(&jw, "delay", cfg->inject.delay);
	json_kdouble(&jw, "yield", cfg->inject.yield);
	json_obj_end(&jw);
	json_kstr(&jw, "stutter", cfg->stutter.text);
	json_kstr(&jw, "hotplug", cfg->hotplug_text);
	json_kstr(&jw, "rcu", cfg->rcu);
	json_kstr(&jw, "pcpu_ops", kc_pcpu_ops_name(cfg->pcpu_ops));
	json_kbool(&jw, "until_fail", cfg->until_fail);
	json_kbool(&jw, "checking", !cfg->no_check);
	json_karr_begin(&jw, "scenarios");
	for (i = 0; i < cfg->nr_scenarios; i++)
		json_str(&jw, cfg->scenarios[i]->name);
	json_arr_end(&jw);
	json_obj_end(&jw);
	json_karr_begin(&jw, "runs");
}

static void report_json_run(struct stress *s)
{
	unsigned int i, n;
	const char *wn;
	double w = stress_worst_margin(s, &wn), rate;

	json_obj_begin(&jw);
	json_kstr(&jw, "scenario", s->run.sc->name);
	json_kstr(&jw, "verdict", stress_verdict(s));
	json_kseed(&jw, "seed", s->run.seed);
	json_ku64(&jw, "cpus", s->run.cfg->nr_cpus);
	json_ku64(&jw, "batch", s->run.cfg->batch);
	json_kdouble(&jw, "duration_s", s->run.duration);
	json_kdouble(&jw, "elapsed_s", s->res.elapsed);
	json_kdouble(&jw, "startup_s", s->res.startup);
	json_key(&jw, "run_cpu_s");	/* null: no threads ran (a serial replay) */
	if (s->res.run_cpu_known)
		json_double(&jw, s->res.run_cpu);
	else
		json_null(&jw);
	json_kbool(&jw, "interrupted", s->res.interrupted);
	json_ku64(&jw, "ops", s->res.ops);
	if (run_rate(s, &rate)) {
		json_kdouble(&jw, "ops_per_s", rate);
	} else {
		json_key(&jw, "ops_per_s");
		json_null(&jw);		/* a window too short to carry a rate */
	}
	json_ku64(&jw, "checks", atomic_load(&s->tally.checks));
	json_ku64(&jw, "quiescent", atomic_load(&s->res.quiescent));
	json_kdouble(&jw, "worst_margin", w);
	json_kstr(&jw, "worst_invariant", wn);
	json_karr_begin(&jw, "margins");
	n = atomic_load(&s->tally.nr_margins);
	for (i = 0; i < n; i++) {
		json_obj_begin(&jw);
		json_kstr(&jw, "invariant", s->tally.margins[i].name);
		json_kdouble(&jw, "worst",
			     s->tally.margins[i].worst < 0 ? 0 : s->tally.margins[i].worst);
		json_kdouble(&jw, "used", s->tally.margins[i].used);
		json_kdouble(&jw, "bound", s->tally.margins[i].bound);
		json_ku64(&jw, "checks", atomic_load(&s->tally.margins[i].count));
		json_obj_end(&jw);
	}
	json_arr_end(&jw);
	json_karr_begin(&jw, "soft");
	n = atomic_load(&s->tally.nr_softs);
	for (i = 0; i < n; i++) {
		json_obj_begin(&jw);
		json_kstr(&jw, "event", s->tally.softs[i].name);
		json_ku64(&jw, "count", atomic_load(&s->tally.softs[i].count));
		json_obj_end(&jw);
	}
	json_arr_end(&jw);
	json_karr_begin(&jw, "failures");
	for (i = 0; i < s->tally.nr_failures; i++) {
		const struct stress_failure *f = &s->tally.failures[i];

		json_obj_begin(&jw);
		json_kstr(&jw, "invariant", f->invariant);
		json_kstr(&jw, "class", stress_class_name(f->cls));
		json_ki64(&jw, "cpu", f->cpu);
		json_kstr(&jw, "message", f->msg);
		json_kstr(&jw, "flight_recorder", f->excerpt ? f->excerpt : "");
		json_kstr(&jw, "reproducer", s->run.reproducer);
		json_obj_end(&jw);
	}
	json_arr_end(&jw);
	json_ku64(&jw, "failure_events", s->tally.nr_fail_events);
	known_report_json(s, &jw);
	json_kstr(&jw, "reproducer", s->run.reproducer);
	json_kobj_begin(&jw, "scenario_data");
	json_kstr(&jw, "name", s->run.sc->name);
	/* Members the scenario wrote with the same writer (stress_capture_reports). */
	if (s->res.sc_json)
		fputs(s->res.sc_json, jw.f);
	json_obj_end(&jw);
	json_obj_end(&jw);
}

/*
 * The document's end: "interrupted" names @signo (0: null) and the
 * scenarios @not_run; "exit_status" is @status.
 */
static void report_json_end(int status, int signo, const struct scenario *const *not_run,
			    unsigned int nr_not_run)
{
	unsigned int i;

	json_arr_end(&jw);
	if (signo) {
		json_kobj_begin(&jw, "interrupted");
		json_kstr(&jw, "signal", stress_signal_name(signo));
		json_karr_begin(&jw, "not_run");
		for (i = 0; i < nr_not_run; i++)
			json_str(&jw, not_run[i]->name);
		json_arr_end(&jw);
		json_obj_end(&jw);
	} else {
		json_key(&jw, "interrupted");
		json_null(&jw);
	}
	json_ki64(&jw, "exit_status", status);
	json_obj_end(&jw);
	json_finish(&jw);
	fflush(jw.f);
}

/* --- The sink: each report's pieces, in order, from one place --- */

/* Where the sink's lines for people go. */
static FILE *sink_human(const struct report_sink *k)
{
	return ops_of(k->cfg)->document ? k->err : k->out;
}

int report_sink_begin(struct report_sink *k, unsigned int nr_runs)
{
	const struct stress_config *cfg = k->cfg;

	if (cfg->json_file || ops_of(cfg)->document) {
		k->body = open_memstream(&k->body_buf, &k->body_len);
		if (!k->body)
			return -1;
		report_json_begin(cfg, k->body);
	}
	if (!k->forced)
		report_begin(cfg, nr_runs, k->out, sink_human(k));
	return 0;
}

void report_sink_run(struct report_sink *k, struct stress *s)
{
	if (!k->forced || ops_of(k->cfg)->run_when_forced)
		report_run(s, k->out, k->err);
	stress_verdict_tally(&k->sum, s);
	if (k->body)
		report_json_run(s);
}

void report_sink_not_run(struct report_sink *k, const struct scenario *sc)
{
	ops_of(k->cfg)->not_run(sc, k->out, k->err);
	k->sum.not_run++;
}

/* The JSON document, complete: to stdout in JSON mode, to --json FILE. */
static int sink_document(struct report_sink *k, int status, int signo,
			 const struct scenario *const *not_run, unsigned int nr_not_run)
{
	const struct stress_config *cfg = k->cfg;

	if (!k->body)
		return status;
	report_json_end(status, signo, not_run, nr_not_run);
	fclose(k->body);
	k->body = NULL;
	if (k->forced) {
		/* Best effort, both: the process exits right after. */
		if (ops_of(cfg)->document) {
			fwrite(k->body_buf, 1, k->body_len, k->out);
			fflush(k->out);
		}
		if (cfg->json_out && stress_out_save(cfg->json_out, k->body_buf, k->body_len))
			status = STRESS_EXIT_INTERNAL;
	} else {
		if (ops_of(cfg)->document) {
			stress_out_write(k->out, "stdout", k->body_buf, k->body_len);
			if (!stress_out_check(k->out, "stdout"))
				status = STRESS_EXIT_INTERNAL;
		}
		if (cfg->json_out && stress_out_save(cfg->json_out, k->body_buf, k->body_len))
			status = STRESS_EXIT_INTERNAL;
	}
	free(k->body_buf);
	k->body_buf = NULL;
	return status;
}

int report_sink_end(struct report_sink *k, int status, int signo,
		    const struct scenario *const *not_run, unsigned int nr_not_run)
{
	const struct stress_config *cfg = k->cfg;
	FILE *human = sink_human(k);

	k->sum.elapsed = stress_now() - k->t0;
	if (k->forced) {
		/* The document first: it is the report; the closing line follows. */
		status = sink_document(k, status, signo, not_run, nr_not_run);
		report_end(cfg, &k->sum, status, human);
		return status;
	}
	k->sum.interrupted |= signo != 0;
	if (!k->replay || ops_of(cfg)->closing_in_replay)
		report_end(cfg, &k->sum, status, human);
	/* stdout is checked before the JSON says what the exit status is. */
	if (!stress_out_check(k->out, "stdout"))
		status = STRESS_EXIT_INTERNAL;
	return sink_document(k, status, signo, not_run, nr_not_run);
}
