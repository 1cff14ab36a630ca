// SPDX-License-Identifier: GPL-2.0
/*
 * oom_race: the two-pass OOM victim selection under RCU
 * (docs/spec/oom.md#oom-correct-victim).
 *
 * Virtual CPUs charge and uncharge RSS pages toward seeded per-slot
 * targets (layouts: one hog, a packed crowd, ties, a descending chain),
 * fork and exit tasks, change oom_score_adj and run OOM kills (victim
 * marked, then reaped and exited). Selector threads run v16 and/or
 * bounded continuously; at every stutter the precise oracle judges both.
 *
 * Ground truth lives in struct oom_gt, one per task, freed with the task.
 * Event stamps (a global sequence) let a selection spanning [S0, S1] be
 * judged only on facts that held over the whole window, so a clean run
 * cannot fail on a race.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <kcompat/kcompat.h>
#include "mm/oom_select.h"
#include "shape/hpcc_shape.h"
#include "oom_bounds.h"
#include "util/json.h"
#include "scenario.h"
#include "oom_oracle.h"

#define NR_UNITS	(NR_MM_COUNTERS + 1)	/* + page-table bytes */
#define SLOT_CLAIMED	((struct task_struct *)1UL)

enum layout { L_HOG, L_PACKED, L_TIES, L_CHAIN, L_MIXED };
static const char *const layout_names[] = { "hog", "packed", "ties", "chain", "mixed", NULL };

/* Options (set before setup). */
static struct oom_cfg {
	int algo;		/* enum oom_algo; -1: both; -2: the build's default */
	long max_shortfall;	/* -1: none */
	int layout;		/* enum layout */
	unsigned int tasks;
} cfg = { .algo = -2, .max_shortfall = -1 };

struct oom_gt {
	atomic_long units[NR_UNITS];	/* exact pages; [NR_MM_COUNTERS] in bytes */
	pthread_mutex_t lock;		/* adj changes */
	short adj;
	bool unkillable;
	atomic_ulong exit_seq;		/* stamped after unlink */
	atomic_ulong adj_min_since;	/* after adj became -1000 */
	atomic_ulong adj_min_until;	/* before adj left -1000 */
	atomic_ulong victim_seq;	/* after marked victim */
	atomic_ulong skip_seq;		/* before MMF_OOM_SKIP */
	struct rcu_head rcu;
};

struct oom_slot {
	struct task_struct *task;	/* NULL, SLOT_CLAIMED or a task */
	atomic_long target;		/* badness pages the CPUs steer to */
};

/* A CPU's OOM kill, one stage at a time: marked, then reaped, then exited. */
struct oom_cpu_kill {
	struct task_struct *killing;	/* marked, not reaped (checkers read it) */
	struct task_struct *reaped;	/* reaped, still on the task list */
	unsigned int left;		/* the CPU's steps until the next stage */
	unsigned long sel;		/* ... or until selections_done() passes this */
};

#define QREC_MAX	4096

struct oom_race {
	struct stress *s;
	struct oom_slot *slots;
	unsigned int nr_slots;
	struct task_struct *init, *kthread;
	struct oom_cpu_kill *kill;	/* per CPU */
	atomic_ulong kills;
	unsigned long under, over, window, slack4;
	unsigned long totalpages;	/* adj unit = totalpages / 1000 = window / 256 */
	enum layout phase;		/* the active layout (mixed rotates) */
	struct rng lrng;		/* layout draws, main thread only */
	atomic_ulong seq;
	atomic_long active_victims;
	atomic_ulong last_skip_done;
	atomic_ulong chain_churn;	/* forks, exits, adj changes in the chain layout */
	/* Statistics. */
	atomic_ulong selections[3], aborts, budget_runs[3], fallbacks[3];
	unsigned long q_checks, q_pending, q_exact, q_crowded, q_v16_runout, q_v16_sel;
	long q_worst[3];		/* worst quiescent shortfall per algo */
	unsigned long q_hits[3];	/* quiescent selections not at the max */
	/* Each quiescent selection's shortfall and true maximum (the first QREC_MAX). */
	struct { long sh, max; } qrec[3][QREC_MAX];
	unsigned int nqrec[3];
	struct oom_oracle_stats oracle;	/* per-candidate decisions */
};

static struct oom_race *R;

/* A shortfall in accuracy windows; the window is 0 at one CPU (exact, no NaN). */
static double in_windows(long pages)
{
	return R->window ? (double)pages / R->window : 0;
}

static unsigned long stamp(void)
{
	return atomic_fetch_add(&R->seq, 1) + 1;
}

static long lrng_below(unsigned long n)
{
	return (long)rng_below(&R->lrng, n);
}

/* --- options --- */

static const char *const algo_choices[] = { "v16", "bounded", "both", "precise", NULL };
static const int algo_values[] = { OOM_ALGO_V16, OOM_ALGO_BOUNDED, -1, OOM_ALGO_PRECISE };

static const struct stress_opt oom_opts[] = {
	{ "oom-algo", .arg = "A", .type = OPT_CHOICE, OPT_FIELD(struct oom_cfg, algo),
	  .choices = algo_choices, .values = algo_values,
	  .help = "selection under test (both: v16 and bounded alternate); default both, "
		  "or precise when KERNEL_SRC's tree has one precise pass." },
	{ "oom-max-shortfall", .arg = "PAGES", .type = OPT_UINT,
	  OPT_FIELD(struct oom_cfg, max_shortfall), .min = 0, .max = LONG_MAX / 2,
	  .help = "fail when v16's victim is more than PAGES below the true maximum at a "
		  "quiescent point." },
	{ "oom-layout", .arg = "L", .type = OPT_CHOICE, OPT_FIELD(struct oom_cfg, layout),
	  .choices = layout_names, .deflt = "mixed",
	  .help = "task layout (mixed rotates hog, packed and ties)." },
	{ "oom-tasks", .arg = "N", .type = OPT_UINT, OPT_FIELD(struct oom_cfg, tasks),
	  .min = 2, .max = 4096, .deflt = "48",
	  .help = "task slots (chain uses at least 24)." },
	{ .name = NULL }
};

