// SPDX-License-Identifier: GPL-2.0
/*
 * The searches over the fiber machine (docs/explore.md):
 *  - depth-first, stateless (each execution re-runs from a fresh setup),
 *    bounded by the number of preemptions (a switch away from a fiber
 *    that could have gone on), iterated from bound 0 up so that the first
 *    failure found has the fewest preemptions (CHESS); optionally with
 *    sleep sets over the accesses the points record, or with dynamic
 *    partial-order reduction (Flanagan-Godefroid backtrack sets from
 *    vector clocks, and under a bound the conservative backtracking of
 *    bounded POR, Coons-Musuvathi-McKinley);
 *  - either way, each completed execution's happens-before order of
 *    dependent accesses is hashed, so that the distinct Mazurkiewicz
 *    traces a search covered are counted;
 *  - PCT: random priorities with depth-1 priority change points.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "xp.h"

/* A vector clock: per fiber, how many of its events happen before. */
struct clk {
	unsigned short c[XP_MAX_FIBERS];
};

#define XP_HELD		2
#define XP_RACES	1024

struct node {
	unsigned int enabled, tried, done, sleep;	/* done: explored, tried: also skipped */
	unsigned int bt;		/* backtrack set: the fibers to try here */
	int prev;			/* the fiber of the previous step, -1 first */
	unsigned int pre;		/* preemptions before this step */
	unsigned char chosen;
	unsigned short idx;		/* the step's event: the chosen fiber's idx-th */
	const void *held[XP_HELD];	/* spin locks the previous step's fiber holds */
	struct clk ev;			/* ... and its clock, itself included */
	struct xp_access acc[XP_MAX_FIBERS];
};

static struct node stack[XP_MAX_STEPS];
/* Each fiber's clock before the current step: that of its last event. */
static struct clk cur[XP_MAX_FIBERS];
/* The spin locks each fiber holds before the current step, innermost last. */
static const void *locks[XP_MAX_FIBERS][XP_HELD];
static unsigned int nr_locks[XP_MAX_FIBERS];
/* The races of this execution (step, fiber) that reversed under a bound. */
static struct race {
	unsigned int step, q;
} races[XP_RACES];
static unsigned int nr_races;
static bool races_lost;

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

/* Distinct traces: a set of 64-bit hashes, open addressing. */
static struct {
	uint64_t *slot;
	unsigned long size, used;
} traces;

static void traces_reset(void)
{
	free(traces.slot);
	traces.size = 1UL << 12;
	traces.used = 0;
	traces.slot = calloc(traces.size, sizeof(*traces.slot));
}

static void traces_insert(uint64_t h, struct xp_stats *st)
{
	unsigned long i, j;

	if (!traces.slot)
		return;
	h |= 1;				/* 0 marks an empty slot */
	if (2 * (traces.used + 1) > traces.size) {
		uint64_t *old = traces.slot;
		unsigned long n = traces.size;

		traces.slot = calloc(2 * n, sizeof(*traces.slot));
		if (!traces.slot) {
			traces.slot = old;
			return;
		}
		traces.size = 2 * n;
		for (j = 0; j < n; j++)
			for (i = old[j] % traces.size; old[j]; i = (i + 1) % traces.size)
				if (!traces.slot[i]) {
					traces.slot[i] = old[j];
					break;
				}
		free(old);
	}
	for (i = h % traces.size; traces.slot[i]; i = (i + 1) % traces.size)
		if (traces.slot[i] == h)
			return;
	traces.slot[i] = h;
	traces.used++;
	st->traces++;
}

static uint64_t mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * The trace of stack[0..depth): each event, named by its fiber and its
 * position there, with its clock. The clocks are the happens-before
 * order, which is the same for every schedule of one Mazurkiewicz trace;
 * summing the events' hashes makes the result independent of the order
 * the schedule listed them in.
 */
static uint64_t trace_hash(unsigned int depth)
{
	unsigned int d, i, n = xp_nr_fibers();
	uint64_t h = 0;

	for (d = 0; d < depth; d++) {
		const struct node *m = &stack[d];
		uint64_t e = mix(((uint64_t)m->chosen << 16 | m->idx) + 0x9e3779b97f4a7c15ULL);

		for (i = 0; i < n; i++)
			e = mix(e ^ ((uint64_t)m->ev.c[i] << 8 | i));
		h += e;
	}
	return h;
}

