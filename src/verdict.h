/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verdict.c: a run's verdict and how every report and the exit status
 * tell it (one table, so that none can disagree).
 */
#ifndef _STRESS_VERDICT_H
#define _STRESS_VERDICT_H

#include <stddef.h>
#include "report.h"
#include "run.h"
#include "util/ktap.h"

enum stress_verdict { VERDICT_PASS, VERDICT_FAIL, VERDICT_ERROR, VERDICT_INCOMPLETE,
		      VERDICT_INTERRUPTED, VERDICT_SKIP, NR_VERDICTS };
enum stress_tally { TALLY_PASSED, TALLY_FAILED, TALLY_SKIPPED, TALLY_ERRORS };
struct stress_verdict_info {
	const char *name;		/* text and JSON: "PASS", "FAIL", ... */
	enum ktap_status ktap;		/* ok, not ok, # SKIP, # ERROR */
	int exit;			/* exit status (interrupted: 128 + the signal) */
	enum stress_tally tally;	/* the closing line's and KTAP totals' column */
};
enum stress_verdict stress_verdict_of(struct stress *s);
const struct stress_verdict_info *stress_verdict_info(enum stress_verdict v);
const char *stress_verdict(struct stress *s);
int stress_verdict_exit(enum stress_verdict v, int signo);
/* The KTAP result's reason in @buf (or a constant); NULL for a pass. */
const char *stress_verdict_reason(struct stress *s, int signo, char *buf, size_t len);
void stress_verdict_tally(struct stress_summary *sum, struct stress *s);
int stress_exit_worse(int a, int b);
const char *stress_signal_name(int sig);

#endif /* _STRESS_VERDICT_H */
