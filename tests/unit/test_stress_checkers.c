// SPDX-License-Identifier: GPL-2.0
/*
 * The scenarios' checks fed what a correct library never gives: an
 * accuracy range the model disagrees with, a compaction zone whose code
 * answers wrong or loses a reset (compaction_note_success() and
 * compaction_failed_reset() wrapped at link time, see the Makefile; also
 * percpu_counter_tree_precise_compare(), to see which pairs are asked),
 * and the bookkeeping a report shows (margins, the regions counter_storm's
 * values are set to). A check weaker than its spec passes
 * every correct run, so no stress run can show it; these can. Serial: the
 * runs are prepared as the engine prepares them, without threads.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <kcompat/kcompat.h>
#include <hpcc_api.h>
#include "ktap.h"
#include "cli.h"
#include "config.h"
#include "engine.h"
#include "recorder.h"
#include "run.h"
#include "mm/compaction.h"
#include "scenarios/counter_storm/storm.h"
#include "scenarios/compaction_churn/cc_shadow.h"

#define NCPUS	4

/* A run of @name as the engine prepares one (scenario setup, no threads). */
static struct stress *prepare(struct kt *t, struct stress_config *cfg, const char *name)
{
	char sc[64], *argv[] = { "stress", sc, "--cpus=4", "--seed=11", NULL };
	enum stress_action act;
	struct stress *s;

	if (!kt_hpcc_setup(t, NCPUS))
		return NULL;
	snprintf(sc, sizeof(sc), "--scenario=%s", name);
	memset(cfg, 0, sizeof(*cfg));
	t->checks++;
	if (stress_cli_parse(4, argv, cfg, &act) || cfg->nr_scenarios != 1) {
		kt_fail(t, __FILE__, __LINE__, "parse %s", sc);
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->run.cfg = cfg;
	s->run.sc = cfg->scenarios[0];
	s->run.seed = cfg->seed;
	if (stress_run_prepare(s)) {
		kt_fail(t, __FILE__, __LINE__, "%s: setup failed", name);
		return NULL;
	}
	return s;
}

static void release(struct stress *s)
{
	if (s->run.sc->teardown)
		s->run.sc->teardown(s);
	stress_tally_free(&s->tally);
	recorder_free(s->setup.rec);
	free(s->threads);
	free(s);
}

/*
 * A run that fails on purpose prints its failure line on stderr: kept
 * out of the test's output (the checks read the recorded failure).
 */
static FILE *quiet_tmp;
static int quiet_saved = -1;

static void quiet_begin(void)
{
	fflush(stderr);
	quiet_tmp = tmpfile();
	quiet_saved = quiet_tmp ? dup(2) : -1;
	if (quiet_saved >= 0)
		dup2(fileno(quiet_tmp), 2);
}

static void quiet_end(void)
{
	fflush(stderr);
	if (quiet_saved >= 0) {
		dup2(quiet_saved, 2);
		close(quiet_saved);
	}
	if (quiet_tmp)
		fclose(quiet_tmp);
	quiet_tmp = NULL;
	quiet_saved = -1;
}

/* Forget @s's failures: the next check starts from a passing run. */
static void clear_failures(struct stress *s)
{
	stress_tally_free(&s->tally);
	s->stop = false;
}

static struct stress_key *margin_of(struct stress *s, const char *name)
{
	unsigned int i;

