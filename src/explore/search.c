// SPDX-License-Identifier: GPL-2.0
/*
 * The searches over the fiber machine (docs/explore.md):
 *  - depth-first, stateless (each execution re-runs from a fresh setup),
 *    bounded by the number of preemptions (a switch away from a fiber
 *    that could have gone on), iterated from bound 0 up so that the first
 *    failure found has the fewest preemptions (CHESS); optionally with
 *    sleep sets over the accesses the points record;
 *  - PCT: random priorities with depth-1 priority change points.
 */
#include <stdio.h>
#include <string.h>
#include "xp.h"

struct node {
	unsigned int enabled, tried, done, sleep;	/* done: explored, tried: also skipped */
	int prev;			/* the fiber of the previous step, -1 first */
	unsigned int pre;		/* preemptions before this step */
	unsigned char chosen;
	struct xp_access acc[XP_MAX_FIBERS];
};

static struct node stack[XP_MAX_STEPS];

static bool writes(enum kc_xp_kind k)
{
	return k == KC_XP_WRITE || k == KC_XP_RMW || k == KC_XP_LOCK || k == KC_XP_UNLOCK;
}

static bool rcu_kind(enum kc_xp_kind k)
{
	return k == KC_XP_RCU_LOCK || k == KC_XP_RCU_UNLOCK || k == KC_XP_GP ||
	       k == KC_XP_GP_WAIT;
}

/* Two pending accesses conflict: same word, one a write; or RCU against a grace period. */
static bool dependent(const struct xp_access *a, const struct xp_access *b)
{
	if (rcu_kind(a->kind) || rcu_kind(b->kind))
		return rcu_kind(a->kind) && rcu_kind(b->kind) &&
		       (a->kind >= KC_XP_GP || b->kind >= KC_XP_GP);
	if (!a->addr || !b->addr || a->addr != b->addr)
		return false;
	return writes(a->kind) || writes(b->kind);
}

static int lowest(unsigned int mask)
{
	return mask ? __builtin_ctz(mask) : -1;
}

static int default_choice(unsigned int avail, int prev)
{
	if (prev >= 0 && (avail & (1U << prev)))
		return prev;
	return lowest(avail);
}

static unsigned int cost(unsigned int enabled, int prev, int c)
{
	return prev >= 0 && c != prev && (enabled & (1U << prev));
}

static void run_fill_fail(struct xp_run *r)
{
	r->failed = xp_failed();
	snprintf(r->invariant, sizeof(r->invariant), "%s", xp_fail_invariant());
	snprintf(r->message, sizeof(r->message), "%s", xp_fail_message());
}

void xp_run_schedule(const unsigned char *prefix, unsigned int prefix_len, struct xp_run *out)
{
	unsigned int en;
	int prev = -1, c;

	memset(out, 0, sizeof(*out));
	xp_exec_begin();
	while ((en = xp_enabled()) && out->len < XP_MAX_STEPS) {
		if (out->len < prefix_len) {
			c = prefix[out->len];
			if (!(en & (1U << c))) {
				xp_fail("schedule_diverged", "step %u: fiber %d cannot run",
					out->len, c);
				break;
			}
		} else {
			c = default_choice(en, prev);
		}
		out->preemptions += cost(en, prev, c);
		out->choice[out->len++] = (unsigned char)c;
		xp_step((unsigned int)c);
		prev = c;
	}
	if (en && !xp_failed())
		xp_fail("step_limit", "more than %d steps", XP_MAX_STEPS);
	xp_exec_end();
	run_fill_fail(out);
}

/*
 * One execution following stack[0..fixed) and extending it; returns false
 * when it ended blocked by sleep sets (every runnable fiber asleep).
 */
static bool dfs_execute(const struct xp_cfg *cfg, unsigned int fixed, unsigned int *depth,
			struct xp_stats *st, struct xp_run *out)
{
	unsigned int en, d = 0, sleep = 0, i;
	int prev = -1, c;
	bool blocked = false;

	memset(out, 0, sizeof(*out));
	xp_exec_begin();
	while ((en = xp_enabled()) && d < XP_MAX_STEPS) {
		struct node *n = &stack[d];

		if (d >= fixed) {
			n->enabled = en;
			n->sleep = sleep;
			n->prev = prev;
			n->pre = out->preemptions;
			for (i = 0; i < xp_nr_fibers(); i++)
				n->acc[i] = *xp_pending(i);
			c = default_choice(en & ~sleep, prev);
			if (c < 0) {
				blocked = true;
				break;
			}
			n->chosen = (unsigned char)c;
			n->tried = n->done = 1U << c;
		}
		c = n->chosen;
		/* The child's sleep set: what was asleep or done here and commutes with c. */
		sleep = 0;
		if (cfg->sleep)
			for (i = 0; i < xp_nr_fibers(); i++)
				if (((n->sleep | n->done) & ~(1U << c) & (1U << i)) &&
				    !dependent(&n->acc[i], &n->acc[c]))
					sleep |= 1U << i;
		out->preemptions += cost(en, prev, c);
		out->choice[out->len++] = (unsigned char)c;
		xp_step((unsigned int)c);
		st->steps++;
		prev = c;
		d++;
	}
	*depth = d;
	if (blocked) {
		xp_exec_abandon();
		return false;
	}
	if (en && !xp_failed())
		xp_fail("step_limit", "more than %d steps", XP_MAX_STEPS);
	xp_exec_end();
	run_fill_fail(out);
	return true;
}

