// SPDX-License-Identifier: GPL-2.0
/*
 * The per-candidate oracle of the OOM selection; see oom_ref.h. The reference
 * follows docs/spec/oom.md#oom-badness (per-task checks, badness),
 * docs/spec/oom.md#oom-v16-evaluate (v16: pass 1 keeps the largest
 * approximation, later ties win; pass 2 filters on approx + over +
 * accuracy_under - chosen < 0, then up to 16 precise re-checks on precise +
 * accuracy_under - chosen < 0, then selects on the approximation) and
 * docs/oom.md (bounded: a floor). Arithmetic wraps in v16's filters, as the
 * kernel's -fno-strict-overflow.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/rculist.h>
#include <stdio.h>
#include "hpcc_range.h"
#include "oom_ref.h"

static long wrap(long a, long b)
{
	return (long)((unsigned long)a + (unsigned long)b);
}

static long sat(long a, long b)
{
	long r;

	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? LONG_MAX : LONG_MIN;
	return r;
}

void oom_ref_read(struct task_struct *p, unsigned long totalpages, struct oom_ref_cand *c)
{
	struct mm_struct *vmm = oom_task_victim_mm(p), *mm;
	struct task_struct *t;
	long approx = 0, precise = 0;
	int i;

	memset(c, 0, sizeof(*c));
	c->task = p;
	c->unkillable = is_global_init(p) || (READ_ONCE(p->flags) & PF_KTHREAD);
	c->victim = vmm != NULL;
	c->victim_skip = vmm && mm_flags_test(MMF_OOM_SKIP, vmm);
	c->origin = READ_ONCE(p->signal->oom_flag_origin);
	c->adj = oom_task_adj(p);
	if (c->unkillable)
		return;
	t = oom_lock_task_mm(p);
	if (!t)
		return;
	mm = t->mm;
	if (c->adj == OOM_SCORE_ADJ_MIN || mm_flags_test(MMF_OOM_SKIP, mm) || in_vfork(t)) {
		task_unlock(t);
		return;
	}
	for (i = 0; i < NR_MM_COUNTERS; i++) {
		hpcc_accuracy_add(&mm->rss_stat[i], &c->under, &c->over);
		approx += percpu_counter_tree_approximate_sum_positive(&mm->rss_stat[i]);
		precise += percpu_counter_tree_precise_sum_positive(&mm->rss_stat[i]);
	}
	approx += atomic_long_read(&mm->pgtables_bytes) / (long)PAGE_SIZE;
	precise += atomic_long_read(&mm->pgtables_bytes) / (long)PAGE_SIZE;
	task_unlock(t);
	c->approx = approx + c->adj * (long)(totalpages / 1000);
	c->precise = precise + c->adj * (long)(totalpages / 1000);
	c->eligible = true;
}

void oom_ref_init(struct oom_ref_state *s)
{
	*s = (struct oom_ref_state){ .points = LONG_MIN, .floor = LONG_MIN };
}

static enum oom_cand_result pick(struct oom_ref_state *s, const struct oom_ref_cand *c,
				 long points, unsigned long acc, long floor)
{
	s->chosen = c->task;
	s->points = points;
	s->acc = acc;
	s->floor = floor;
	return OOM_CAND_SELECT;
}

/* Does a < 0 decision sit on its edge (the expression is -1 or 0)? */
static unsigned int edge(long diff, unsigned int bit)
{
	return diff == -1 || diff == 0 ? bit : 0;
}

