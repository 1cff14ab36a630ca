// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of ./stress's verdicts (src/verdict.c through src/report.c's
 * sink): for every combination of what a run can have set (an internal
 * error, a failure, starvation, a signal) with and without --no-check, in
 * each report kind, the text verdict, the KTAP result, the JSON verdict and
 * the exit status agree with the rule of docs/stress.md (worst first: 3,
 * 1, 4, 128 + signal, 0), a failing run is "not ok" whatever else is set,
 * the KTAP reason is one that KTAP readers take as a reason, and the totals
 * agree with the result.
 */
#include <ctype.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include "ktap.h"
#include "config.h"
#include "report.h"
#include "run.h"
#include "signals.h"
#include "verdict.h"

enum { F_ERROR = 1, F_FAIL = 2, F_STARVED = 4, F_SIGNAL = 8, NR_MASKS = 16 };

static const struct scenario sc = { .name = "verdict_case" };

/* What the run must be called, from the rule alone (not from the code under test). */
static const char *expected_word(unsigned int mask, bool no_check, int *exit_status)
{
	if (mask & F_ERROR)
		return *exit_status = 3, "ERROR";
	if (mask & F_FAIL)
		return *exit_status = 1, "FAIL";
	if (mask & F_STARVED)
		return *exit_status = 4, "INCOMPLETE";
	if (mask & F_SIGNAL)
		return *exit_status = 128 + SIGTERM, "INTERRUPTED";
	*exit_status = 0;
	return no_check ? "SKIP" : "PASS";
}

static const char *closing_word(int status)
{
	return status == 0 ? "SUCCESS" : status == 1 ? "FAILURE" : status == 4 ? "INCOMPLETE" :
	       status > 128 ? "INTERRUPTED" : "ERROR";
}

struct doc {
	char *out, *err;
	size_t out_len, err_len;
	int status;
};

/* One invocation's report of one run with @mask set, as run_all() makes it. */
static void report_one(unsigned int mask, bool no_check, enum stress_report_fmt fmt,
		       struct doc *d)
{
	static struct stress_config cfg;
	struct stress *s = calloc(1, sizeof(*s));
	FILE *out = open_memstream(&d->out, &d->out_len);
	FILE *err = open_memstream(&d->err, &d->err_len);
	struct report_sink k = { .cfg = &cfg, .out = out, .err = err };

	memset(&cfg, 0, sizeof(cfg));
	cfg.argv0 = "./stress";
	cfg.nr_cpus = 4;
	cfg.batch = 32;
	cfg.rcu = "memb";
	cfg.no_check = no_check;
	cfg.report = fmt;
	cfg.scenarios[0] = &sc;
	cfg.nr_scenarios = 1;
	s->run.cfg = &cfg;
	s->run.sc = &sc;
	s->run.index = 1;
	s->res.skipped = no_check;		/* as the engine sets it */
	s->res.internal_error = mask & F_ERROR;
	s->res.starved = mask & F_STARVED;
	s->res.interrupted = mask & F_SIGNAL;
	if (mask & F_FAIL) {
		atomic_store(&s->tally.failed, true);
		s->tally.nr_failures = s->tally.nr_fail_events = 1;
		snprintf(s->tally.failures[0].invariant, sizeof(s->tally.failures[0].invariant),
			 "watchdog");
		s->tally.failures[0].cls = STRESS_CRASH;
		snprintf(s->tally.failures[0].msg, sizeof(s->tally.failures[0].msg), "planted");
	}
	d->status = stress_exit_worse(STRESS_EXIT_PASS,
				      stress_verdict_exit(stress_verdict_of(s),
							  stress_signal_number()));
	if (!report_sink_begin(&k, 1)) {
		report_sink_run(&k, s);
		d->status = report_sink_end(&k, d->status, s->res.interrupted ? SIGTERM : 0,
					    NULL, 0);
	}
	fclose(out);
	fclose(err);
	free(s);
}

static const char *line_starting(const char *text, const char *prefix)
{
	const char *p = text;
	size_t n = strlen(prefix);

	for (; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, prefix, n))
			return p;
	return NULL;
}

