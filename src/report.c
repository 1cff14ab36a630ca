// SPDX-License-Identifier: GPL-2.0
/*
 * Reporting: the header, progress lines, one verdict per run (text, or a
 * KTAP result with "# " diagnostics) and the JSON document (schema in
 * docs/stress-report.schema.json). In JSON mode stdout carries only the
 * document; progress and verdict lines go to stderr.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <hpcc_api.h>
#include "stress.h"

#ifndef HPCC_SOURCE
#define HPCC_SOURCE "unknown"
#endif

static FILE *human(const struct stress_config *cfg)
{
	return cfg->report == REPORT_JSON ? stderr : stdout;
}

/* "SIGINT", as the reports name the signal that stopped a run. */
static const char *signal_name(int sig)
{
	static char buf[16];
	const char *abbrev = sig ? sigabbrev_np(sig) : NULL;

	snprintf(buf, sizeof(buf), "SIG%s", abbrev ? abbrev : "?");
	return buf;
}

const char *stress_verdict(struct stress *s)
{
	if (s->internal_error)
		return "ERROR";
	if (atomic_load(&s->failed))
		return "FAIL";
	/* Stopped by a signal without a failure: it neither passed nor failed. */
	if (s->interrupted)
		return "INTERRUPTED";
	if (s->skipped)
		return "SKIP";
	return "PASS";
}

double stress_worst_margin(struct stress *s, const char **name)
{
	unsigned int i, n = atomic_load(&s->nr_margins);
	double w = 0;

	/* Also called while selectors run: only the atomic copy of each worst. */
	*name = "none";
	for (i = 0; i < n; i++) {
		double m = atomic_load_explicit(&s->margins[i].worst_fast, memory_order_relaxed);

		if (m > w || (i == 0 && m >= w)) {
			w = m;
			*name = s->margins[i].name;
		}
	}
	return w < 0 ? 0 : w;
}

void report_begin(const struct stress_config *cfg, unsigned int nr_runs, FILE *out)
{
	char dur[32];
	unsigned int i;

	stress_format_duration(cfg->duration, dur, sizeof(dur));
	if (cfg->report == REPORT_KTAP) {
		fprintf(out, "KTAP version 1\n");
		if (nr_runs)
			fprintf(out, "1..%u\n", nr_runs);
	}
	fprintf(human(cfg), "%sstress: hpcc-stress %s hpcc=%s cpus=%u batch=%lu seed=%llu "
		"selectors=%u duration=%s%s inject=%s stutter=%s rcu=%s%s scenarios=",
		cfg->report == REPORT_KTAP ? "# " : "", STRESS_VERSION, HPCC_SOURCE,
		cfg->nr_cpus, cfg->batch, cfg->seed, cfg->nr_selectors, dur,
		cfg->until_fail ? "(total) until-fail" : "", cfg->inject.text,
		cfg->stutter.text, cfg->rcu, cfg->no_check ? " no-check" : "");
	for (i = 0; i < cfg->nr_scenarios; i++)
		fprintf(human(cfg), "%s%s", i ? "," : "", cfg->scenarios[i]->name);
	fprintf(human(cfg), "\n");
	stress_out_flush(human(cfg));
}

void report_progress(struct stress *s, double t, unsigned long ops, double rate)
{
	const char *wn;
	double w = stress_worst_margin(s, &wn);
	FILE *out = human(s->cfg);

	fprintf(out, "%sstress: [%s] t=%.1fs ops=%lu ops/s=%.0f checks=%lu quiescent=%lu "
		"worst_margin=%.4f(%s)\n", s->cfg->report == REPORT_KTAP ? "# " : "",
		s->sc->name, t, ops, rate, atomic_load(&s->checks),
		atomic_load(&s->quiescent), w, wn);
	stress_out_flush(out);
}