enum oom_cand_result oom_ref_eval(enum oom_algo algo, bool pass2, struct oom_ref_state *s,
				  const struct oom_ref_cand *c, bool *precise,
				  unsigned int *edges)
{
	long d;

	*precise = false;
	*edges = 0;
	/* docs/spec/oom.md#oom-badness per-task checks (a global OOM, not sysrq). */
	if (c->unkillable)
		return OOM_CAND_SKIP;
	if (c->victim) {
		if (c->victim_skip)
			return OOM_CAND_SKIP;
		s->chosen = OOM_ABORT;
		return OOM_CAND_ABORT;
	}
	if (c->origin)
		return pick(s, c, LONG_MAX, 0, LONG_MAX);
	if (!c->eligible)
		return OOM_CAND_SKIP;
	if (algo == OOM_ALGO_PRECISE) {
		*precise = true;
		return c->precise < s->points ? OOM_CAND_SKIP : pick(s, c, c->precise, 0, 0);
	}
	if (!pass2) {
		/* Pass 1: the largest approximation, the later task on a tie. */
		if (c->approx < s->points)
			return OOM_CAND_SKIP;
		return pick(s, c, c->approx, c->under, sat(c->approx, -(long)c->over));
	}
	if (algo == OOM_ALGO_V16) {
		d = wrap(wrap(wrap(c->approx, c->over), s->acc), -s->points);
		*edges |= edge(d, OOM_EDGE_FILTER);
		if (d < 0)
			return OOM_CAND_SKIP;
		if (s->nr_precise >= OOM_MAX_PRECISE_BADNESS_SUMS)
			return pick(s, c, c->approx, c->under, 0);
		s->nr_precise++;
		*precise = true;
		d = wrap(wrap(c->precise, s->acc), -s->points);
		*edges |= edge(d, OOM_EDGE_RECHECK);
		return d < 0 ? OOM_CAND_SKIP : pick(s, c, c->precise, 0, 0);
	}
	/* bounded */
	d = sat(sat(c->approx, c->under), -s->floor);
	*edges |= edge(d, OOM_EDGE_FILTER);
	if (sat(c->approx, c->under) < s->floor)
		return OOM_CAND_SKIP;
	if (s->nr_precise < OOM_MAX_PRECISE_BADNESS_SUMS) {
		s->nr_precise++;
		*precise = true;
		*edges |= edge(sat(c->precise, -s->floor), OOM_EDGE_RECHECK);
		if (c->precise < s->floor)
			return OOM_CAND_SKIP;
		return pick(s, c, c->precise, 0, c->precise);
	}
	d = sat(c->approx, -(long)c->over);
	*edges |= edge(sat(s->floor, -d), OOM_EDGE_FALLBACK);
	if (d <= s->floor)
		return OOM_CAND_SKIP;
	return pick(s, c, c->approx, 0, d);
}

/* --- the audit --- */

struct rec {
	struct oom_candidate c;
	long floor_after;
};

static __thread struct rec *rec_buf;
static __thread unsigned int rec_n, rec_cap;

static void rec_hook(const struct oom_candidate *c, struct oom_control *oc)
{
	if (!rec_buf)
		return;		/* another thread's selection */
	if (rec_n < rec_cap) {
		rec_buf[rec_n].c = *c;
		rec_buf[rec_n].floor_after = oc->chosen_floor;
	}
	rec_n++;
}

static const char *const result_names[] = { "skip", "select", "abort" };

static int pid_of(struct task_struct *p)
{
	return !p ? 0 : p == OOM_ABORT ? -1 : p->pid;
}

/* A candidate's values and the reference's state, for a failure message. */
static int describe(char *buf, size_t len, const struct rec *r, const struct oom_ref_cand *c,
		    const struct oom_ref_state *s)
{
	return snprintf(buf, len, "%s pass %d, pid %d (approx %ld, under %lu, over %lu, precise "
			"%ld%s) against {chosen pid %d, points %ld, accuracy_under %lu, floor %ld, "
			"precise evaluations %d}", oom_algo_names[r->c.algo], r->c.pass2 ? 2 : 1,
			pid_of(c->task), c->approx, c->under, c->over, c->precise,
			c->eligible ? "" : ", not eligible", pid_of(s->chosen), s->points, s->acc,
			s->floor, s->nr_precise);
}

static int judge(struct oom_ref_report *rp, const struct rec *r, const struct oom_ref_cand *c,
		 const struct oom_ref_state *before, const struct oom_ref_state *want,
		 enum oom_cand_result res, bool precise)
{
	const struct oom_candidate *o = &r->c;
	bool is_v16 = o->algo == OOM_ALGO_V16, is_bounded = o->algo == OOM_ALGO_BOUNDED;
	char what[320];
	const char *why = NULL;

