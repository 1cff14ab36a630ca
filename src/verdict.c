// SPDX-License-Identifier: GPL-2.0
/*
 * The one mapping from a run's state to its verdict, and from the verdict
 * to every way it is told: the word of the text and JSON reports, the
 * KTAP result and its reason, the closing line's tally and the exit
 * status. Every report and the exit status go through it, so no two of
 * them can disagree (a failing --no-check run is "not ok", whatever else
 * is set).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "config.h"
#include "report.h"
#include "run.h"
#include "verdict.h"

static const struct stress_verdict_info verdicts[NR_VERDICTS] = {
	[VERDICT_PASS]		= { "PASS", KTAP_PASS, STRESS_EXIT_PASS, TALLY_PASSED },
	[VERDICT_FAIL]		= { "FAIL", KTAP_FAIL, STRESS_EXIT_FAIL, TALLY_FAILED },
	[VERDICT_ERROR]		= { "ERROR", KTAP_ERROR, STRESS_EXIT_INTERNAL, TALLY_ERRORS },
	/* No verdict on the code: KTAP counts it skipped, the exit status says why. */
	[VERDICT_INCOMPLETE]	= { "INCOMPLETE", KTAP_SKIP, STRESS_EXIT_INCOMPLETE, TALLY_SKIPPED },
	[VERDICT_INTERRUPTED]	= { "INTERRUPTED", KTAP_SKIP, STRESS_EXIT_SIGNAL(0), TALLY_SKIPPED },
	[VERDICT_SKIP]		= { "SKIP", KTAP_SKIP, STRESS_EXIT_PASS, TALLY_SKIPPED },
};

/* Worst first: a failure outranks everything that may also be set. */
enum stress_verdict stress_verdict_of(struct stress *s)
{
	if (s->res.internal_error)
		return VERDICT_ERROR;
	if (atomic_load(&s->tally.failed))
		return VERDICT_FAIL;
	/* Starved, or a window too short to judge: no verdict either way. */
	if (s->res.starved)
		return VERDICT_INCOMPLETE;
	/* Stopped by a signal without a failure: it neither passed nor failed. */
	if (s->res.interrupted)
		return VERDICT_INTERRUPTED;
	if (s->res.skipped)
		return VERDICT_SKIP;
	return VERDICT_PASS;
}

const struct stress_verdict_info *stress_verdict_info(enum stress_verdict v)
{
	return &verdicts[v < NR_VERDICTS ? v : VERDICT_ERROR];
}

const char *stress_verdict(struct stress *s)
{
	return stress_verdict_info(stress_verdict_of(s))->name;
}

int stress_verdict_exit(enum stress_verdict v, int signo)
{
	if (v == VERDICT_INTERRUPTED)
		return STRESS_EXIT_SIGNAL(signo ? signo : SIGINT);
	return stress_verdict_info(v)->exit;
}

/* "SIGINT", as the reports name the signal that stopped a run. */
const char *stress_signal_name(int sig)
{
	static char buf[16];
	const char *abbrev = sig ? sigabbrev_np(sig) : NULL;

	snprintf(buf, sizeof(buf), "SIG%s", abbrev ? abbrev : "?");
	return buf;
}

/*
 * The KTAP reason after " # [DIRECTIVE] ": NULL for a pass. It never
 * starts with an upper-case word, which a KTAP reader takes for a
 * directive.
 */
const char *stress_verdict_reason(struct stress *s, int signo, char *buf, size_t len)
{
	switch (stress_verdict_of(s)) {
	case VERDICT_PASS:
		return NULL;
	case VERDICT_FAIL:
		if (!s->tally.nr_failures)
			return "failed";
		snprintf(buf, len, "invariant %s failed (class %s)", s->tally.failures[0].invariant,
			 stress_class_name(s->tally.failures[0].cls));
		return buf;
	case VERDICT_ERROR:
		return "internal error";
	case VERDICT_INCOMPLETE:
		snprintf(buf, len, "incomplete: %s",
			 *s->res.incomplete_why ? s->res.incomplete_why :
			 "the host starved the run of CPU");
		return buf;
	case VERDICT_INTERRUPTED:
		snprintf(buf, len, "interrupted (%s)", stress_signal_name(signo));
		return buf;
	case VERDICT_SKIP:
	default:
		return s->res.skip_why ? s->res.skip_why : "checking off";
	}
}

/* The closing line's and KTAP totals' count of @s. */
void stress_verdict_tally(struct stress_summary *sum, struct stress *s)
{
	enum stress_verdict v = stress_verdict_of(s);

	sum->runs++;
	switch (stress_verdict_info(v)->tally) {
	case TALLY_PASSED:
		sum->passed++;
		break;
	case TALLY_SKIPPED:
		sum->skipped++;		/* as KTAP counts them: # SKIP */
		break;
	case TALLY_FAILED:
		sum->failed++;
		sum->by_class[s->tally.nr_failures ? s->tally.failures[0].cls :
			      STRESS_WRONG_ANSWER]++;
		break;
	case TALLY_ERRORS:
		sum->errors++;
		sum->by_class[STRESS_CRASH]++;	/* the run itself broke */
		break;
	}
	sum->interrupted |= s->res.interrupted;
}

/* The worse of two exit statuses: 3, then 1, then 4, then 128 + signal, then 0. */
int stress_exit_worse(int a, int b)
{
	static const int order[] = { STRESS_EXIT_INTERNAL, STRESS_EXIT_FAIL,
				     STRESS_EXIT_INCOMPLETE };
	unsigned int i;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (a == order[i] || b == order[i])
			return order[i];
	return a > b ? a : b;
}
