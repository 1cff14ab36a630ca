// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the testers: each expected answer, window and coverage the
 * scenarios judge by is compared with the spec's value, computed
 * independently (lib/shape), for equality. A check laxer than its spec
 * passes every correct run, so no stress run can show it; these can.
 */
#include <limits.h>
#include <string.h>
#include "ktap.h"
#include "shape/hpcc_shape.h"
#include "shape/hpcc_residual.h"
#include "shape/hpcc_window.h"
#include "scenarios/storm.h"

/*
 * approximate_compare(a, b)'s expected answer over every boundary delta
 * of pairs with asymmetric tolerances: equal to the spec's, and each band
 * (within both tolerances, between them, beyond both) reached, where the
 * tolerances taken the wrong way round would give another answer.
 */
static void pair_expect_is_the_spec(struct kt *t)
{
	static const struct { unsigned int cpus; unsigned long batch; } sh[] = {
		{ 2, 2 }, { 9, 2 }, { 64, 32 }, { 300, 1024 }, { 1, 2 },
	};
	static struct storm st;
	unsigned long band[3] = { 0 }, differs = 0, wrong = 0, swapped_caught = 0;
	long d[HPCC_EDGE_MAX_OFFSETS];
	unsigned int i, j, k, n;

	for (i = 0; i < sizeof(sh) / sizeof(sh[0]); i++)
	for (j = 0; j < sizeof(sh) / sizeof(sh[0]); j++) {
		struct hpcc_shape a, b;
		unsigned int ka = K_EDGE0, kb = K_EDGE1;

		KT_ASSERT(t, !hpcc_shape_compute(&a, sh[i].cpus, sh[i].batch), "shape a");
		KT_ASSERT(t, !hpcc_shape_compute(&b, sh[j].cpus, sh[j].batch), "shape b");
		st.under[ka] = a.under;
		st.over[ka] = a.over;
		st.under[kb] = b.under;
		st.over[kb] = b.over;
		n = hpcc_edge_pair_offsets(a.under, a.over, 0, b.under, b.over, 0, d);
		for (k = 0; k < n; k++) {
			int want = hpcc_window_pair_answer(d[k], a.under, a.over, b.under, b.over);
			int got = storm_pair_expect(&st, ka, kb, d[k]);
			int bd = hpcc_window_pair_band(d[k], a.under, a.over, b.under, b.over);

			band[bd]++;
			if (got != want && !wrong++)
				kt_diag(t, "a (%u cpus, batch %lu), b (%u, %lu), D %+ld: expected "
					"answer %d, spec %d", sh[i].cpus, sh[i].batch,
					sh[j].cpus, sh[j].batch, d[k], got, want);
			/* The tolerances swapped: does this delta tell them apart? */
			if (want != hpcc_window_pair_answer(d[k], a.over, a.under, b.over, b.under)) {
				differs++;
				swapped_caught += bd == 1;
			}
		}
	}
	kt_diag(t, "bands: within %lu, between %lu, beyond %lu; %lu deltas tell swapped "
		"tolerances apart", band[0], band[1], band[2], differs);
	KT_EXPECT(t, wrong == 0, "%lu expected answers differ from the spec's", wrong);
	KT_EXPECT(t, band[0] && band[1] && band[2], "every band reached");
	KT_EXPECT(t, swapped_caught > 0, "a delta between the tolerances tells them apart");
}

/* The band and answer helpers themselves, by hand (under 3, over 1 against 0/0). */
static void pair_bands_by_hand(struct kt *t)
{
	/* tol_neg = a.under + b.over = 3, tol_pos = a.over + b.under = 1. */
	KT_EXPECT_EQ(t, hpcc_window_pair_answer(1, 3, 1, 0, 0), 0);
	KT_EXPECT_EQ(t, hpcc_window_pair_answer(2, 3, 1, 0, 0), 1);
	KT_EXPECT_EQ(t, hpcc_window_pair_answer(-3, 3, 1, 0, 0), 0);
	KT_EXPECT_EQ(t, hpcc_window_pair_answer(-4, 3, 1, 0, 0), -1);
	KT_EXPECT_EQ(t, hpcc_window_pair_answer(LONG_MIN, 3, 1, 0, 0), -1);
	KT_EXPECT_EQ(t, hpcc_window_pair_band(1, 3, 1, 0, 0), 0);
	KT_EXPECT_EQ(t, hpcc_window_pair_band(-2, 3, 1, 0, 0), 1);
	KT_EXPECT_EQ(t, hpcc_window_pair_band(2, 3, 1, 0, 0), 1);
	KT_EXPECT_EQ(t, hpcc_window_pair_band(4, 3, 1, 0, 0), 2);
}

static const struct kt_case cases[] = {
	KT_CASE(pair_expect_is_the_spec),
	KT_CASE(pair_bands_by_hand),
};

KT_MAIN("stress_oracles", cases);