	for (i = 0; i < atomic_load(&s->tally.nr_margins); i++)
		if (!strcmp(s->tally.margins[i].name, name))
			return &s->tally.margins[i];
	return NULL;
}

static unsigned long margin_count(struct stress *s, const char *name)
{
	struct stress_key *k = margin_of(s, name);

	return k ? atomic_load(&k->count) : 0;
}

/* The worst use of @name's margin: 0 while every verdict was right. */
static double margin_worst(struct stress *s, const char *name)
{
	struct stress_key *k = margin_of(s, name);

	return k ? k->worst : -1;
}

/* Whether @s failed, its first failure of @invariant, its message holding @what. */
static bool failed_with(struct stress *s, const char *invariant, const char *what)
{
	return stress_failed(s) && s->tally.nr_failures &&
	       !strcmp(s->tally.failures[0].invariant, invariant) &&
	       strstr(s->tally.failures[0].msg, what);
}

/*
 * These tests judge the checkers, so they need a library whose correct
 * run passes. A kernel tree's own finding (the compare contract, say)
 * fails that run; the tree's unit tests and ./stress report it, and
 * here it would only be counted again under a checker's name: SKIP.
 * lib/hpcc must pass.
 */
static bool library_passes(struct kt *t, struct stress *s)
{
	if (!stress_failed(s))
		return true;
	if (HPCC_API_KERNEL)
		kt_skip(t, "this tree fails counter_storm's own checks (%s): "
			"the checker test needs a library that passes",
			s->tally.nr_failures ? s->tally.failures[0].msg : "?");
	else
		KT_EXPECT(t, false, "a correct library fails: %s",
			  s->tally.nr_failures ? s->tally.failures[0].msg : "?");
	return false;
}

/*
 * The accuracy-range contract: the range the library reports must be the
 * model's, exactly. The model told one more or one less than the library
 * says (as a library off by one against a right model would be) fails the
 * run either way.
 */
static void storm_accuracy_range_exact(struct kt *t)
{
	static const long off[] = { +1, -1 };
	struct stress_config cfg;
	struct stress *s;
	struct storm *st;
	unsigned int i, key;

	/* Counters without an edge plan (whose adds it would not expect). */
	for (i = 0; i < ARRAY_SIZE(off); i++)
	for (key = K_HOT; key <= K_COLD; key += K_COLD - K_HOT) {
		s = prepare(t, &cfg, "counter_storm");
		if (!s)
			return;
		st = stress_priv(s);
		KT_ASSERT(t, st->checking, "checking");
		storm_add(s, st, 1, key, 5);
		storm_quiescent(s);
		if (!library_passes(t, s)) {
			release(s);
			return;
		}
		st->kshape[key].under += off[i];
		quiet_begin();
		storm_quiescent(s);
		quiet_end();
		KT_EXPECT(t, failed_with(s, "contract", "accuracy range"),
			  "%s: model under %+ld: %s", key_names[key], off[i],
			  s->tally.nr_failures ? s->tally.failures[0].msg : "not failed");
		st->kshape[key].under -= off[i];
		st->kshape[key].over += off[i];
		clear_failures(s);
		quiet_begin();
		storm_quiescent(s);
		quiet_end();
		KT_EXPECT(t, failed_with(s, "contract", "accuracy range"),
			  "%s: model over %+ld: %s", key_names[key], off[i],
			  s->tally.nr_failures ? s->tally.failures[0].msg : "not failed");
		st->kshape[key].over -= off[i];
		release(s);
	}
}

/*
 * Every comparison judged is in the report's "compare" margin: its
 * count is the number of comparisons, pairs and values alike, and right
 * answers leave it unused. A pair spread over more than 2^62 has no
 * defined order (docs/spec/hpcc.md#hpcc-compare): counted apart, not
 * judged.
 */
static void storm_compare_margin_counts_every_verdict(struct kt *t)
{
	struct stress_config cfg;
	struct stress *s = prepare(t, &cfg, "counter_storm");
	struct storm *st;
	unsigned long n;

	if (!s)
		return;
	st = stress_priv(s);
	storm_quiescent(s);
	if (!library_passes(t, s)) {
		release(s);
		return;
	}
	n = atomic_load(&st->compares);
	KT_EXPECT(t, n >= NR_KEYS * (NR_KEYS - 1), "%lu comparisons", n);
	KT_EXPECT_EQU(t, margin_count(s, "compare"), n);
	/* One pair verdict alone: one more in the margin. */
	storm_compare_pair_verdict(s, st, K_HOT, K_G0, 100, 50, 100, 50, 0, 1);
	KT_EXPECT(t, !stress_failed(s), "a right pair failed");
	KT_EXPECT_EQU(t, atomic_load(&st->compares), n + 1);
	KT_EXPECT_EQU(t, margin_count(s, "compare"), n + 1);
	/* A value far above the counter: both answers 1, as documented. */
	storm_compare_value_verdict(s, st, K_HOT, 1L << 40, 50, 50, 1, 1);
	KT_EXPECT(t, !stress_failed(s), "a right value comparison failed");
	KT_EXPECT_EQU(t, margin_count(s, "compare"), n + 2);
	KT_EXPECT(t, margin_worst(s, "compare") == 0, "right answers used the margin: %g",
		  margin_worst(s, "compare"));
	n = atomic_load(&st->far_pairs);
	storm_compare_pair_verdict(s, st, K_HOT, K_G0, (1UL << 62) + 5, 0, (1L << 62) + 5, 0,
				   1, 1);
	KT_EXPECT_EQU(t, atomic_load(&st->far_pairs), n + 1);
	KT_EXPECT_EQU(t, margin_count(s, "compare"), atomic_load(&st->compares));
	release(s);
}

/*
 * A contract failure of approximate_compare(a, b) quotes the documented
 * range [-(under(a) + over(b)), +(over(a) + under(b))]: an answer 0 one
 * past the upper end fails, naming both ends.
 */
static void storm_pair_contract_range_quoted(struct kt *t)
{
	struct stress_config cfg;
	struct stress *s = prepare(t, &cfg, "counter_storm");
	unsigned long lo, hi;
	struct storm *st;
	char want[96];

	if (!s)
		return;
	st = stress_priv(s);
	lo = st->under[K_HOT] + st->over[K_G0];
	hi = st->over[K_HOT] + st->under[K_G0];
	KT_ASSERT(t, st->under[K_G0] && st->over[K_G0], "tolerances %lu, %lu", st->under[K_G0],
		  st->over[K_G0]);
	quiet_begin();
	storm_compare_pair_verdict(s, st, K_HOT, K_G0, hi + 1, 0, (long)hi + 1, 0, 0, 1);
	quiet_end();
	snprintf(want, sizeof(want), "= [-%lu, +%lu]", lo, hi);
	KT_EXPECT(t, failed_with(s, "compare", want), "want %s: %s", want,
		  s->tally.nr_failures ? s->tally.failures[0].msg : "not failed");
	release(s);
}

/*
 * Every ordered pair of counters is compared at a quiescent point:
 * precise_compare() (wrapped at link time) records the pairs it is asked.
 */
static bool pairs_on;
static unsigned int pairs_seen[NR_KEYS][NR_KEYS];
static struct storm *pairs_st;
int __real_percpu_counter_tree_precise_compare(struct percpu_counter_tree *a,
					       struct percpu_counter_tree *b);
int __wrap_percpu_counter_tree_precise_compare(struct percpu_counter_tree *a,
					       struct percpu_counter_tree *b);

int __wrap_percpu_counter_tree_precise_compare(struct percpu_counter_tree *a,
					       struct percpu_counter_tree *b)
{
	unsigned int ka, kb;