/* --- layouts --- */

static long draw_target(unsigned int slot)
{
	unsigned long w = R->window;
	unsigned int k;
	long top;

	switch (R->phase) {
	case L_HOG:
		return slot == 0 ? (long)(40 * w) : lrng_below(w);
	case L_PACKED:
		return 8 * w + lrng_below(w / 2);
	case L_TIES:
		return slot < 6 ? (long)(8 * w) : lrng_below(4 * w);
	case L_CHAIN:
		/*
		 * 16 equal tops burn the budget; then steps that pass v16's
		 * filter whatever the residuals: O - 4T, then U + O - 4T.
		 */
		k = R->nr_slots - OOM_MAX_PRECISE_BADNESS_SUMS;
		top = (long)((k + 2) * w);
		if (slot < OOM_MAX_PRECISE_BADNESS_SUMS)
			return top;
		k = slot - OOM_MAX_PRECISE_BADNESS_SUMS;
		return top - (long)(R->over > R->slack4 ? R->over - R->slack4 : 0) -
		       (long)k * (long)(w - R->slack4);
	default:
		return 0;
	}
}

static void draw_targets(void)
{
	unsigned int i;

	for (i = 0; i < R->nr_slots; i++)
		atomic_store(&R->slots[i].target, draw_target(i));
}

static bool churn_allowed(void)
{
	return R->phase != L_CHAIN;
}

/* A fork, an exit or an adj change: the chain layout has none (task_churn). */
static void churn_note(void)
{
	if (R->phase == L_CHAIN)
		atomic_fetch_add_explicit(&R->chain_churn, 1, memory_order_relaxed);
}

/* --- tasks --- */

static void gt_free_rcu(struct rcu_head *head)
{
	struct oom_gt *gt = container_of(head, struct oom_gt, rcu);

	pthread_mutex_destroy(&gt->lock);
	free(gt);
}

/* After a grace period: a reader that found the task may still read it. */
static void gt_free(struct task_struct *p)
{
	struct oom_gt *gt = p->owner;

	if (gt)
		call_rcu(&gt->rcu, gt_free_rcu);
}

static void on_poison(const void *obj, const char *where)
{
	stress_fail(R->s, "no_use_after_free", (int)kc_get_cpu(),
		    "a freed task (%p) was accessed in %s", obj, where);
}

static struct task_struct *task_new(bool unkillable, bool kthread)
{
	struct oom_gt *gt = calloc(1, sizeof(*gt));
	struct oom_task_attr a = { .is_init = unkillable, .kthread = kthread, .owner = gt };
	struct task_struct *p;

	if (!gt)
		return NULL;
	pthread_mutex_init(&gt->lock, NULL);
	gt->unkillable = unkillable || kthread;
	p = oom_task_create(&a);
	if (!p) {
		pthread_mutex_destroy(&gt->lock);
		free(gt);
	}
	return p;
}

static long gt_badness_pages(struct oom_gt *gt)
{
	long v = 0;
	int i;

	for (i = 0; i < NR_MM_COUNTERS; i++)
		v += atomic_load_explicit(&gt->units[i], memory_order_relaxed);
	return v + atomic_load_explicit(&gt->units[NR_MM_COUNTERS],
					memory_order_relaxed) / (long)PAGE_SIZE;
}

/* Charge @n units of @u on the current CPU: counter first, then truth. */
static void charge(struct task_struct *p, struct mm_struct *mm, int u, long n)
{
	struct oom_gt *gt = p->owner;

	if (u < NR_MM_COUNTERS)
		oom_mm_add(mm, u, n);
	else
		atomic_long_add(n, &mm->pgtables_bytes);
	atomic_fetch_add_explicit(&gt->units[u], n, memory_order_relaxed);
}

/* Uncharge up to @n: reserve in the truth first so it never goes negative. */
static void uncharge(struct task_struct *p, struct mm_struct *mm, int u, long n)
{
	struct oom_gt *gt = p->owner;
	long cur = atomic_load_explicit(&gt->units[u], memory_order_relaxed);

	do {
		if (cur <= 0)
			return;
		if (n > cur)
			n = cur;
	} while (!atomic_compare_exchange_weak(&gt->units[u], &cur, cur - n));
	if (u < NR_MM_COUNTERS)
		oom_mm_add(mm, u, -n);
	else
		atomic_long_add(-n, &mm->pgtables_bytes);
}

static int pick_unit(struct stress_rng *rng)
{
	unsigned long long r = stress_rng_below(rng, 100);

	/* Skewed like real RSS: mostly anon, then file, shmem, swap, page tables. */
	if (r < 55)
		return MM_ANONPAGES;
	if (r < 80)
		return MM_FILEPAGES;
	if (r < 90)
		return MM_SHMEMPAGES;
	if (r < 96)
		return MM_SWAPENTS;
	return NR_MM_COUNTERS;
}

static void steer(struct stress *s, unsigned int cpu, struct stress_rng *rng,
		  struct oom_slot *sl, struct task_struct *p)
{
	struct mm_struct *mm = rcu_dereference(p->mm);
	long diff, n, big;
	int u = pick_unit(rng);
	long scale = u == NR_MM_COUNTERS ? (long)PAGE_SIZE : 1;

