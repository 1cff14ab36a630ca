// SPDX-License-Identifier: GPL-2.0
/*
 * compaction_churn's shadow model (docs/spec/compaction.md
 * docs/spec/compaction.md#cmp-states): each transition (reset: enter, deepen,
 * SCANALLFREE; the end of a run: leave; a success; the failure counter; the
 * restart and depletion decisions) is made on the zone by the library, with the
 * real concurrency, and replayed on the sequential reference from the state the
 * zone was seen in just before, in the same thread. Any difference fails the
 * run (invariants shadow-*) with the state before, the reference's state after
 * and the zone's state after.
 *
 * The kernel's transitions are unlocked, so a transition can only be
 * judged when no other thread wrote the zone while it ran: the zone counts
 * every store to its fields (begin and end counts, z->wseq) and each
 * thread its own. A transition that starts with no store in progress and
 * ends having seen only its own stores is judged; the others are counted.
 * The cached pfns and blockskip_flush are hints every scanner round
 * rewrites: neither counted nor compared (the quiescent after_reset check
 * covers what a reset does to them). A lost update of plain mode needs a second writer, so a
 * judged transition is exact in every atomic mode.
 */
#include "mm/compaction_ref.h"
#include "util/json.h"
#include "cc_shadow.h"

static const char *const tx_names[CC_NR_TX] = {
	[CC_TX_RESET]		= "shadow_reset",
	[CC_TX_FINISH]		= "shadow_finish",
	[CC_TX_SUCCESS]		= "shadow_success",
	[CC_TX_FAIL]		= "shadow_fail",
	[CC_TX_FAILED_RESET]	= "shadow_failed_reset",
	[CC_TX_RESTARTING]	= "shadow_restarting",
	[CC_TX_DEPLETED]	= "shadow_depleted",
};

struct cc_tx {
	struct cref_state pre, post;
	unsigned long begin, own;
	bool idle;
};

static void tx_begin(struct cc_shadow *sh, const struct zone *z, struct cc_tx *tx,
		     enum cc_tx_kind k)
{
	unsigned long end;

	atomic_fetch_add_explicit(&sh->made[k], 1, memory_order_relaxed);
	tx->own = zone_own_writes;
	/* end first: equal counts then mean no store was in progress. */
	end = __atomic_load_n(&sh->wseq.end, __ATOMIC_SEQ_CST);
	tx->begin = __atomic_load_n(&sh->wseq.begin, __ATOMIC_SEQ_CST);
	tx->idle = tx->begin == end;
	atomic_thread_fence(memory_order_seq_cst);
	cref_snapshot(z, &tx->pre);
}

/* Whether every store to the zone since tx_begin() was this thread's own. */
static bool tx_end(struct cc_shadow *sh, const struct zone *z, struct cc_tx *tx)
{
	unsigned long begin;

	cref_snapshot(z, &tx->post);
	atomic_thread_fence(memory_order_seq_cst);
	begin = __atomic_load_n(&sh->wseq.begin, __ATOMIC_SEQ_CST);
	return tx->idle && begin - tx->begin == zone_own_writes - tx->own;
}

static void judge(struct stress *s, struct cc_shadow *sh, int cpu, enum cc_tx_kind k,
		  const char *what, const struct cc_tx *tx, const struct cref_state *want)
{
	char d[96], a[160], b[160], c[160];

	atomic_fetch_add_explicit(&sh->judged[k], 1, memory_order_relaxed);
	stress_count_checks(s, 1);
	if (!*cref_diff(&tx->post, want, false, d, sizeof(d)))
		return;
	cref_format(&tx->pre, a, sizeof(a));
	cref_format(want, b, sizeof(b));
	cref_format(&tx->post, c, sizeof(c));
	stress_fail(s, tx_names[k], cpu, "%s from %s: the spec's state machine gives %s, the zone "
		    "is %s (differ: %s)", what, a, b, c, d);
}

/* A decision against the reference's on the same state. */
static void judge_answer(struct stress *s, struct cc_shadow *sh, int cpu, enum cc_tx_kind k,
			 const char *what, const struct cc_tx *tx, long got, long want)
{
	char a[160];

	/* Transitions with a result were counted by judge() already. */
	if (k == CC_TX_RESTARTING || k == CC_TX_DEPLETED)
		atomic_fetch_add_explicit(&sh->judged[k], 1, memory_order_relaxed);
	stress_count_checks(s, 1);
	if (got == want)
		return;
	cref_format(&tx->pre, a, sizeof(a));
	stress_fail(s, tx_names[k], cpu, "%s in %s: the zone's code answers %ld, the spec's state "
		    "machine %ld", what, a, got, want);
}