/*
 * The clock of step @d (fiber @c): its fiber's, joined with that of every
 * earlier step of another fiber whose access is dependent with this one.
 * A step already covered by the clock adds nothing (clocks are closed
 * downwards), which keeps the scan cheap.
 */
static void event_clock(unsigned int d, unsigned int c)
{
	struct node *n = &stack[d];
	const struct xp_access *a = &n->acc[c];
	struct clk v = cur[c];
	unsigned int k;
	int i;

	for (i = (int)d - 1; i >= 0; i--) {
		const struct node *m = &stack[i];
		unsigned int p = m->chosen;

		if (p == c || v.c[p] >= m->idx || !dependent(&m->acc[p], a))
			continue;
		for (k = 0; k < XP_MAX_FIBERS; k++)
			if (m->ev.c[k] > v.c[k])
				v.c[k] = m->ev.c[k];
	}
	v.c[c]++;
	n->idx = v.c[c];
	n->ev = v;
}

/* A lock's release and another fiber's acquire are never enabled together. */
static bool coenabled(const struct xp_access *a, const struct xp_access *b)
{
	return !((a->kind == KC_XP_UNLOCK && b->kind == KC_XP_LOCK) ||
		 (a->kind == KC_XP_LOCK && b->kind == KC_XP_UNLOCK));
}

/* Try @q at step @i: if it cannot run there, every fiber that can (Flanagan-Godefroid). */
static void add_backtrack(unsigned int i, unsigned int q)
{
	struct node *m = &stack[i];

	m->bt |= (m->enabled & (1U << q)) ? 1U << q : m->enabled;
}

/*
 * DPOR at state @d: for each fiber q not done, the last earlier step that
 * is dependent with q's next access, could have been enabled with it and
 * does not happen before q's last event is a race; q (or, when it could
 * not run there, every fiber that could) goes into that step's backtrack
 * set. Under a bound, reversing the race right there may cost a
 * preemption the bound forbids while the same reversal made where the
 * schedule switched fibers anyway would not: bounded POR (Coons,
 * Musuvathi, McKinley) also adds the backtrack point at the start of the
 * step's run of one fiber, and held_points() those inside the run where
 * its fiber holds a lock q takes.
 */
static void dpor_races(const struct xp_cfg *cfg, unsigned int d)
{
	unsigned int live = xp_live(), q;
	int i, j;

	for (q = 0; q < xp_nr_fibers(); q++) {
		const struct xp_access *a = &stack[d].acc[q];

		if (!(live & (1U << q)))
			continue;
		for (i = (int)d - 1; i >= 0; i--) {
			const struct node *m = &stack[i];
			unsigned int p = m->chosen;

			if (p == q || cur[q].c[p] >= m->idx || !dependent(&m->acc[p], a) ||
			    !coenabled(&m->acc[p], a))
				continue;
			add_backtrack((unsigned int)i, q);
			if (cfg->bound >= 0) {
				for (j = i; j > 0 && stack[j].prev == (int)stack[j].chosen; j--)
					;
				add_backtrack((unsigned int)j, q);
				if (nr_races < XP_RACES)
					races[nr_races++] = (struct race){ (unsigned int)i, q };
				else
					races_lost = true;
			}
			break;
		}
	}
}

/* The locks @c holds after @a; more than XP_HELD: be conservative. */
static void track_locks(const struct xp_access *a, unsigned int c)
{
	unsigned int k;

	if (a->kind == KC_XP_LOCK) {
		if (nr_locks[c] < XP_HELD)
			locks[c][nr_locks[c]++] = a->addr;
		else
			races_lost = true;
	} else if (a->kind == KC_XP_UNLOCK) {
		for (k = 0; k < nr_locks[c] && locks[c][k] != a->addr; k++)
			;
		if (k < nr_locks[c])
			locks[c][k] = locks[c][--nr_locks[c]];
	}
}

/*
 * Bounded POR's point at the start of a run is not enough when the fiber
 * that runs there holds a spin lock: the schedule that reverses the race
 * within the bound can be one where q comes in while the lock is held, and
 * later blocks on it, which hands the lock holder back for free. So each
 * race also puts q at every point of that run where its fiber holds a
 * lock q takes somewhere in this execution.
 */
#define XP_TAKEN	16