	if (!mm)
		return;
	diff = atomic_load_explicit(&sl->target, memory_order_relaxed) -
	       gt_badness_pages(p->owner);
	big = 4 * (long)stress_batch(s);
	if (labs(diff) / 4 > big)
		big = labs(diff) / 4;
	n = 1 + (long)stress_rng_below(rng, big);
	if (diff > 0) {
		n = n < diff ? n : diff;
		charge(p, mm, u, n * scale);
		stress_trace(s, cpu, "charge", p->pid, n);
	} else if (diff < 0) {
		n = n < -diff ? n : -diff;
		uncharge(p, mm, u, n * scale);
		stress_trace(s, cpu, "uncharge", p->pid, n);
	} else {
		/* At the target: churn the counters, net zero. */
		charge(p, mm, u, n * scale);
		uncharge(p, mm, u, n * scale);
	}
}

/* adj 1000 = 4 windows: a hog; small values reorder a crowd without breaking it. */
static const short adj_values[] = { 0, 0, 0, 10, -10, 100, OOM_SCORE_ADJ_MIN, 1000, -500 };

static void change_adj(struct stress *s, unsigned int cpu, struct stress_rng *rng,
		       struct task_struct *p)
{
	struct oom_gt *gt = p->owner;
	/* Only the hog phase makes new hogs. */
	unsigned int nv = R->phase == L_HOG ? ARRAY_SIZE(adj_values) : ARRAY_SIZE(adj_values) - 2;
	short v = adj_values[stress_rng_below(rng, nv)];

	pthread_mutex_lock(&gt->lock);
	if (v == OOM_SCORE_ADJ_MIN && gt->adj != OOM_SCORE_ADJ_MIN) {
		oom_set_score_adj(p, v);
		atomic_store(&gt->adj_min_since, stamp());
	} else if (v != OOM_SCORE_ADJ_MIN && gt->adj == OOM_SCORE_ADJ_MIN) {
		atomic_store(&gt->adj_min_until, stamp());
		oom_set_score_adj(p, v);
	} else {
		oom_set_score_adj(p, v);
	}
	gt->adj = v;
	pthread_mutex_unlock(&gt->lock);
	stress_trace(s, cpu, "adj", p->pid, v);
}

/* Exit a task the caller has claimed (taken out of its slot). */
static void task_exit(struct task_struct *p)
{
	struct oom_gt *gt = p->owner;

	get_task_struct(p);
	oom_task_exit(p);
	atomic_store(&gt->exit_seq, stamp());
	put_task_struct(p);
}

static unsigned long selections_done(void)
{
	return atomic_load_explicit(&R->selections[OOM_ALGO_PRECISE], memory_order_relaxed) +
	       atomic_load_explicit(&R->selections[OOM_ALGO_V16], memory_order_relaxed) +
	       atomic_load_explicit(&R->selections[OOM_ALGO_BOUNDED], memory_order_relaxed);
}

/* A stage lasts until two selections overlapped it (bounded if none run). */
static void kill_stage_start(struct oom_cpu_kill *k)
{
	k->left = 100000;
	k->sel = selections_done() + 2;
}

static bool kill_stage_done(struct oom_cpu_kill *k)
{
	return !--k->left || selections_done() > k->sel;
}

/*
 * An OOM kill spans several steps of its CPU: the victim is marked, the
 * CPU goes on with its work for a while (selections meanwhile must
 * abort), then the reaper sets MMF_OOM_SKIP; the reaped task lingers on
 * the task list for a while more (selections meanwhile must skip it, not
 * abort: docs/spec/oom.md#oom-badness) before it exits.
 */
static void oom_kill_start(struct stress *s, unsigned int cpu,
			   struct task_struct *p)
{
	struct oom_cpu_kill *k = &R->kill[cpu];
	struct oom_gt *gt = p->owner;

	atomic_fetch_add(&R->active_victims, 1);
	kill_stage_start(k);
	__atomic_store_n(&k->killing, p, __ATOMIC_RELEASE);
	oom_mark_victim(p);
	atomic_store(&gt->victim_seq, stamp());
	atomic_fetch_add(&R->kills, 1);
	stress_trace(s, cpu, "oom_kill", p->pid, k->left);
}

static void oom_kill_finish(struct stress *s, unsigned int cpu)
{
	struct oom_cpu_kill *k = &R->kill[cpu];
	struct task_struct *p = k->killing;
	struct oom_gt *gt = p->owner;
	unsigned long done, old;

	atomic_store(&gt->skip_seq, stamp());
	oom_set_mm_skip(p);
	done = stamp();
	old = atomic_load(&R->last_skip_done);
	while (old < done && !atomic_compare_exchange_weak(&R->last_skip_done, &old, done))
		;
	atomic_fetch_sub(&R->active_victims, 1);
	/*
	 * Cleared before the exit: a checker that still sees it is in a
	 * read-side section the exit's grace period waits for.
	 */
	__atomic_store_n(&k->killing, NULL, __ATOMIC_RELEASE);
	stress_trace(s, cpu, "reaped", p->pid, 0);
	kill_stage_start(k);
	k->reaped = p;
}

static void oom_reaped_exit(struct stress *s, unsigned int cpu)
{
	struct task_struct *p = R->kill[cpu].reaped;

	R->kill[cpu].reaped = NULL;
	stress_trace(s, cpu, "reaped_exit", p->pid, 0);
	task_exit(p);
}

