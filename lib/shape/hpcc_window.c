// SPDX-License-Identifier: GPL-2.0
/* Naming a comparison delta against its documented window; see hpcc_window.h. */
#include <stdio.h>
#include "hpcc_window.h"

void hpcc_window_name(char *buf, size_t len, long d, unsigned long tol_neg,
		      const char *neg_name, unsigned long tol_pos, const char *pos_name)
{
	static const int off[] = { 0, 1, -1 };
	unsigned int i;

	/* The exact edges first, then one past and one short of each. */
	for (i = 0; i < 3; i++) {
		/* "+under+1" is one further out; so is "-over-1". */
		const char *out = off[i] > 0 ? "+1" : off[i] < 0 ? "-1" : "";
		const char *neg_out = off[i] > 0 ? "-1" : off[i] < 0 ? "+1" : "";

		if (d == (long)tol_pos + off[i])
			snprintf(buf, len, "+%s%s", pos_name, out);
		else if (d == -(long)tol_neg - off[i])
			snprintf(buf, len, "-%s%s", neg_name, neg_out);
		else if (d == (long)tol_neg + off[i])
			snprintf(buf, len, "+%s%s", neg_name, out);
		else if (d == -(long)tol_pos - off[i])
			snprintf(buf, len, "-%s%s", pos_name, neg_out);
		else
			continue;
		return;
	}
	snprintf(buf, len, "%+ld", d);
}

int hpcc_window_pair_answer(long d, unsigned long under_a, unsigned long over_a,
			    unsigned long under_b, unsigned long over_b)
{
	/* The spec table: tol_pos = a.over + b.under, tol_neg = a.under + b.over. */
	if (d > 0 && (unsigned long)d > over_a + under_b)
		return 1;
	if (d < 0 && (unsigned long)-(d + 1) + 1 > under_a + over_b)
		return -1;
	return 0;
}

int hpcc_window_pair_band(long d, unsigned long under_a, unsigned long over_a,
			  unsigned long under_b, unsigned long over_b)
{
	unsigned long t1 = under_a + over_b, t2 = over_a + under_b;
	unsigned long lo = t1 < t2 ? t1 : t2, hi = t1 < t2 ? t2 : t1;
	unsigned long m = d < 0 ? (unsigned long)-(d + 1) + 1 : (unsigned long)d;

	return m <= lo ? 0 : m <= hi ? 1 : 2;
}
