/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The suite's one KTAP writer (Documentation/dev-tools/ktap.rst, KTAP
 * version 1), used by the unit-test harness (tests/lib/ktap.c), ./stress
 * --report ktap and the test runner (tests/lib/runner/ktap-run.c).
 *
 * It numbers results itself, indents each nesting level by two spaces,
 * opens a subtest with its version line, "# Subtest: NAME" and plan (as
 * KUnit does), and closes it with KUnit's statistics line and the result
 * line "ok N NAME" at the parent's level. Counts are the leaves, as the
 * kernel's kunit_parser.py counts them; a subtest reported "not ok" whose
 * leaves passed (none failed) counts one more failure, as kunit_parser
 * does. ktap_end() writes "# Totals: pass:P fail:F skip:S total:T".
 */
#ifndef _UTIL_KTAP_H
#define _UTIL_KTAP_H

#include <stdbool.h>
#include <stdio.h>

#define KTAP_MAX_DEPTH	8

enum ktap_status {
	KTAP_PASS,	/* ok N name */
	KTAP_FAIL,	/* not ok N name */
	KTAP_SKIP,	/* ok N name # SKIP reason */
	KTAP_TIMEOUT,	/* not ok N name # TIMEOUT reason */
	KTAP_ERROR,	/* not ok N name # ERROR reason */
};

struct ktap_counts {
	unsigned long pass, fail, skip;
};

struct ktap_level {
	unsigned int nr;		/* results written at this level */
	unsigned int plan;		/* 0: no plan line */
	struct ktap_counts counts;	/* leaves below */
	char name[128];			/* the subtest's name (0 for the top) */
};

struct ktap {
	FILE *out;
	/* After each result and the totals; NULL: fflush (a caller's checked flush). */
	void (*flush)(FILE *out);
	unsigned int depth;		/* 0: the top level */
	struct ktap_level lvl[KTAP_MAX_DEPTH];
};

/* "KTAP version 1" and, unless @plan is 0 (not known in advance), "1..plan". */
void ktap_begin(struct ktap *k, FILE *out, unsigned int plan);
/* A nested test: version line, "# Subtest: NAME" and "1..plan" (0: none). */
void ktap_subtest_begin(struct ktap *k, const char *name, unsigned int plan);
/*
 * Close the current subtest: "# NAME: pass:P fail:F skip:S total:T@extra"
 * and its result at the parent's level, "not ok" when a leaf failed or
 * @st is not KTAP_PASS (@st KTAP_SKIP: "ok N NAME # SKIP ..."). @fmt: the
 * result's directive reason / diagnostic data, or NULL.
 */
void ktap_subtest_end(struct ktap *k, enum ktap_status st, const char *extra,
		      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* A leaf result; @fmt: diagnostic data after " # " (or the directive's reason), or NULL. */
void ktap_result(struct ktap *k, enum ktap_status st, const char *name,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* "# text" at the current level; each line of a multi-line text gets its own "# ". */
void ktap_diag(struct ktap *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ktap_diag_block(struct ktap *k, const char *text);
/* "# Totals: pass:P fail:F skip:S total:T@extra" (top level only). */
void ktap_end(struct ktap *k, const char *extra);

/* Results written at the current level so far, and the leaves counted there. */
unsigned int ktap_nr(const struct ktap *k);
const struct ktap_counts *ktap_counts(const struct ktap *k);
static inline unsigned long ktap_total(const struct ktap_counts *c)
{
	return c->pass + c->fail + c->skip;
}

#endif /* _UTIL_KTAP_H */