	for (ka = 0; pairs_on && ka < NR_KEYS; ka++)
		for (kb = 0; kb < NR_KEYS; kb++)
			if (pairs_st->ctr[ka] == a && pairs_st->ctr[kb] == b)
				pairs_seen[ka][kb]++;
	return __real_percpu_counter_tree_precise_compare(a, b);
}

static void storm_every_ordered_pair(struct kt *t)
{
	struct stress_config cfg;
	struct stress *s = prepare(t, &cfg, "counter_storm");
	unsigned int ka, kb, missing = 0;

	if (!s)
		return;
	pairs_st = stress_priv(s);
	memset(pairs_seen, 0, sizeof(pairs_seen));
	pairs_on = true;
	storm_quiescent(s);
	pairs_on = false;
	if (!library_passes(t, s)) {
		release(s);
		return;
	}
	for (ka = 0; ka < NR_KEYS; ka++)
		for (kb = 0; kb < NR_KEYS; kb++)
			if (ka != kb && !pairs_seen[ka][kb]) {
				missing++;
				kt_diag(t, "pair (%s, %s) never compared", key_names[ka],
					key_names[kb]);
			}
	KT_EXPECT(t, !missing, "%u of %u ordered pairs never compared", missing,
		  NR_KEYS * (NR_KEYS - 1));
	release(s);
}

/*
 * A quiescent point with an update still in flight (begun, never ended,
 * while every thread is parked) fails the run with invariant quiescence.
 */
static void storm_update_in_flight(struct kt *t)
{
	struct stress_config cfg;
	struct stress *s = prepare(t, &cfg, "counter_storm");
	struct storm *st;

	if (!s)
		return;
	st = stress_priv(s);
	storm_quiescent(s);
	if (!library_passes(t, s)) {
		release(s);
		return;
	}
	(void)truth_begin(st->truth, 0, K_G1, 1);
	quiet_begin();
	storm_quiescent(s);
	quiet_end();
	KT_EXPECT(t, failed_with(s, "quiescence", "in flight"), "%s",
		  s->tally.nr_failures ? s->tally.failures[0].msg : "not failed");
	release(s);
}

/*
 * set_all() moves every counter near one of five regions: 0, +2^40,
 * -2^40, LONG_MAX, LONG_MIN. Over a seeded series of quiescent points
 * each region is reached.
 */
static void storm_regions_all_reached(struct kt *t)
{
	static const char *const names[] = { "0", "+2^40", "-2^40", "LONG_MAX", "LONG_MIN" };
	unsigned long seen[5] = { 0 }, sets = 0;
	struct stress_config cfg;
	struct stress *s = prepare(t, &cfg, "counter_storm");
	struct storm *st;
	unsigned int i;
	long v;

	if (!s)
		return;
	st = stress_priv(s);
	for (i = 0; i < 400 && !stress_failed(s); i++) {
		storm_quiescent(s);
		if (atomic_load(&st->sets) == sets)
			continue;
		sets = atomic_load(&st->sets);
		v = percpu_counter_tree_precise_sum(st->ctr[K_COLD]);
		if (v > -(1L << 30) && v < (1L << 30))
			seen[0]++;
		else if (v > (1L << 39) && v < (1L << 41))
			seen[1]++;
		else if (v < -(1L << 39) && v > -(1L << 41))
			seen[2]++;
		else if (v > LONG_MAX - (1L << 30))
			seen[3]++;
		else if (v < LONG_MIN + (1L << 30))
			seen[4]++;
		else
			kt_fail(t, __FILE__, __LINE__, "set to %ld: no region", v);
	}
	if (!library_passes(t, s)) {
		release(s);
		return;
	}
	kt_diag(t, "%lu sets", sets);
	for (i = 0; i < ARRAY_SIZE(seen); i++)
		KT_EXPECT(t, seen[i] > 0, "region %s never reached in %lu sets", names[i], sets);
	release(s);
}

/*
 * The test's compaction_note_success(): the library's, or its answer moved
 * by this; its compaction_failed_reset(): the library's, or nothing at all.
 */
static long note_success_skew;
static bool failed_reset_lost;
long __real_compaction_note_success(struct zone *z);
long __wrap_compaction_note_success(struct zone *z);
void __real_compaction_failed_reset(struct zone *z, int order, bool alloc_success);
void __wrap_compaction_failed_reset(struct zone *z, int order, bool alloc_success);

long __wrap_compaction_note_success(struct zone *z)
{
	return __real_compaction_note_success(z) + note_success_skew;
}

void __wrap_compaction_failed_reset(struct zone *z, int order, bool alloc_success)
{
	if (!failed_reset_lost)
		__real_compaction_failed_reset(z, order, alloc_success);
}

/* A run and a fresh zone under compaction_churn's shadow, as the scenario sets them up. */
static struct stress *shadow_setup(struct kt *t, struct zone *z, struct cc_shadow *sh)
{
	static const struct scenario sc = { .name = "cc_shadow test" };
	static const struct compact_params par = {
		.policy = COMPACT_POLICY_P9, .atomic_mode = COMPACT_ATOMIC_RELAXED,
		.cluster_max = 32, .min_scan_limit = 512,
	};
	struct zone_desc *d;
	struct stress *s;

