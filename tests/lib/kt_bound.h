/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Thresholds at their bound: a table of the bounds an oracle or invariant
 * compares against, each driven at the bound and one step either side,
 * both ways (must pass / must fail). A row is the predicate the code
 * itself uses, so a comparison one off in either direction fails a case:
 * "at most N" that demands only below N fails at N, one that lets N + 1
 * through fails at N + 1.
 */
#ifndef _TESTS_KT_BOUND_H
#define _TESTS_KT_BOUND_H

#include <stdbool.h>
#include "ktap.h"

enum kt_bound_kind {
	KT_AT_MOST,	/* passes at the bound and below */
	KT_AT_LEAST,	/* passes at the bound and above */
};

struct kt_bound {
	const char *name;
	long bound;
	enum kt_bound_kind kind;
	bool (*ok)(long v, long arg);	/* true: the value passes */
	long arg;			/* the predicate's other input */
};

/* The steps every row is driven at, relative to its bound. */
static const int kt_bound_steps[] = { -1, 0, 1 };

static inline void kt_check_bounds(struct kt *t, const struct kt_bound *rows,
				   unsigned int nr)
{
	unsigned int i, k;

	for (i = 0; i < nr; i++) {
		const struct kt_bound *b = &rows[i];

		for (k = 0; k < sizeof(kt_bound_steps) / sizeof(kt_bound_steps[0]); k++) {
			int step = kt_bound_steps[k];
			bool want = b->kind == KT_AT_MOST ? step <= 0 : step >= 0;
			bool got = b->ok(b->bound + step, b->arg);

			KT_EXPECT(t, got == want, "%s at bound%+d (%ld): %s, must %s", b->name,
				  step, b->bound + step, got ? "passes" : "fails",
				  want ? "pass" : "fail");
		}
	}
}

#endif /* _TESTS_KT_BOUND_H */