	if (o->chosen_before != before->chosen || o->points_before != before->points ||
	    (is_v16 && o->accuracy_under_before != before->acc) ||
	    o->nr_precise_before != before->nr_precise)
		why = "judged against another state";
	else if (o->result != res)
		why = "decision";
	else if ((o->precise_reads != 0) != precise)
		why = "precise evaluation";
	else if (res == OOM_CAND_SELECT && (o->points != want->points ||
		 (is_v16 && o->accuracy_under != want->acc) ||
		 (is_bounded && r->floor_after != want->floor)))
		why = "selected with other points";
	if (!why)
		return 0;
	describe(what, sizeof(what), r, c, before);
	snprintf(rp->msg, sizeof(rp->msg), "%s: %s: expected %s%s (points %ld, accuracy_under "
		 "%lu, floor %ld), the selection did %s%s (state before: chosen pid %d, points "
		 "%ld, accuracy_under %lu, %d precise; after: points %ld, accuracy_under %lu, "
		 "floor %ld)", what, why, result_names[res], precise ? " after a precise sum" : "",
		 want->points, want->acc, want->floor, result_names[o->result],
		 o->precise_reads ? " after a precise sum" : "", pid_of(o->chosen_before),
		 o->points_before, o->accuracy_under_before, o->nr_precise_before, o->points,
		 o->accuracy_under, r->floor_after);
	rp->mismatch = true;
	return -1;
}

int oom_ref_audit(enum oom_algo algo, unsigned long totalpages, struct oom_ref_report *rp)
{
	void (*saved)(const struct oom_candidate *, struct oom_control *) = oom_candidate_hook;
	struct oom_control oc = { .totalpages = totalpages, .algo = algo };
	struct oom_ref_cand *cands = NULL;
	struct oom_ref_state s;
	struct task_struct *p;
	unsigned int n = 0, cap = 0, i, k, ci;
	int ret = 0;

	memset(rp, 0, sizeof(*rp));
	rcu_read_lock();
	for_each_process(p)
		cap++;
	cands = kcalloc(cap + 1, sizeof(*cands), GFP_KERNEL);
	if (cands)
		for_each_process(p)
			if (n < cap)
				oom_ref_read(p, totalpages, &cands[n++]);
	rcu_read_unlock();
	rec_cap = 2 * (cap + 1);
	rec_buf = kcalloc(rec_cap, sizeof(*rec_buf), GFP_KERNEL);
	if (!cands || !rec_buf) {
		snprintf(rp->msg, sizeof(rp->msg), "out of memory");
		ret = -1;
		goto out;
	}
	rec_n = 0;
	oom_candidate_hook = rec_hook;
	oom_select_bad_process(&oc);
	oom_candidate_hook = saved;
	oom_ref_init(&s);
	for (i = 0; i < rec_n && i < rec_cap && !ret; i++) {
		const struct rec *r = &rec_buf[i];
		struct oom_ref_state before = s;
		enum oom_cand_result res;
		unsigned int edges;
		bool precise;

		for (ci = 0; ci < n && cands[ci].task != r->c.task; ci++)
			;
		if (ci == n) {
			snprintf(rp->msg, sizeof(rp->msg), "%s: candidate pid %d is not in the task "
				 "list read before the selection", oom_algo_names[algo],
				 pid_of(r->c.task));
			rp->mismatch = true;
			ret = -1;
			break;
		}
		res = oom_ref_eval(algo, r->c.pass2, &s, &cands[ci], &precise, &edges);
		rp->candidates++;
		rp->pass2 += r->c.pass2;
		rp->precise += precise;
		rp->selected += res == OOM_CAND_SELECT;
		for (k = 0; k < 3; k++)
			rp->edges[k] += edges >> k & 1;
		ret = judge(rp, r, &cands[ci], &before, &s, res, precise);
	}
	if (!ret && rec_n > rec_cap) {
		snprintf(rp->msg, sizeof(rp->msg), "%s: %u candidate evaluations for %u tasks",
			 oom_algo_names[algo], rec_n, n);
		rp->mismatch = true;
		ret = -1;
	}
	if (!ret && (oc.chosen != s.chosen || (s.chosen && oc.chosen_points != s.points))) {
		snprintf(rp->msg, sizeof(rp->msg), "%s: the selection ended with pid %d (points "
			 "%ld), its candidates' decisions with pid %d (points %ld)",
			 oom_algo_names[algo], pid_of(oc.chosen), oc.chosen_points,
			 pid_of(s.chosen), s.points);
		rp->mismatch = true;
		ret = -1;
	}
	oom_select_put(&oc);
out:
	kfree(rec_buf);
	rec_buf = NULL;
	kfree(cands);
	return ret;
}