/* The result line's text after " # ": a reason no KTAP reader takes for a directive. */
static void check_reason(struct kt *t, const char *res, const char *directive)
{
	const char *h = strstr(res, " # "), *r;
	char word[32] = "";
	size_t i;

	KT_ASSERT(t, h, "no reason in '%.80s'", res);
	r = h + 3;
	if (directive) {
		KT_EXPECT(t, !strncmp(r, directive, strlen(directive)) && r[strlen(directive)] == ' ',
			  "'%.80s' lacks '# %s reason'", res, directive);
		r += strlen(directive) + 1;
	}
	for (i = 0; i + 1 < sizeof(word) && r[i] && r[i] != ' ' && r[i] != '\n'; i++)
		word[i] = r[i];
	KT_EXPECT(t, i > 0, "empty reason in '%.80s'", res);
	for (i = 0; word[i] && isupper((unsigned char)word[i]); i++)
		;
	KT_EXPECT(t, word[i] || i <= 2, "reason '%s' reads as a directive", word);
}

static void check_text(struct kt *t, const struct doc *d, const char *pfx, const char *word,
		       const char *sum)
{
	char want[160];

	snprintf(want, sizeof(want), "%sstress: %s verdict_case ", pfx, word);
	KT_EXPECT(t, line_starting(d->out, want), "no '%s' line in:\n%s", want, d->out);
	snprintf(want, sizeof(want), "%sstress: %s (1 run: %s", pfx, closing_word(d->status), sum);
	KT_EXPECT(t, line_starting(d->out, want), "no '%s' line in:\n%s", want, d->out);
}

static void check_ktap(struct kt *t, const struct doc *d, const char *word)
{
	const char *res = line_starting(d->out, "ok 1 verdict_case");
	const char *bad = line_starting(d->out, "not ok 1 verdict_case");
	const char *tot = line_starting(d->out, "# Totals: ");
	unsigned long p, f, s, n, c, w, x;

	if (!strcmp(word, "FAIL") || !strcmp(word, "ERROR")) {
		KT_ASSERT(t, bad && !res, "a %s run not 'not ok':\n%s", word, d->out);
		check_reason(t, bad, !strcmp(word, "ERROR") ? "ERROR" : NULL);
	} else if (!strcmp(word, "PASS")) {
		KT_EXPECT(t, res && !bad && !strncmp(res, "ok 1 verdict_case\n", 18),
			  "a pass not a bare 'ok':\n%s", d->out);
	} else {
		KT_ASSERT(t, res && !bad, "a %s run not 'ok ... # SKIP':\n%s", word, d->out);
		check_reason(t, res, "SKIP");
	}
	KT_ASSERT(t, tot && sscanf(tot, "# Totals: pass:%lu fail:%lu skip:%lu total:%lu "
				   "contract:%lu wrong-answer:%lu crash:%lu",
				   &p, &f, &s, &n, &c, &w, &x) == 7, "totals:\n%s", d->out);
	KT_EXPECT(t, n == 1 && p + f + s == n, "totals '%.90s'", tot);
	KT_EXPECT(t, f == (unsigned long)(bad != NULL), "totals '%.90s' for a %s", tot, word);
	KT_EXPECT(t, p == (unsigned long)!strcmp(word, "PASS"), "totals '%.90s' for a %s", tot, word);
	KT_EXPECT(t, c + w + x == f, "classes of '%.90s' do not add up to fail", tot);
}

static void check_json(struct kt *t, const struct doc *d, const char *word)
{
	char want[64];

	snprintf(want, sizeof(want), "stress: %s verdict_case ", word);
	KT_EXPECT(t, line_starting(d->err, want), "no '%s' line on stderr:\n%s", want, d->err);
	snprintf(want, sizeof(want), "\"verdict\":\"%s\"", word);
	KT_EXPECT(t, strstr(d->out, want), "no %s in the document:\n%.400s", want, d->out);
	snprintf(want, sizeof(want), "\"exit_status\":%d}", d->status);
	KT_EXPECT(t, strstr(d->out, want), "no %s in the document", want);
}