static void verdict_line(struct stress *s, FILE *out)
{
	const char *wn;
	double w = stress_worst_margin(s, &wn);
	char dur[32];

	stress_format_duration(s->duration, dur, sizeof(dur));
	fprintf(out, "stress: %s %s cpus=%u seed=%llu batch=%lu duration=%s elapsed=%.2fs "
		"ops=%lu ops/s=%.0f checks=%lu quiescent=%lu worst_margin=%.4f(%s)",
		stress_verdict(s), s->sc->name, s->cfg->nr_cpus, s->seed, s->cfg->batch, dur,
		s->elapsed, s->ops, s->elapsed > 0 ? s->ops / s->elapsed : 0,
		atomic_load(&s->checks), atomic_load(&s->quiescent), w, wn);
	if (s->nr_failures)
		fprintf(out, " invariant=%s class=%s", s->failures[0].invariant,
			stress_class_name(s->failures[0].cls));
	if (s->interrupted)
		fprintf(out, " interrupted");
	if (s->skipped)
		fprintf(out, " checking=off");
	fprintf(out, "\n");
}

static void print_block(FILE *out, const char *text)
{
	const char *p = text, *nl;

	/* Every line of a block is a diagnostic. */
	while (p && *p) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		fprintf(out, "%s%.*s\n", p[0] == '#' ? "" : "# ", (int)(nl - p), p);
		p = *nl ? nl + 1 : nl;
	}
}

static void details(struct stress *s, FILE *out)
{
	unsigned int i, n = atomic_load(&s->nr_margins);

	for (i = 0; i < n; i++)
		fprintf(out, "# margin %s worst=%.4f used=%.6g bound=%.6g checks=%lu\n",
			s->margins[i].name, s->margins[i].worst < 0 ? 0 : s->margins[i].worst,
			s->margins[i].used, s->margins[i].bound,
			atomic_load(&s->margins[i].count));
	fprintf(out, "# stutter quiescent_points=%lu parking=%.3fs checking=%.3fs\n",
		atomic_load(&s->quiescent), s->park_time, s->quiescent_time);
	n = atomic_load(&s->nr_softs);
	for (i = 0; i < n; i++)
		fprintf(out, "# soft %s=%lu\n", s->softs[i].name, atomic_load(&s->softs[i].count));
	if (s->sc_text)
		print_block(out, s->sc_text);
	for (i = 0; i < s->nr_failures; i++) {
		struct stress_failure *f = &s->failures[i];

		fprintf(out, "# failure %u: invariant=%s class=%s cpu=%d: %s\n", i + 1,
			f->invariant, stress_class_name(f->cls), f->cpu, f->msg);
		if (f->excerpt && *f->excerpt) {
			fprintf(out, "# %s:\n", !strcmp(f->invariant, "watchdog") ?
				"thread states" : "flight recorder (oldest first)");
			print_block(out, f->excerpt);
		}
	}
	if (s->nr_fail_events > s->nr_failures)
		fprintf(out, "# ... and %lu more failure(s)\n",
			s->nr_fail_events - s->nr_failures);
	if (s->nr_failures)
		fprintf(out, "# reproduce: %s\n", s->reproducer);
}

void report_run(struct stress *s, unsigned int index, FILE *out)
{
	switch (s->cfg->report) {
	case REPORT_TEXT:
		details(s, out);
		verdict_line(s, out);
		break;
	case REPORT_KTAP:
		details(s, out);
		fprintf(out, "# ");
		verdict_line(s, out);
		if (!strcmp(stress_verdict(s), "INTERRUPTED"))
			fprintf(out, "ok %u %s # SKIP interrupted (%s)\n", index, s->sc->name,
				signal_name(stress_signalled));
		else if (s->skipped)
			fprintf(out, "ok %u %s # SKIP checking off\n", index, s->sc->name);
		else
			fprintf(out, "%sok %u %s\n", strcmp(stress_verdict(s), "PASS") ? "not " : "",
				index, s->sc->name);
		break;
	case REPORT_JSON:
		verdict_line(s, stderr);
		if (s->nr_failures)
			fprintf(stderr, "# reproduce: %s\n", s->reproducer);
		break;
	}
	stress_out_flush(out);
}