/* --- the planner --- */

bool oom_ref_split_delta(long delta, short adj, unsigned long unit, short *new_adj,
			 long *pages)
{
	long steps;

	*new_adj = adj;
	*pages = delta;
	if (delta >= 0)
		return true;
	if (!unit)
		return false;
	steps = (-delta + (long)unit - 1) / (long)unit;
	if (adj - steps <= OOM_SCORE_ADJ_MIN)
		return false;
	*new_adj = adj - steps;
	*pages = delta + steps * (long)unit;
	return true;
}

/* The badness pass 2's next test compares, and the value that puts it on @goal. */
static bool goal_target(enum oom_algo algo, const struct oom_ref_state *s,
			const struct oom_ref_cand *c, unsigned int goal, long *delta)
{
	long e = goal & 1 ? -1 : 0;		/* on the edge, or one below */
	bool budget = s->nr_precise < OOM_MAX_PRECISE_BADNESS_SUMS;

	switch (algo == OOM_ALGO_V16 ? goal / 2 : 3 + goal / 2) {
	case 0:		/* v16 filter: approx + over + acc - points == e */
		*delta = s->points - (long)s->acc - (long)c->over + e - c->approx;
		return true;
	case 1:		/* v16 re-check: precise + acc - points == e */
		*delta = s->points - (long)s->acc + e - c->precise;
		return budget;
	case 3:		/* bounded filter: approx + under - floor == e */
		*delta = s->floor - (long)c->under + e - c->approx;
		return s->floor != LONG_MIN;
	case 4:		/* bounded re-check: precise - floor == e */
		*delta = s->floor + e - c->precise;
		return budget && s->floor != LONG_MIN;
	case 5:		/* bounded fallback: approx - over - floor == 1 + e */
		*delta = s->floor + (long)c->over + 1 + e - c->approx;
		return !budget && s->floor != LONG_MIN;
	default:
		return false;
	}
}

void oom_ref_plan_edges(enum oom_algo algo, const struct oom_ref_cand *c, unsigned int n,
			unsigned int rot, const long *min_delta, long *delta)
{
	unsigned int ngoals = algo == OOM_ALGO_V16 ? 4 : 6, i, g;
	struct oom_ref_state s;
	struct oom_ref_cand x;
	unsigned int w = n, edges;
	long aw = LONG_MIN;
	bool precise;

	/*
	 * Pass 1's choice W becomes the last candidate, one above the rest:
	 * every other one may then be moved up to W's approximation, which
	 * bounded's fallback edge (approx - over == floor == A_W - over)
	 * needs.
	 */
	for (i = 0; i < n; i++) {
		delta[i] = 0;
		if (c[i].eligible && !c[i].origin && !c[i].victim && !c[i].unkillable)
			w = i;
	}
	if (w == n || algo == OOM_ALGO_PRECISE)
		return;
	for (i = 0; i < w; i++)
		if (c[i].eligible)
			aw = max(aw, c[i].approx);
	if (c[w].approx <= aw && aw < LONG_MAX)
		delta[w] = aw + 1 - c[w].approx;
	oom_ref_init(&s);
	for (i = 0; i < n; i++) {
		x = c[i];
		x.approx += delta[i];
		x.precise += delta[i];
		oom_ref_eval(algo, false, &s, &x, &precise, &edges);
	}
	if (s.chosen != c[w].task) {
		delta[w] = 0;	/* an origin or a victim decides pass 1 */
		return;
	}
	aw = c[w].approx + delta[w];
	for (i = 0; i < n; i++) {
		x = c[i];
		x.approx += delta[i];
		x.precise += delta[i];
		if (i != w && x.eligible && !x.origin && !x.victim) {
			for (g = 0; g < ngoals; g++) {
				long d;

				if (!goal_target(algo, &s, &x, (rot + i + g) % ngoals, &d))
					continue;
				/* Pass 1 must keep its choice: later tasks win ties. */
				if (x.approx + d > aw || (i > w && x.approx + d == aw))
					continue;
				if (d < min_delta[i])
					continue;
				delta[i] = d;
				x.approx += d;
				x.precise += d;
				break;
			}
		}
		oom_ref_eval(algo, true, &s, &x, &precise, &edges);
	}
}