static void cpu_step(struct stress *s, unsigned int cpu, struct stress_rng *rng)
{
	unsigned int i = stress_rng_below(rng, R->nr_slots);
	struct oom_slot *sl = &R->slots[i];
	unsigned long long r = stress_rng_below(rng, 100000);
	struct oom_cpu_kill *k = &R->kill[cpu];
	struct task_struct *p;

	if (k->reaped && kill_stage_done(k))
		oom_reaped_exit(s, cpu);
	else if (k->killing && kill_stage_done(k))
		oom_kill_finish(s, cpu);
	if (churn_allowed() && r < 100) {
		churn_note();
		/* Fork into an empty slot, or exit (sometimes by OOM kill). */
		p = __atomic_load_n(&sl->task, __ATOMIC_ACQUIRE);
		if (!p) {
			if (!__atomic_compare_exchange_n(&sl->task, &p, SLOT_CLAIMED, false,
							 __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
				return;
			p = task_new(false, false);
			__atomic_store_n(&sl->task, p, __ATOMIC_RELEASE);
			stress_trace(s, cpu, "fork", p ? p->pid : -1, i);
			return;
		}
		if (p == SLOT_CLAIMED ||
		    !__atomic_compare_exchange_n(&sl->task, &p, NULL, false,
						 __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			return;
		stress_trace(s, cpu, "exit", p->pid, i);
		/* One exit in 1000 is an OOM kill, one at a time per CPU. */
		if (!k->killing && !k->reaped && stress_rng_below(rng, 1000) == 0)
			oom_kill_start(s, cpu, p);
		else
			task_exit(p);
		return;
	}
	rcu_read_lock();
	p = rcu_dereference(sl->task);
	if (p && p != SLOT_CLAIMED && oom_task_alive(p, "charge path")) {
		if (churn_allowed() && r < 110) {
			churn_note();
			change_adj(s, cpu, rng, p);
		} else {
			steer(s, cpu, rng, sl, p);
		}
	}
	rcu_read_unlock();
}

/* --- continuous checks --- */

static void check_victim(struct stress *s, unsigned int id, struct oom_control *oc,
			 unsigned long s0, unsigned long s1)
{
	struct task_struct *p = oc->chosen;
	struct oom_gt *gt;
	unsigned long since, until, ex;
	short adj;

	if (p == OOM_ABORT) {
		/* Legit only if some kill was in progress during [s0, s1]. */
		if (!atomic_load(&R->active_victims) && atomic_load(&R->last_skip_done) < s0)
			stress_fail(s, "abort_needs_victim", -1,
				    "selector %u aborted with no OOM victim in progress", id);
		atomic_fetch_add(&R->aborts, 1);
		return;
	}
	if (!p)
		return;
	gt = p->owner;
	stress_count_checks(s, 3);
	if (gt->unkillable)
		stress_fail(s, "victim_killable", -1, "selector %u chose unkillable pid %d",
			    id, p->pid);
	ex = atomic_load(&gt->exit_seq);
	if (ex && ex < s0)
		stress_fail(s, "victim_not_exited", -1,
			    "selector %u chose pid %d, exited (stamp %lu) before the selection began (%lu)",
			    id, p->pid, ex, s0);
	pthread_mutex_lock(&gt->lock);
	adj = gt->adj;
	since = atomic_load(&gt->adj_min_since);
	until = atomic_load(&gt->adj_min_until);
	pthread_mutex_unlock(&gt->lock);
	if (since && since < s0 &&
	    (adj == OOM_SCORE_ADJ_MIN || (until > since && until > s1)))
		stress_fail(s, "victim_not_adj_min", -1,
			    "selector %u chose pid %d at oom_score_adj -1000 over [%lu, %lu]",
			    id, p->pid, s0, s1);
}

/* A kill in progress over the whole window must abort the selection. */
static void check_must_abort(struct stress *s, unsigned int id, struct oom_control *oc,
			     unsigned long s0, unsigned long s1)
{
	unsigned int i;

	if (oc->chosen == OOM_ABORT)
		return;
	rcu_read_lock();
	for (i = 0; i < stress_nr_cpus(s); i++) {
		struct task_struct *p = __atomic_load_n(&R->kill[i].killing, __ATOMIC_ACQUIRE);
		struct oom_gt *gt;
		unsigned long v, sk;

		if (!p)
			continue;
		gt = p->owner;
		v = atomic_load(&gt->victim_seq);
		sk = atomic_load(&gt->skip_seq);
		if (v && v < s0 && (!sk || sk > s1))
			stress_fail(s, "abort_on_victim", -1,
				    "selector %u did not abort although pid %d was being killed over [%lu, %lu]",
				    id, p->pid, s0, s1);
	}
	rcu_read_unlock();
}

static bool two_pass(enum oom_algo a)
{
	return a != OOM_ALGO_PRECISE;
}

static enum oom_algo algo_for(unsigned int id, unsigned long n)
{
	if (cfg.algo >= 0)
		return cfg.algo;
	return (id + n) % 2 ? OOM_ALGO_BOUNDED : OOM_ALGO_V16;
}

static void select_step(struct stress *s, unsigned int id, struct stress_rng *rng)
{
	static __thread unsigned long n;
	struct oom_control oc = { .totalpages = R->totalpages, .algo = algo_for(id, n++) };
	unsigned long s0, s1;

	s0 = stamp();
	oom_select_bad_process(&oc);
	s1 = stamp();
	atomic_fetch_add(&R->selections[oc.algo], 1);
	if (oc.stats.budget_hits)
		atomic_fetch_add(&R->budget_runs[oc.algo], 1);
	atomic_fetch_add(&R->fallbacks[oc.algo], oc.stats.fallback_selects);
	if (stress_checking(s)) {
		stress_count_checks(s, 2);
		if (two_pass(oc.algo))
			stress_margin(s, "precise_budget", oc.stats.precise_evals,
				      OOM_MAX_PRECISE_BADNESS_SUMS);
		if (two_pass(oc.algo) &&
		    !oom_budget_ok(oc.stats.precise_evals, oc.stats.precise_counter_sums))
			stress_fail(s, "precise_budget", -1,
				    "%s selection made %lu precise evaluations (%lu counter sums) > 16",
				    oom_algo_names[oc.algo], oc.stats.precise_evals,
				    oc.stats.precise_counter_sums);
		check_victim(s, id, &oc, s0, s1);
		check_must_abort(s, id, &oc, s0, s1);
	}
	oom_select_put(&oc);
}

/* --- quiescent oracle --- */

/* A new phase starts from adj 0 (CPUs are parked: no concurrent change). */
static void reset_adj(void)
{
	unsigned int i;

	for (i = 0; i < R->nr_slots; i++) {
		struct task_struct *p = R->slots[i].task;
		struct oom_gt *gt;

		if (!p || p == SLOT_CLAIMED)
			continue;
		gt = p->owner;
		pthread_mutex_lock(&gt->lock);
		if (gt->adj == OOM_SCORE_ADJ_MIN)
			atomic_store(&gt->adj_min_until, stamp());
		oom_set_score_adj(p, 0);
		gt->adj = 0;
		pthread_mutex_unlock(&gt->lock);
	}
}

struct qtask {
	struct task_struct *p;
	long truth, approx;
	bool eligible;
};

static long truth_badness(struct task_struct *p, bool *eligible)
{
	struct oom_gt *gt = p->owner;

	*eligible = !gt->unkillable && p->mm && gt->adj != OOM_SCORE_ADJ_MIN &&
		    !atomic_load(&gt->skip_seq);
	return gt_badness_pages(gt) + gt->adj * (long)(R->totalpages / 1000);
}

/* For the per-candidate oracle: every thread is parked. */
static bool oracle_move(struct task_struct *p, short adj, long pages)
{
	struct oom_gt *gt = p->owner;
	struct mm_struct *mm;

	rcu_read_lock();
	mm = rcu_dereference(p->mm);
	if (mm && pages)
		charge(p, mm, NR_MM_COUNTERS, pages * (long)PAGE_SIZE);
	rcu_read_unlock();
	if (!mm)
		return false;
	pthread_mutex_lock(&gt->lock);
	oom_set_score_adj(p, adj);
	gt->adj = adj;
	pthread_mutex_unlock(&gt->lock);
	return true;
}

/*
 * Every task's badness against the ground truth: precise equal, the
 * approximation within its contract and never below its adj part. Fills
 * @q (at most @cap tasks): the count; the true and approximate maxima of
 * the eligible tasks in @pmax, @amax.
 */
static unsigned int check_badness(struct stress *s, struct qtask *q, unsigned int cap,
				  long *pmax, long *amax)
{
	struct task_struct *p;
	unsigned int n = 0;

	rcu_read_lock();
	for_each_process(p) {
		unsigned long u = 0, o = 0;
		long prec, adjp;

		if (n == cap)
			break;
		q[n].p = p;
		q[n].truth = truth_badness(p, &q[n].eligible);
		prec = oom_badness(p, R->totalpages, false, NULL, NULL, NULL);
		q[n].approx = oom_badness(p, R->totalpages, true, &u, &o, NULL);
		stress_count_checks(s, 3);
		if (q[n].eligible && prec != q[n].truth)
			stress_fail(s, "precise_badness", -1,
				    "pid %d: precise badness %ld, ground truth %ld",
				    p->pid, prec, q[n].truth);
		if (q[n].eligible && (q[n].approx > q[n].truth + (long)o ||
				      q[n].approx < q[n].truth - (long)u))
			stress_fail(s, "approx_badness_contract", -1,
				    "pid %d: approximate %ld outside [%ld - %lu, %ld + %lu]",
				    p->pid, q[n].approx, q[n].truth, u, q[n].truth, o);
		/*
		 * Each counter's approximation is clamped at 0
		 * (docs/spec/hpcc.md#hpcc-bug-3).
		 */
		adjp = ((struct oom_gt *)p->owner)->adj * (long)(R->totalpages / 1000);
		if (q[n].eligible && q[n].approx < adjp)
			stress_fail(s, "approx_badness_nonnegative", -1,
				    "pid %d: approximate badness %ld below its adj part %ld",
				    p->pid, q[n].approx, adjp);
		if (q[n].eligible) {
			*pmax = max(*pmax, q[n].truth);
			*amax = max(*amax, q[n].approx);
		}
		n++;
	}
	rcu_read_unlock();
	return n;
}

/* Selection @a's shortfall @sh against the true maximum @pmax, for the report. */
static void record_shortfall(int a, long sh, long pmax)
{
	R->q_worst[a] = max(R->q_worst[a], sh);
	if (pmax != LONG_MIN && R->nqrec[a] < QREC_MAX) {
		R->qrec[a][R->nqrec[a]].sh = sh;
		R->qrec[a][R->nqrec[a]++].max = pmax;
	}
	R->q_hits[a] += sh != 0;
}

/*
 * Selection @a chose badness @got, @sh below the true maximum @pmax, with
 * @inwin tasks in the window: each algorithm's bound (@oc: its statistics).
 */
static void judge_shortfall(struct stress *s, int a, const struct oom_control *oc,
			    long got, long sh, long pmax, unsigned int inwin)
{
	if (a == OOM_ALGO_PRECISE) {
		if (sh)
			stress_fail(s, "oracle_precise", -1,
				    "precise one-pass chose %ld, true maximum %ld", got, pmax);
		return;
	}
	/*
	 * v16 is exact only if the true maximum also passes its
	 * filter against an exact anchor: 4T <= O. A batch below a
	 * fan-in breaks that (test_oom: oom_v16_exactness_needs_small_t).
	 */
	if (oom_exact_due(inwin) && sh &&
	    (a == OOM_ALGO_BOUNDED || R->slack4 <= R->over))
		stress_fail(s, "exact_in_window", -1,
			    "%s chose %ld, true maximum %ld with %u tasks in the window",
			    oom_algo_names[a], got, pmax, inwin);
	if (a == OOM_ALGO_BOUNDED) {
		stress_margin(s, "bounded_window", sh, R->window);
		if (!oom_bounded_ok(sh, R->window))
			stress_fail(s, "bounded_window", -1,
				    "bounded chose %ld, %ld below the true maximum %ld (window %lu)",
				    got, sh, pmax, R->window);
	} else {
		R->q_v16_sel++;
		R->q_v16_runout += oc->stats.budget_hits != 0;
		if (!oom_v16_shortfall_ok(sh, cfg.max_shortfall))
			stress_fail(s, "v16_max_shortfall", -1,
				    "v16 chose %ld, %ld pages (%.2f windows) below the true maximum %ld; %u tasks in the window, %lu approximate selections after the budget",
				    got, sh, in_windows(sh), pmax, inwin,
				    oc->stats.fallback_selects);
	}
}

/*
 * Selection @a at this quiescent point (@pending victims, @inwin tasks in
 * the window, true maximum @pmax): false when it chose no victim at all
 * (the checks of the other selections would only repeat that).
 */
static bool check_selection(struct stress *s, int a, unsigned int pending, long pmax,
			    unsigned int inwin)
{
	struct oom_control oc = { .totalpages = R->totalpages, .algo = a };
	long got = LONG_MIN, sh;
	bool el = false;

	oom_select_bad_process(&oc);
	stress_count_checks(s, 1);
	if (pending) {
		/* A kill in progress, frozen: every selection aborts. */
		if (oc.chosen != OOM_ABORT)
			stress_fail(s, "abort_on_victim", -1,
				    "%s at a quiescent point did not abort with %u OOM victims pending",
				    oom_algo_names[a], pending);
		oom_select_put(&oc);
		return true;
	}
	if (oc.chosen && oc.chosen != OOM_ABORT)
		got = truth_badness(oc.chosen, &el);
	if (oc.chosen == OOM_ABORT || (pmax != LONG_MIN && !el)) {
		stress_fail(s, "oracle_victim", -1,
			    "%s at a quiescent point chose %s",
			    oom_algo_names[a], oc.chosen == OOM_ABORT ? "abort" :
			    "no eligible task");
		oom_select_put(&oc);
		return false;
	}
	sh = pmax == LONG_MIN ? 0 : pmax - got;
	oom_select_put(&oc);
	record_shortfall(a, sh, pmax);
	judge_shortfall(s, a, &oc, got, sh, pmax, inwin);
	return true;
}

/* Eligible tasks whose approximation is within one window of the largest, @amax. */
static unsigned int window_census(const struct qtask *q, unsigned int n, long amax)
{
	unsigned int i, inwin = 0;

	for (i = 0; i < n; i++)
		inwin += q[i].eligible && q[i].approx + (long)R->window >= amax;
	return inwin;
}

/* OOM kills in progress, frozen with the vCPUs that started them. */
static unsigned int kills_pending(struct stress *s)
{
	unsigned int i, pending = 0;

	for (i = 0; i < stress_nr_cpus(s); i++)
		pending += R->kill[i].killing != NULL;
	return pending;
}

/* This point's kind, for the report: a kill pending, exact, or crowded. */
static void count_point(unsigned int pending, unsigned int inwin)
{
	R->q_checks++;
	if (pending)
		R->q_pending++;
	else if (oom_exact_due(inwin))
		R->q_exact++;
	else
		R->q_crowded++;
}

/* A mixed layout moves on to its next phase, from adj 0. */
static void next_phase(void)
{
	R->phase = (R->phase + 1) % L_CHAIN;
	draw_targets();
	reset_adj();
}

/*
 * The task churn held to its documented limits (docs/oom.md, the
 * scenario), stated again here so that a churn past them fails the run:
 * forks only into an empty slot and one kill at a time per CPU, so at a
 * quiescent point the task list holds at most --oom-tasks tasks, one
 * victim per CPU, init and the kernel thread; the chain layout has no
 * churn at all. Returns the number of tasks on the list.
 */
static unsigned int check_churn_limits(struct stress *s)
{
	unsigned long n = 0, chain = atomic_load(&R->chain_churn);
	struct task_struct *p;

	rcu_read_lock();
	for_each_process(p)
		n++;
	rcu_read_unlock();
	stress_count_checks(s, 2);
	if (!oom_churn_ok(n, R->nr_slots, stress_nr_cpus(s)))
		stress_fail(s, "task_churn", -1,
			    "%lu tasks on the task list, at most %u may be (%u slots, %u CPUs, "
			    "init and a kernel thread)", n, R->nr_slots + stress_nr_cpus(s) + 2,
			    R->nr_slots, stress_nr_cpus(s));
	else if (chain)
		stress_fail(s, "task_churn", -1,
			    "%lu forks, exits or oom_score_adj changes in the chain layout, "
			    "which has none", chain);
	return n;
}

/* Every vCPU parked: badness, then each selection under test, then the oracle. */
static void quiescent(struct stress *s)
{
	struct qtask *q;
	unsigned int n, inwin, pending, cap;
	long pmax = LONG_MIN, amax = LONG_MIN;
	int a;

	if (!stress_checking(s))
		return;
	/*
	 * Room for every task on the (quiescent, so unchanging) list: victims
	 * still being killed are on it too, and a task left out would be
	 * neither checked nor counted in the maxima.
	 */
	cap = check_churn_limits(s);
	q = calloc(cap + 1, sizeof(*q));
	if (!q)
		return;
	n = check_badness(s, q, cap, &pmax, &amax);
	inwin = window_census(q, n, amax);
	free(q);
	pending = kills_pending(s);
	count_point(pending, inwin);
	for (a = OOM_ALGO_PRECISE; a <= OOM_ALGO_BOUNDED; a++)
		if ((a == OOM_ALGO_PRECISE || cfg.algo < 0 || a == cfg.algo) &&
		    !check_selection(s, a, pending, pmax, inwin))
			break;
	if (!pending && !stress_failed(s))
		oom_oracle_quiescent(s, R->totalpages, cfg.algo, R->q_checks, oracle_move,
				     &R->oracle);
	if (cfg.layout == L_MIXED)
		next_phase();
}

/* --- setup, teardown, report --- */

static int setup(struct stress *s)
{
	unsigned int i;

	/* The previous run's state stayed for its report (--until-fail rounds). */
	free(R);
	R = calloc(1, sizeof(*R));
	if (!R)
		return -1;
	R->s = s;
	if (cfg.algo == -2)
		cfg.algo = oom_kernel_algo() == OOM_ALGO_PRECISE ? OOM_ALGO_PRECISE : -1;
	if (oom_model_init(stress_batch(s)))
		return -1;
	oom_poison_hook = on_poison;
	oom_task_free_hook = gt_free;
	oom_badness_accuracy(&R->under, &R->over);
	R->window = R->under + R->over;
	R->totalpages = 1000 * max(1UL, R->window / 256);
	R->slack4 = NR_MM_COUNTERS * stress_shape(s)->settled_max;
	R->nr_slots = cfg.tasks;
	if (cfg.layout == L_CHAIN && R->nr_slots < 24)
		R->nr_slots = 24;
	R->phase = cfg.layout == L_MIXED ? L_HOG : cfg.layout;
	rng_init(&R->lrng, stress_seed(s) ^ 0x6f6f6d5f72616365ULL);
	atomic_store(&R->seq, 1);
	R->slots = calloc(R->nr_slots, sizeof(*R->slots));
	R->kill = calloc(stress_nr_cpus(s), sizeof(*R->kill));
	if (!R->slots || !R->kill)
		return -1;
	/* init (unkillable, would be the biggest) and a kernel thread. */
	R->init = task_new(true, false);
	R->kthread = task_new(false, true);
	if (!R->init || !R->kthread)
		return -1;
	kc_set_cpu(0);
	charge(R->init, R->init->mm, MM_ANONPAGES, 100 * (long)R->window);
	draw_targets();
	for (i = 0; i < R->nr_slots; i++) {
		R->slots[i].task = task_new(false, false);
		if (!R->slots[i].task)
			return -1;
	}
	stress_set_priv(s, R);
	return 0;
}

static void teardown(struct stress *s)
{
	unsigned int i;

	for (i = 0; i < stress_nr_cpus(s); i++) {
		if (R->kill[i].killing)
			oom_kill_finish(s, i);
		if (R->kill[i].reaped)
			oom_reaped_exit(s, i);
	}
	for (i = 0; i < R->nr_slots; i++) {
		struct task_struct *p = R->slots[i].task;

		if (p && p != SLOT_CLAIMED)
			oom_task_exit(p);
	}
	oom_task_exit(R->init);
	oom_task_exit(R->kthread);
	kc_rcu_barrier();
	oom_quarantine_drain();
	if (oom_live_tasks())
		stress_fail(s, "task_leak", -1, "%ld tasks never freed", oom_live_tasks());
	oom_poison_hook = NULL;
	oom_task_free_hook = NULL;
	free(R->slots);
	free(R->kill);
}

static void report_text(struct stress *s, FILE *out)
{
	int a;

	fprintf(out, "# oom_race: layout %s, algo %s, %u task slots, window U+O = %lu pages (U %lu, O %lu, 4T %lu)\n",
		layout_names[cfg.layout], cfg.algo < 0 ? "both" : oom_algo_names[cfg.algo],
		R->nr_slots, R->window, R->under, R->over, R->slack4);
	for (a = OOM_ALGO_PRECISE; a <= OOM_ALGO_BOUNDED; a++) {
		if (cfg.algo >= 0 ? a != cfg.algo && a != OOM_ALGO_PRECISE :
		    a == OOM_ALGO_PRECISE && !atomic_load(&R->selections[a]))
			continue;
		fprintf(out, "# oom_race: %s is the %s\n", oom_algo_names[a],
			oom_impl_describe(oom_impl_of(a)));
		if (!two_pass(a)) {
			fprintf(out, "# oom_race: precise: %lu continuous selections (one precise pass)\n",
				atomic_load(&R->selections[a]));
			continue;
		}
		fprintf(out, "# oom_race: %s: %lu continuous selections, budget ran out in %lu, %lu approximate selections after it\n",
			oom_algo_names[a], atomic_load(&R->selections[a]),
			atomic_load(&R->budget_runs[a]), atomic_load(&R->fallbacks[a]));
	}
	fprintf(out, "# oom_race: %lu OOM kills, %lu selections aborted on a kill in progress; %lu quiescent oracle checks (%lu with a kill pending, %lu with <= 16 in the window, %lu crowded)\n",
		atomic_load(&R->kills), atomic_load(&R->aborts), R->q_checks, R->q_pending,
		R->q_exact, R->q_crowded);
	fprintf(out, "# oom_race: precise worst quiescent shortfall %ld pages, not at the max in %lu\n",
		R->q_worst[OOM_ALGO_PRECISE], R->q_hits[OOM_ALGO_PRECISE]);
	if (cfg.algo < 0 || cfg.algo == OOM_ALGO_V16)
		fprintf(out, "# oom_race: v16 worst quiescent shortfall %ld pages (%.2f windows), not at the max in %lu, budget ran out in %lu of %lu\n",
			R->q_worst[OOM_ALGO_V16], in_windows(R->q_worst[OOM_ALGO_V16]),
			R->q_hits[OOM_ALGO_V16], R->q_v16_runout, R->q_v16_sel);
	if (cfg.algo < 0 || cfg.algo == OOM_ALGO_BOUNDED)
		fprintf(out, "# oom_race: bounded worst quiescent shortfall %ld pages (%.2f windows), not at the max in %lu\n",
			R->q_worst[OOM_ALGO_BOUNDED], in_windows(R->q_worst[OOM_ALGO_BOUNDED]),
			R->q_hits[OOM_ALGO_BOUNDED]);
	oom_oracle_report(&R->oracle, out);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The q-quantile of sorted @v (nearest rank, rounded up). */
static double quantile(const double *v, unsigned int n, double q)
{
	unsigned int k = (unsigned int)(q * (n - 1) + 0.999999);

	return n ? v[k < n ? k : n - 1] : 0;
}

/* make report's distribution: one algorithm's recorded quiescent selections. */
static void json_shortfall(struct json *j, int a)
{
	unsigned int i, n = R->nqrec[a], miss = 0, beyond = 0;
	double *pg = calloc(n + 1, sizeof(*pg)), *pc = calloc(n + 1, sizeof(*pc));

	json_kobj_begin(j, oom_algo_names[a]);
	if (!pg || !pc) {
		free(pg);
		free(pc);
		json_obj_end(j);
		return;
	}
	for (i = 0; i < n; i++) {
		long sh = R->qrec[a][i].sh, mx = R->qrec[a][i].max;

		pg[i] = sh;
		pc[i] = mx > 0 ? 100.0 * sh / mx : 0;
		miss += sh != 0;
		beyond += sh > (long)R->window;
	}
	qsort(pg, n, sizeof(*pg), cmp_double);
	qsort(pc, n, sizeof(*pc), cmp_double);
	json_ku64(j, "selections", n);
	json_ku64(j, "not_max", miss);
	json_ku64(j, "beyond_window", beyond);
	json_kdouble(j, "shortfall_pages_median", quantile(pg, n, 0.5));
	json_kdouble(j, "shortfall_pages_p99", quantile(pg, n, 0.99));
	json_kdouble(j, "shortfall_pages_max", quantile(pg, n, 1));
	json_kdouble(j, "shortfall_pct_median", quantile(pc, n, 0.5));
	json_kdouble(j, "shortfall_pct_p99", quantile(pc, n, 0.99));
	json_kdouble(j, "shortfall_pct_max", quantile(pc, n, 1));
	json_obj_end(j);
	free(pg);
	free(pc);
}

static void report_json(struct stress *s, struct json *j)
{
	int a;

	json_kobj_begin(j, "oom");
	json_kstr(j, "layout", layout_names[cfg.layout]);
	json_ku64(j, "window", R->window);
	json_ku64(j, "quiescent_checks", R->q_checks);
	json_ku64(j, "exact_regime", R->q_exact);
	json_ku64(j, "crowded", R->q_crowded);
	json_ku64(j, "aborts", atomic_load(&R->aborts));
	json_kobj_begin(j, "v16");
	json_ku64(j, "selections", atomic_load(&R->selections[OOM_ALGO_V16]));
	json_ku64(j, "budget_runs", atomic_load(&R->budget_runs[OOM_ALGO_V16]));
	json_ki64(j, "worst_shortfall", R->q_worst[OOM_ALGO_V16]);
	json_kdouble(j, "worst_shortfall_windows", in_windows(R->q_worst[OOM_ALGO_V16]));
	json_ku64(j, "quiescent_budget_runs", R->q_v16_runout);
	json_obj_end(j);
	json_kobj_begin(j, "bounded");
	json_ku64(j, "selections", atomic_load(&R->selections[OOM_ALGO_BOUNDED]));
	json_ku64(j, "budget_runs", atomic_load(&R->budget_runs[OOM_ALGO_BOUNDED]));
	json_ki64(j, "worst_shortfall", R->q_worst[OOM_ALGO_BOUNDED]);
	json_obj_end(j);
	oom_oracle_json(&R->oracle, j);
	/* Shortfall below the true maximum, quiescent points after concurrent churn. */
	json_kobj_begin(j, "quiescent_shortfall");
	json_ku64(j, "recorded_max", QREC_MAX);
	for (a = OOM_ALGO_V16; a <= OOM_ALGO_BOUNDED; a++)
		if (R->nqrec[a])
			json_shortfall(j, a);
	json_obj_end(j);
	json_obj_end(j);
}

static const struct scenario oom_race = {
	.name = "oom_race",
	.summary = "two-pass OOM victim selection (v16, bounded) under RCU against a precise oracle",
	.invariants = oom_invariants,
	.opts = oom_opts,
	.opt_cfg = &cfg,
	.setup = setup,
	.cpu_step = cpu_step,
	.select_step = select_step,
	.quiescent = quiescent,
	.teardown = teardown,
	.report_text = report_text,
	.report_json = report_json,
};

SCENARIO_REGISTER(oom_race)