static void held_points(unsigned int depth)
{
	static const void *taken[XP_MAX_FIBERS][XP_TAKEN];
	unsigned int nr_taken[XP_MAX_FIBERS] = { 0 }, r, d, k, t, j, q;

	if (!nr_races && !races_lost)
		return;
	/* The distinct locks each fiber takes in this execution. */
	for (d = 0; d < depth; d++) {
		const struct xp_access *a = &stack[d].acc[stack[d].chosen];

		q = stack[d].chosen;
		if (a->kind != KC_XP_LOCK)
			continue;
		for (t = 0; t < nr_taken[q] && taken[q][t] != a->addr; t++)
			;
		if (t == nr_taken[q] && t < XP_TAKEN)
			taken[q][nr_taken[q]++] = a->addr;
		else if (t == XP_TAKEN)
			races_lost = true;
	}
	for (r = 0; r < nr_races && !races_lost; r++) {
		q = races[r].q;
		for (j = races[r].step; j > 0 && stack[j].prev == (int)stack[j].chosen; j--)
			for (k = 0; k < XP_HELD && stack[j].held[k]; k++)
				for (t = 0; t < nr_taken[q]; t++)
					if (taken[q][t] == stack[j].held[k])
						add_backtrack(j, q);
	}
	/* Too many races or locks to keep: every point where a lock is held. */
	if (races_lost)
		for (j = 1; j < depth; j++)
			if (stack[j].held[0])
				stack[j].bt |= stack[j].enabled;
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
	bool blocked = false, dpor = cfg->reduction == XP_RED_DPOR;
	/* Sleep sets under a bound can lose traces; DPOR uses them only without one. */
	bool use_sleep = cfg->reduction == XP_RED_SLEEP || (dpor && cfg->bound < 0);

	memset(out, 0, sizeof(*out));
	memset(cur, 0, sizeof(cur));
	memset(nr_locks, 0, sizeof(nr_locks));
	nr_races = 0;
	races_lost = false;
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
			if (dpor)
				dpor_races(cfg, d);
			c = default_choice(en & ~sleep, prev);
			if (c < 0) {
				blocked = true;
				break;
			}
			n->chosen = (unsigned char)c;
			n->tried = n->done = 1U << c;
			/* Without DPOR every runnable fiber is tried here. */
			n->bt = dpor ? 1U << c : en;
		} else {
			/*
			 * The state the node was made in, but not its addresses:
			 * the harness's allocations can land elsewhere from one
			 * execution to the next. Clocks compare this execution's.
			 */
			for (i = 0; i < xp_nr_fibers(); i++)
				n->acc[i] = *xp_pending(i);
		}
		c = n->chosen;
		for (i = 0; i < XP_HELD; i++)
			n->held[i] = prev >= 0 && i < nr_locks[prev] ? locks[prev][i] : NULL;
		if (dpor && cfg->bound >= 0)
			track_locks(&n->acc[c], (unsigned int)c);
		/* The step chosen anew where the search backtracked has a new clock. */
		if (d + 1 >= fixed)
			event_clock(d, (unsigned int)c);
		cur[c] = n->ev;
		/* The child's sleep set: what was asleep or done here and commutes with c. */
		sleep = 0;
		if (use_sleep)
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
	if (dpor && cfg->bound >= 0)
		held_points(d);
	if (blocked) {
		xp_exec_abandon();
		return false;
	}
	if (en && !xp_failed())
		xp_fail("step_limit", "more than %d steps", XP_MAX_STEPS);
	xp_exec_end();
	run_fill_fail(out);
	traces_insert(trace_hash(d), st);
	return true;
}

/* The deepest node with an untried alternative within the bound; -1 when none. */
static int backtrack(const struct xp_cfg *cfg, int bound, unsigned int depth, struct xp_stats *st)
{
	int d;
	unsigned int a;

	for (d = (int)depth - 1; d >= 0; d--) {
		struct node *n = &stack[d];
		unsigned int left = n->bt & n->enabled & ~n->tried;

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

	traces_reset();
	for (b = from; b <= top; b++) {
		unsigned int fixed = 0, depth = 0;
		unsigned long before = st->executions;
		int d;

		st->bound_reached = b;
		for (;;) {
			if (cfg->budget && st->executions >= cfg->budget) {
				/* The executions this bound made before the cut. */
				if (b >= 0 && b < 16)
					st->per_bound[b] = st->executions - before;
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