	s = calloc(1, sizeof(*s));
	d = zone_desc_alloc(0, 131072, 131072, 512);
	t->checks++;
	if (!s || !d || zone_init(z, &par, d, 131072 / 512 + 1, false)) {
		kt_fail(t, __FILE__, __LINE__, "shadow zone setup");
		free(s);
		return NULL;
	}
	s->run.sc = &sc;
	stress_tally_init(&s->tally);
	memset(sh, 0, sizeof(*sh));
	z->wseq = &sh->wseq;
	return s;
}

/*
 * compaction_churn's shadow: a zone whose code answers below or above
 * the reference (the new success count off by one, the zone's state
 * right) fails the run with invariant shadow_success.
 */
static void cc_shadow_wrong_answer(struct kt *t)
{
	static const long skew[] = { 0, -1, +1 };
	struct cc_shadow sh;
	struct stress *s;
	struct zone z;
	unsigned int i;
	long ret;

	if (!kt_hpcc_setup(t, NCPUS))
		return;
	for (i = 0; i < ARRAY_SIZE(skew); i++) {
		s = shadow_setup(t, &z, &sh);
		if (!s)
			return;
		note_success_skew = skew[i];
		quiet_begin();
		ret = cc_shadow_note_success(s, &sh, 0, &z);
		quiet_end();
		note_success_skew = 0;
		KT_EXPECT_EQ(t, ret, 1 + skew[i]);
		KT_EXPECT_EQU(t, atomic_load(&sh.judged[CC_TX_SUCCESS]), 1);
		if (!skew[i])
			KT_EXPECT(t, !stress_failed(s), "a right answer failed: %s",
				  s->tally.nr_failures ? s->tally.failures[0].msg : "?");
		else
			KT_EXPECT(t, failed_with(s, "shadow_success", "answers"),
				  "answer %+ld: %s", skew[i],
				  s->tally.nr_failures ? s->tally.failures[0].msg : "not failed");
		zone_destroy(&z);
		free(s);
	}
}

/*
 * The shadow of compaction_failed_reset() (docs/spec/compaction.md#cmp-states):
 * from a fresh zone (compact_order_failed 0) a reset at order 3 moves the
 * failed order to 4, after an allocation or a watermark success alike. A
 * zone whose reset is lost fails the run with invariant
 * shadow_failed_reset; the library's passes, judged once.
 */
static void cc_shadow_failed_reset_lost(struct kt *t)
{
	struct cc_shadow sh;
	struct stress *s;
	struct zone z;
	unsigned int i;

	if (!kt_hpcc_setup(t, NCPUS))
		return;
	for (i = 0; i < 4; i++) {
		bool lost = i & 1, alloc = i & 2;

		s = shadow_setup(t, &z, &sh);
		if (!s)
			return;
		failed_reset_lost = lost;
		quiet_begin();
		cc_shadow_failed_reset(s, &sh, 0, &z, 3, alloc);
		quiet_end();
		failed_reset_lost = false;
		KT_EXPECT_EQU(t, atomic_load(&sh.judged[CC_TX_FAILED_RESET]), 1);
		KT_EXPECT_EQ(t, zone_read(&z, &z.compact_order_failed), lost ? 0 : 4);
		if (!lost)
			KT_EXPECT(t, !stress_failed(s), "a right reset failed: %s",
				  s->tally.nr_failures ? s->tally.failures[0].msg : "?");
		else
			KT_EXPECT(t, failed_with(s, "shadow_failed_reset", "compaction_failed_reset"),
				  "lost reset (%s): %s", alloc ? "allocated" : "watermark",
				  s->tally.nr_failures ? s->tally.failures[0].msg : "not failed");
		zone_destroy(&z);
		free(s);
	}
}

static const struct kt_case cases[] = {
	KT_CASE(storm_accuracy_range_exact),
	KT_CASE(storm_compare_margin_counts_every_verdict),
	KT_CASE(storm_pair_contract_range_quoted),
	KT_CASE(storm_every_ordered_pair),
	KT_CASE(storm_update_in_flight),
	KT_CASE(storm_regions_all_reached),
	KT_CASE(cc_shadow_wrong_answer),
	KT_CASE(cc_shadow_failed_reset_lost),
};

KT_MAIN("stress_checkers", cases);