void cc_shadow_reset(struct stress *s, struct cc_shadow *sh, int cpu, struct zone *z,
		     const struct zone_desc *d, struct compact_reset_report *rep)
{
	struct cref_state want;
	struct cc_tx tx;

	tx_begin(sh, z, &tx, CC_TX_RESET);
	compaction_reset(z, d, rep);
	if (!tx_end(sh, z, &tx))
		return;
	want = tx.pre;
	cref_reset(z->par, &want, d);
	judge(s, sh, cpu, CC_TX_RESET, "reset", &tx, &want);
}

void cc_shadow_finish(struct stress *s, struct cc_shadow *sh, int cpu, struct zone *z,
		      unsigned long managed)
{
	struct cref_state want;
	struct cc_tx tx;

	tx_begin(sh, z, &tx, CC_TX_FINISH);
	compaction_zone_finish(z, managed);
	if (!tx_end(sh, z, &tx))
		return;
	want = tx.pre;
	cref_finish(z->par, &want, managed);
	judge(s, sh, cpu, CC_TX_FINISH, "end of a run", &tx, &want);
}

long cc_shadow_note_success(struct stress *s, struct cc_shadow *sh, int cpu, struct zone *z)
{
	struct cref_state want;
	struct cc_tx tx;
	long ret;

	tx_begin(sh, z, &tx, CC_TX_SUCCESS);
	ret = compaction_note_success(z);
	if (!tx_end(sh, z, &tx))
		return ret;
	want = tx.pre;
	cref_note_success(&want);
	judge(s, sh, cpu, CC_TX_SUCCESS, "a success", &tx, &want);
	judge_answer(s, sh, cpu, CC_TX_SUCCESS, "the new count of a success", &tx, ret,
		     want.success);
	return ret;
}

bool cc_shadow_fail(struct stress *s, struct cc_shadow *sh, int cpu, struct zone *z, int order)
{
	struct cref_state want;
	struct cc_tx tx;
	bool ret, counted;

	tx_begin(sh, z, &tx, CC_TX_FAIL);
	ret = compaction_fail(z, order);
	if (!tx_end(sh, z, &tx))
		return ret;
	want = tx.pre;
	counted = cref_fail(&want, order);
	judge(s, sh, cpu, CC_TX_FAIL, "fail_compaction()", &tx, &want);
	judge_answer(s, sh, cpu, CC_TX_FAIL, "whether fail_compaction() counted", &tx, ret,
		     counted);
	return ret;
}

void cc_shadow_failed_reset(struct stress *s, struct cc_shadow *sh, int cpu, struct zone *z,
			    int order, bool alloc_success)
{
	struct cref_state want;
	struct cc_tx tx;

	tx_begin(sh, z, &tx, CC_TX_FAILED_RESET);
	compaction_failed_reset(z, order, alloc_success);
	if (!tx_end(sh, z, &tx))
		return;
	want = tx.pre;
	cref_failed_reset(&want, order, alloc_success);
	judge(s, sh, cpu, CC_TX_FAILED_RESET, alloc_success ?
	      "compaction_failed_reset(allocated)" : "compaction_failed_reset(watermark)",
	      &tx, &want);
}

bool cc_shadow_restarting(struct stress *s, struct cc_shadow *sh, int cpu, struct zone *z,
			  int order)
{
	struct cc_tx tx;
	bool ret;

	tx_begin(sh, z, &tx, CC_TX_RESTARTING);
	ret = compaction_restarting(z, order);
	if (tx_end(sh, z, &tx))
		judge_answer(s, sh, cpu, CC_TX_RESTARTING, "compaction_restarting()", &tx, ret,
			     cref_restarting(&tx.pre, order));
	return ret;
}

bool cc_shadow_depleted(struct stress *s, struct cc_shadow *sh, int cpu, struct zone *z,
			unsigned long managed)
{
	struct cc_tx tx;
	bool ret;

	tx_begin(sh, z, &tx, CC_TX_DEPLETED);
	ret = compaction_depleted(z, managed);
	if (tx_end(sh, z, &tx))
		judge_answer(s, sh, cpu, CC_TX_DEPLETED, "compaction_depleted()", &tx, ret,
			     cref_depleted(z->par, &tx.pre, managed));
	return ret;
}

void cc_shadow_report(struct cc_shadow *sh, FILE *out)
{
	unsigned int k;

	fprintf(out, "# compaction_churn: shadow model (judged/made):");
	for (k = 0; k < CC_NR_TX; k++)
		fprintf(out, " %s %lu/%lu", tx_names[k] + 7, atomic_load(&sh->judged[k]),
			atomic_load(&sh->made[k]));
	fprintf(out, "\n");
}

/* "shadow": {"TRANSITION": [judged, made], ...} */
void cc_shadow_report_json(struct cc_shadow *sh, struct json *j)
{
	unsigned int k;

	json_kobj_begin(j, "shadow");
	for (k = 0; k < CC_NR_TX; k++) {
		json_karr_begin(j, tx_names[k] + 7);
		json_u64(j, atomic_load(&sh->judged[k]));
		json_u64(j, atomic_load(&sh->made[k]));
		json_arr_end(j);
	}
	json_obj_end(j);
}
