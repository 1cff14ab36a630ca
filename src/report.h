/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.c: progress lines and one invocation's report (text, KTAP, JSON).
 */
#ifndef _STRESS_REPORT_H
#define _STRESS_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include "run.h"

void report_progress(struct stress *s, double t, unsigned long ops, double rate);
/*
 * A line for people written outside the report goes to report_human()
 * (stderr when stdout is the JSON document) and starts with report_diag()
 * ("# " in KTAP, where it is a diagnostic).
 */
FILE *report_human(const struct stress_config *cfg);
const char *report_diag(const struct stress_config *cfg);
/* The runs of one invocation, for the closing line. */
struct stress_summary {
	unsigned int runs, passed, failed, skipped, errors;
	unsigned int not_run;		/* planned, never started (a signal) */
	unsigned int by_class[NR_FAIL_CLASSES];	/* failed or errored runs per class */
	bool interrupted;
	double elapsed;
};
/*
 * One invocation's report, wherever it goes: text or KTAP on @out (human
 * lines on @err in JSON mode), the JSON document kept in memory and, at
 * the end, written to stdout (JSON mode) and to --json FILE. Callers fill
 * the public fields, then begin, one run() per result, end once.
 */
struct report_sink {
	const struct stress_config *cfg;
	FILE *out, *err;
	double t0;			/* for the closing line's elapsed time */
	struct stress_summary sum;	/* may start from an earlier tally */
	bool replay;	/* the outcome line speaks: a closing line in KTAP only */
	/*
	 * The watchdog's last report: the exit status is decided, so nothing
	 * is checked; no header, no verdict line in JSON mode, and the JSON
	 * document goes to @out (not --json FILE) in JSON mode.
	 */
	bool forced;
	/* The sink's own: the JSON document so far. */
	FILE *body;
	char *body_buf;
	size_t body_len;
};
/* 0, or -1 (no memory); the header unless forced (@nr_runs: the KTAP plan). */
int report_sink_begin(struct report_sink *k, unsigned int nr_runs);
void report_sink_run(struct report_sink *k, struct stress *s);
/* A scenario a signal left unstarted: its KTAP result (# SKIP) or text line. */
void report_sink_not_run(struct report_sink *k, const struct scenario *sc);
/*
 * The closing line, then the JSON document, whose "interrupted" names
 * @signo (0: null) and the scenarios @not_run; returns @status, or
 * STRESS_EXIT_INTERNAL if an output failed.
 */
int report_sink_end(struct report_sink *k, int status, int signo,
		    const struct scenario *const *not_run, unsigned int nr_not_run);
double stress_worst_margin(struct stress *s, const char **name);

#endif /* _STRESS_REPORT_H */