/* The deepest node with an untried alternative within the bound; -1 when none. */
static int backtrack(const struct xp_cfg *cfg, int bound, unsigned int depth, struct xp_stats *st)
{
	int d;
	unsigned int a;

	for (d = (int)depth - 1; d >= 0; d--) {
		struct node *n = &stack[d];
		unsigned int left = n->enabled & ~n->tried;

		while (left) {
			a = (unsigned int)lowest(left);
			left &= ~(1U << a);
			n->tried |= 1U << a;
			if (n->sleep & (1U << a)) {
				st->sleep_pruned++;
				continue;
			}
			if (bound >= 0 && n->pre + cost(n->enabled, n->prev, (int)a) > (unsigned int)bound) {
				st->bound_cut++;
				continue;
			}
			n->chosen = (unsigned char)a;
			n->done |= 1U << a;
			return d;
		}
	}
	return -1;
}

int xp_dfs(const struct xp_cfg *cfg, struct xp_stats *st, struct xp_run *fail)
{
	int b, top = cfg->bound < 0 ? -1 : cfg->bound, from = cfg->bound < 0 ? -1 : 0;
	struct xp_run run;

	for (b = from; b <= top; b++) {
		unsigned int fixed = 0, depth = 0;
		unsigned long before = st->executions;
		int d;

		st->bound_reached = b;
		for (;;) {
			if (cfg->budget && st->executions >= cfg->budget) {
				st->budget_cut = true;
				return 0;
			}
			if (dfs_execute(cfg, fixed, &depth, st, &run)) {
				st->executions++;
				if (run.failed) {
					if (b >= 0 && b < 16)
						st->per_bound[b] = st->executions - before;
					run.prefix_len = run.len;
					*fail = run;
					return 1;
				}
			} else {
				st->sleep_blocked++;
			}
			d = backtrack(cfg, b, depth, st);
			if (d < 0)
				break;
			fixed = (unsigned int)d + 1;
		}
		if (b >= 0 && b < 16)
			st->per_bound[b] = st->executions - before;
		if (b < 0)
			break;
	}
	st->complete = true;
	return 0;
}

/* Shortest prefix that, run with the default continuation, fails the same way. */
void xp_shrink(struct xp_run *fail)
{
	struct xp_run r;
	unsigned int len;

	for (len = 0; len <= fail->len; len++) {
		xp_run_schedule(fail->choice, len, &r);
		if (r.failed && !strcmp(r.invariant, fail->invariant) &&
		    r.preemptions <= fail->preemptions) {
			r.prefix_len = len;	/* the file keeps it; the rest is the default */
			*fail = r;
			return;
		}
	}
}

/*
 * PCT (Burckhardt et al.): distinct random priorities, the highest
 * runnable fiber runs; at d - 1 random steps of the k the first run
 * took, the running fiber drops below every initial priority. A bug of
 * depth d is found with probability >= 1 / (n k^(d-1)) per execution.
 */
static unsigned long long pct_rng(unsigned long long *s)
{
	*s += 0x9e3779b97f4a7c15ULL;
	unsigned long long z = *s;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int xp_pct(const struct xp_cfg *cfg, struct xp_stats *st, struct xp_run *fail)
{
	unsigned long long rs = cfg->seed * 0x2545f4914f6cdd1dULL + 1;
	unsigned int n = xp_nr_fibers(), k, i, d = cfg->pct_depth ? cfg->pct_depth : 1;
	struct xp_run run;
	unsigned long r;

	xp_run_schedule(NULL, 0, &run);	/* k: the steps of the default run */
	k = run.len ? run.len : 1;
	st->pct_k = k;
	for (r = 0; r < cfg->pct_runs; r++) {
		unsigned int prio[XP_MAX_FIBERS], change[16], en;
		int prev = -1, c;

		for (i = 0; i < n; i++)
			prio[i] = d + i;
		for (i = n; i > 1; i--) {	/* shuffle */
			unsigned int j = (unsigned int)(pct_rng(&rs) % i), t = prio[i - 1];

			prio[i - 1] = prio[j];
			prio[j] = t;
		}
		for (i = 0; i + 1 < d && i < 16; i++)
			change[i] = (unsigned int)(pct_rng(&rs) % k);
		memset(&run, 0, sizeof(run));
		xp_exec_begin();
		while ((en = xp_enabled()) && run.len < XP_MAX_STEPS) {
			c = -1;
			for (i = 0; i < n; i++)
				if ((en & (1U << i)) && (c < 0 || prio[i] > prio[c]))
					c = (int)i;
			run.preemptions += cost(en, prev, c);
			run.choice[run.len++] = (unsigned char)c;
			xp_step((unsigned int)c);
			st->steps++;
			for (i = 0; i + 1 < d && i < 16; i++)
				if (change[i] == run.len - 1)
					prio[c] = i;
			prev = c;
		}
		if (en && !xp_failed())
			xp_fail("step_limit", "more than %d steps", XP_MAX_STEPS);
		xp_exec_end();
		run_fill_fail(&run);
		st->executions++;
		if (run.failed) {
			run.prefix_len = run.len;
			*fail = run;
			return 1;
		}
	}
	return 0;
}