void report_not_run(const struct stress_config *cfg, const struct scenario *sc,
		    unsigned int index, FILE *out)
{
	if (cfg->report == REPORT_KTAP)
		fprintf(out, "ok %u %s # SKIP interrupted (%s) before it started\n", index,
			sc->name, signal_name(stress_signalled));
	else
		fprintf(human(cfg), "stress: INTERRUPTED %s not started\n", sc->name);
}

void report_summary_add(struct stress_summary *sum, struct stress *s)
{
	const char *v = stress_verdict(s);

	sum->runs++;
	if (!strcmp(v, "PASS"))
		sum->passed++;
	else if (!strcmp(v, "FAIL"))
		sum->failed++;
	else if (!strcmp(v, "SKIP") || !strcmp(v, "INTERRUPTED"))
		sum->skipped++;		/* as KTAP counts them: # SKIP */
	else
		sum->errors++;
	sum->interrupted |= s->interrupted;
}

void report_end(const struct stress_config *cfg, const struct stress_summary *sum,
		int status, FILE *out)
{
	const char *word = status == STRESS_EXIT_PASS ? "SUCCESS" :
			   status == STRESS_EXIT_FAIL ? "FAILURE" :
			   status > 128 ? "INTERRUPTED" : "ERROR";

	if (cfg->report == REPORT_JSON)
		out = stderr;
	fprintf(out, "%sstress: %s (%u run%s: %u passed, %u failed, %u skipped, %u error%s; "
		"%u scenario%s, cpus=%u seed=%llu%s; %.2fs)\n",
		cfg->report == REPORT_KTAP ? "# " : "", word, sum->runs, sum->runs == 1 ? "" : "s",
		sum->passed, sum->failed, sum->skipped, sum->errors, sum->errors == 1 ? "" : "s",
		cfg->nr_scenarios, cfg->nr_scenarios == 1 ? "" : "s", cfg->nr_cpus, cfg->seed,
		sum->interrupted ? ", interrupted" : "", sum->elapsed);
	fflush(out);
}

/* --- JSON --- */

static void json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; s && *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void json_num(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, "%.9g", v);
	else
		fputs("null", out);
}

void report_json_begin(const struct stress_config *cfg, FILE *out)
{
	unsigned int i;

	fprintf(out, "{\"tool\":\"hpcc-stress\",\"version\":\"%s\",\"hpcc_source\":",
		STRESS_VERSION);
	json_str(out, HPCC_SOURCE);
	fprintf(out, ",\"hpcc_api\":");
	json_str(out, HPCC_API_DESC);
	fprintf(out, ",\"config\":{\"cpus\":%u,\"batch\":%lu,\"selectors\":%u,\"seed\":%llu,"
		"\"duration_s\":", cfg->nr_cpus, cfg->batch, cfg->nr_selectors, cfg->seed);
	json_num(out, cfg->duration);
	fprintf(out, ",\"inject\":{\"hop\":");
	json_num(out, cfg->inject.hop);
	fprintf(out, ",\"delay\":");
	json_num(out, cfg->inject.delay);
	fprintf(out, ",\"yield\":");
	json_num(out, cfg->inject.yield);
	fprintf(out, "},\"stutter\":");
	json_str(out, cfg->stutter.text);
	fprintf(out, ",\"rcu\":");
	json_str(out, cfg->rcu);
	fprintf(out, ",\"until_fail\":%s,\"checking\":%s,\"scenarios\":[",
		cfg->until_fail ? "true" : "false", cfg->no_check ? "false" : "true");
	for (i = 0; i < cfg->nr_scenarios; i++) {
		fprintf(out, "%s", i ? "," : "");
		json_str(out, cfg->scenarios[i]->name);
	}
	fprintf(out, "]},\"runs\":[");
}