/* Every verdict x --no-check x report kind: the four formats say the same. */
static void verdict_formats_agree(struct kt *t)
{
	static const enum stress_report_fmt fmts[] = { REPORT_TEXT, REPORT_KTAP, REPORT_JSON };
	unsigned int mask, nc, i, seen = 0;

	/* The signal the reports name, as the handler would have recorded it. */
	stress_signal_note_pending(SIGTERM);
	for (mask = 0; mask < NR_MASKS; mask++) {
		for (nc = 0; nc < 2; nc++) {
			for (i = 0; i < 3; i++) {
				struct doc d = { 0 };
				int want;
				const char *word = expected_word(mask, nc, &want);
				const char *sum = !strcmp(word, "PASS") ? "1 passed, 0 failed, 0 skipped, 0 errors" :
						  !strcmp(word, "FAIL") ? "0 passed, 1 failed, 0 skipped, 0 errors" :
						  !strcmp(word, "ERROR") ? "0 passed, 0 failed, 0 skipped, 1 error;" :
						  "0 passed, 0 failed, 1 skipped, 0 errors";

				report_one(mask, nc, fmts[i], &d);
				KT_ASSERT(t, d.out && d.err, "no memory");
				KT_EXPECT(t, d.status == want, "mask %u no-check %u kind %u: exit %d, want %d "
					  "(%s)", mask, nc, i, d.status, want, word);
				if (fmts[i] == REPORT_TEXT)
					check_text(t, &d, "", word, sum);
				else if (fmts[i] == REPORT_KTAP)
					check_text(t, &d, "# ", word, sum), check_ktap(t, &d, word);
				else
					check_json(t, &d, word);
				free(d.out);
				free(d.err);
				seen |= 1U << (strchr("PFEIUS", word[0] == 'I' && word[2] == 'T' ?
							     'U' : word[0]) - "PFEIUS");
				if (t->failures) {
					kt_diag(t, "first disagreement: mask %u no-check %u kind %u",
						mask, nc, i);
					return;
				}
			}
		}
	}
	/* Each of the six verdicts was made and checked. */
	KT_EXPECT(t, seen == 0x3f, "verdicts seen: %#x", seen);
}

/* A scenario that cannot run here: SKIP with its reason, exit 0, in KTAP a SKIP. */
static void unavailable_is_skip(struct kt *t)
{
	struct stress s = { .run.sc = &sc, .res.skipped = true,
			    .res.skip_why = "no such thing here" };
	char buf[192];

	KT_EXPECT(t, !strcmp(stress_verdict(&s), "SKIP"), "%s", stress_verdict(&s));
	KT_EXPECT_EQ(t, stress_verdict_exit(stress_verdict_of(&s), 0), 0);
	KT_EXPECT(t, stress_verdict_info(stress_verdict_of(&s))->ktap == KTAP_SKIP, "not a SKIP");
	KT_EXPECT(t, !strcmp(stress_verdict_reason(&s, 0, buf, sizeof(buf)), "no such thing here"),
		  "reason");
	/* The same run failing (a WARN at teardown) is a failure, not a skip. */
	atomic_store(&s.tally.failed, true);
	KT_EXPECT(t, !strcmp(stress_verdict(&s), "FAIL"), "%s", stress_verdict(&s));
	KT_EXPECT(t, stress_verdict_info(stress_verdict_of(&s))->ktap == KTAP_FAIL, "not 'not ok'");
}

/* The order of exit statuses of docs/stress.md: 3, then 1, then 4, then 128 + signal, then 0. */
static void exit_precedence(struct kt *t)
{
	static const int order[] = { 3, 1, 4, 143, 130, 0 };
	unsigned int i, j;

	for (i = 0; i < 6; i++)
		for (j = i; j < 6; j++) {
			int want = i == 3 && j == 4 ? 143 : order[i];

			KT_EXPECT_EQ(t, stress_exit_worse(order[i], order[j]), want);
			KT_EXPECT_EQ(t, stress_exit_worse(order[j], order[i]), want);
		}
}

static const struct kt_case cases[] = {
	KT_CASE(verdict_formats_agree),
	KT_CASE(unavailable_is_skip),
	KT_CASE(exit_precedence),
};

KT_MAIN("stress_verdict", cases);