void report_json_run(struct stress *s, bool first, FILE *out)
{
	unsigned int i, n;
	const char *wn;
	double w = stress_worst_margin(s, &wn);

	fprintf(out, "%s{\"scenario\":", first ? "" : ",");
	json_str(out, s->sc->name);
	fprintf(out, ",\"verdict\":\"%s\",\"seed\":%llu,\"cpus\":%u,\"batch\":%lu,"
		"\"duration_s\":", stress_verdict(s), s->seed, s->cfg->nr_cpus, s->cfg->batch);
	json_num(out, s->duration);
	fprintf(out, ",\"elapsed_s\":");
	json_num(out, s->elapsed);
	fprintf(out, ",\"interrupted\":%s,\"ops\":%lu,\"ops_per_s\":",
		s->interrupted ? "true" : "false", s->ops);
	json_num(out, s->elapsed > 0 ? s->ops / s->elapsed : 0);
	fprintf(out, ",\"checks\":%lu,\"quiescent\":%lu,\"worst_margin\":",
		atomic_load(&s->checks), atomic_load(&s->quiescent));
	json_num(out, w);
	fprintf(out, ",\"worst_invariant\":");
	json_str(out, wn);
	fprintf(out, ",\"margins\":[");
	n = atomic_load(&s->nr_margins);
	for (i = 0; i < n; i++) {
		fprintf(out, "%s{\"invariant\":", i ? "," : "");
		json_str(out, s->margins[i].name);
		fprintf(out, ",\"worst\":");
		json_num(out, s->margins[i].worst < 0 ? 0 : s->margins[i].worst);
		fprintf(out, ",\"used\":");
		json_num(out, s->margins[i].used);
		fprintf(out, ",\"bound\":");
		json_num(out, s->margins[i].bound);
		fprintf(out, ",\"checks\":%lu}", atomic_load(&s->margins[i].count));
	}
	fprintf(out, "],\"soft\":[");
	n = atomic_load(&s->nr_softs);
	for (i = 0; i < n; i++) {
		fprintf(out, "%s{\"event\":", i ? "," : "");
		json_str(out, s->softs[i].name);
		fprintf(out, ",\"count\":%lu}", atomic_load(&s->softs[i].count));
	}
	fprintf(out, "],\"failures\":[");
	for (i = 0; i < s->nr_failures; i++) {
		struct stress_failure *f = &s->failures[i];

		fprintf(out, "%s{\"invariant\":", i ? "," : "");
		json_str(out, f->invariant);
		fprintf(out, ",\"class\":");
		json_str(out, stress_class_name(f->cls));
		fprintf(out, ",\"cpu\":%d,\"message\":", f->cpu);
		json_str(out, f->msg);
		fprintf(out, ",\"flight_recorder\":");
		json_str(out, f->excerpt ? f->excerpt : "");
		fprintf(out, ",\"reproducer\":");
		json_str(out, s->reproducer);
		fprintf(out, "}");
	}
	fprintf(out, "],\"failure_events\":%lu,\"reproducer\":", s->nr_fail_events);
	json_str(out, s->reproducer);
	fprintf(out, ",\"scenario_data\":{\"name\":");
	json_str(out, s->sc->name);
	if (s->sc_json)
		fputs(s->sc_json, out);
	fprintf(out, "}}");
}

void report_json_end(int status, int signo, const struct scenario *const *not_run,
		     unsigned int nr_not_run, FILE *out)
{
	unsigned int i;

	fprintf(out, "],\"interrupted\":");
	if (signo) {
		fprintf(out, "{\"signal\":");
		json_str(out, signal_name(signo));
		fprintf(out, ",\"not_run\":[");
		for (i = 0; i < nr_not_run; i++) {
			fprintf(out, "%s", i ? "," : "");
			json_str(out, not_run[i]->name);
		}
		fprintf(out, "]}");
	} else {
		fprintf(out, "null");
	}
	fprintf(out, ",\"exit_status\":%d}\n", status);
	stress_out_flush(out);
}
