// SPDX-License-Identifier: GPL-2.0
/*
 * oom, explored: lib/mm's victim selection (docs/spec/oom.md) racing
 * task exit and fork on 2 CPUs. The task model (lib/mm/oom_task.c)
 * unlinks an exiting task under RCU and frees it after a grace period,
 * poisoning it; a selector that reads a freed task is reported by the
 * model's poison check.
 *
 *   selector (CPU 0): oom_select_bad_process() with --algo, then the
 *                     victim rules;
 *   exiter   (CPU 1): task 0 exits;
 *   forker   (CPU 1, --forks 1): a task is created, charged, and exits.
 *
 * Tasks (RSS in pages): task 0 200 (exits), task 1 300 (stays: the
 * largest task present throughout), task 2 with --tasks 3 or more: 500
 * at oom_score_adj -1000 (never a victim); the forked task (task 3) 400,
 * charged after it is linked. With --tasks N above 3, tasks 4..N are
 * 300 pages each, like task 1: every one passes pass 2's overlap filter,
 * so from 17 tasks on the 16 precise sums run out and v16's fallback
 * selects on the approximation. The reader step is each candidate's
 * evaluation (oom_candidate_hook, inside the scan's read-side section).
 *
 *   no_use_after_free    the model's poison check on a selector access
 *   chosen_alive         the task the selection pins is never freed
 *   precise_budget       at most 16 precise evaluations
 *   victim_not_adj_min   no task at -1000 is selected
 *   abort_needs_victim   no abort (no kill is in progress)
 *   victim_found         some victim (task 1 is eligible throughout)
 *   victim_not_exited    the victim had not exited when the selection began
 *   victim_killable      not init, not a kernel thread
 *   victim_shortfall     the victim's RSS at least task 1's (less one
 *                        accuracy window for the two-pass algorithms)
 *   victim_newest        with --tasks above 3, no fork (equal tasks in the
 *                        window): precise and v16 select the newest of
 *                        them (ties and, past the budget, the fallback
 *                        re-anchor on each), bounded the last one its
 *                        precise sums reached (the fallback never raises
 *                        the floor of an equal task)
 *   exit_freed           at the end every exited task is freed
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/compiler.h>
#include <linux/list.h>
#include <mm/oom_select.h>
#include "xp.h"

#define MAX_TASKS	(XP_OOM_MAX_TASKS + 1)
#define FORKED		3
#define WINDOW_RSS	300	/* tasks 4..N: task 1's size */

static const struct xp_cfg *C;
static enum oom_algo algo;
static unsigned long window;	/* one accuracy window: under + over */
static struct task_struct *task[MAX_TASKS];
static const long rss4[4] = { 200, 300, 500, 400 };
static bool exited0[MAX_TASKS];	/* unlinked when the selection began */

static long rss(unsigned int i)
{
	return i < 4 ? rss4[i] : WINDOW_RSS;
}

static const char *oom_impl(void)
{
	return oom_impl_describe(oom_impl_of(algo));
}

static void poisoned(const void *obj, const char *where)
{
	xp_fail("no_use_after_free", "%s on a freed task %p", where, obj);
}

/* Teardown: the quarantine's own checks are not part of an execution. */
static void poisoned_quiet(const void *obj, const char *where)
{
}

static bool freed(const struct task_struct *p)
{
	return p->kc_magic != OOM_TASK_MAGIC;
}

static int find(const struct task_struct *p)
{
	int i;

	for (i = 0; i < MAX_TASKS; i++)
		if (p && task[i] == p)
			return i;
	return -1;
}

static void candidate(const struct oom_candidate *c, struct oom_control *oc)
{
	if (oc->chosen && oc->chosen != OOM_ABORT && freed(oc->chosen))
		xp_fail("chosen_alive", "the pinned choice %p was freed", (void *)oc->chosen);
	if (oc->nr_precise > OOM_MAX_PRECISE_BADNESS_SUMS)
		xp_fail("precise_budget", "%d precise evaluations", oc->nr_precise);
	if (c->result == OOM_CAND_SELECT && find(c->task) == 2)
		xp_fail("victim_not_adj_min", "task 2 (oom_score_adj -1000) selected");
}

static int oom_init(const struct xp_cfg *cfg)
{
	unsigned long under, over;

	C = cfg;
	if (cfg->cpus != 2) {
		fprintf(stderr, "explore: oom wants 2 cpus\n");
		return -1;
	}
	if (oom_algo_parse(cfg->algo, &algo)) {
		fprintf(stderr, "explore: unknown --algo '%s' (precise, v16, bounded)\n",
			cfg->algo);
		return -1;
	}
	if (kc_set_nr_cpu_ids(2) || percpu_counter_tree_subsystem_init() ||
	    oom_model_init(cfg->batch)) {
		fprintf(stderr, "explore: bad batch %lu\n", cfg->batch);
		return -1;
	}
	oom_badness_accuracy(&under, &over);
	window = under + over;
	oom_poison_hook = poisoned;
	oom_candidate_hook = candidate;
	return 0;
}

static unsigned int oom_nr_fibers(const struct xp_cfg *cfg)
{
	return 2 + cfg->forks;
}

static unsigned int oom_fiber_cpu(unsigned int id)
{
	return id > 0;
}

static struct task_struct *spawn(unsigned int i, long pages, short adj)
{
	struct oom_task_attr attr = { .oom_score_adj = adj };
	struct task_struct *p = oom_task_create(&attr);

	if (!p)
		abort();
	WRITE_ONCE(task[i], p);
	oom_mm_add(p->mm, MM_ANONPAGES, pages);
	return p;
}

static void oom_setup(void)
{
	unsigned int i;

	/* A failed execution may have left the list and its lock as they were. */
	INIT_LIST_HEAD(&oom_task_list);
	oom_tasklist_lock.xp_held = 0;
	memset(task, 0, sizeof(task));
	memset(exited0, 0, sizeof(exited0));
	oom_poison_hook = poisoned;
	/* Slot 3 is the forked task's: tasks beyond 3 take slots 4..N. */
	for (i = 0; i <= C->tasks; i++)
		if (i != FORKED && (i < FORKED || C->tasks > FORKED))
			spawn(i, rss(i), i == 2 ? OOM_SCORE_ADJ_MIN : 0);
}

static void quiet_point(const void *addr, enum kc_xp_kind kind)
{
}

static void oom_teardown(void)
{
	int nest = 0;
	struct task_struct *p;

	/* Exits with the explorer's RCU model: callbacks run at once. */
	oom_poison_hook = poisoned_quiet;
	kc_xp_hook = quiet_point;
	kc_xp_rcu_nest = &nest;
	kc_set_cpu(0);
	while (!list_empty(&oom_task_list)) {
		p = list_first_entry(&oom_task_list, struct task_struct, tasks);
		if (freed(p) || p->kc_exited)
			list_del(&p->tasks);	/* freed or half exited by a failed run */
		else
			oom_task_exit(p);
	}
	kc_xp_hook = NULL;
	kc_xp_rcu_nest = NULL;
	oom_quarantine_drain();
	oom_poison_hook = poisoned;
}

/*
 * The task the selection must end on when tasks 1 and 4..N tie: the
 * last in list order for precise and v16; for bounded the last its 16
 * precise sums reach (the fallback never raises an equal floor). The
 * forked task (400 pages) and the exiting task 0 (200) are filtered
 * out or lose to it, since the window is far below 100 pages.
 */
static int newest(void)
{
	unsigned int passers = C->tasks - 2;	/* task 1 and tasks 4..N */

	if (algo == OOM_ALGO_BOUNDED && passers > OOM_MAX_PRECISE_BADNESS_SUMS)
		return OOM_MAX_PRECISE_BADNESS_SUMS + 2;	/* task 1, then 4..18 */
	return (int)C->tasks;
}

static void selector(void)
{
	/* A KERNEL_SRC tree's own selection serves the algorithm it implements. */
	struct oom_control oc = { .totalpages = 1000, .algo = algo };
	unsigned int i;
	int v;

	/* The selection's start: which tasks had exited (no point: one instant). */
	for (i = 0; i < MAX_TASKS; i++)
		exited0[i] = task[i] && (freed(task[i]) || task[i]->kc_exited);
	oom_select_bad_process(&oc);
	if (oc.chosen == OOM_ABORT) {
		xp_fail("abort_needs_victim", "the selection aborted with no kill in progress");
		return;
	}
	if (!oc.chosen) {
		xp_fail("victim_found", "no victim, task 1 was eligible throughout");
		return;
	}
	v = find(oc.chosen);
	if (freed(oc.chosen))
		xp_fail("chosen_alive", "the victim was freed under its reference");
	else if (oc.chosen->kc_global_init || (oc.chosen->flags & PF_KTHREAD))
		xp_fail("victim_killable", "victim %d is init or a kernel thread", v);
	else if (v == 2)
		xp_fail("victim_not_adj_min", "victim task 2 at oom_score_adj -1000");
	else if (v < 0)
		xp_fail("victim_found", "victim %p is no task of the harness", (void *)oc.chosen);
	else if (exited0[v])
		xp_fail("victim_not_exited", "victim task %d had exited before the selection", v);
	else if (rss(v) + (long)(algo == OOM_ALGO_PRECISE ? 0 : window) < rss(1))
		xp_fail("victim_shortfall", "victim task %d (%ld pages) below task 1 (%ld) by more"
			" than %lu", v, rss(v), rss(1), algo == OOM_ALGO_PRECISE ? 0 : window);
	else if (C->tasks > FORKED && !C->forks && v != newest())
		xp_fail("victim_newest", "victim task %d, not task %d (%s, %u tasks of %d pages)",
			v, newest(), oom_algo_names[algo], C->tasks - 2, WINDOW_RSS);
	oom_select_put(&oc);
}

static void oom_fiber(unsigned int id)
{
	switch (id) {
	case 0:
		selector();
		break;
	case 1:
		oom_task_exit(task[0]);
		break;
	default:
		oom_task_exit(spawn(FORKED, rss(FORKED), 0));
		break;
	}
}

static void oom_final(void)
{
	/* Both grace periods are over and the selection let go: the exited tasks are freed. */
	if (!freed(task[0]))
		xp_fail("exit_freed", "task 0 exited and is not freed at the end");
	if (C->forks && !freed(task[FORKED]))
		xp_fail("exit_freed", "the forked task exited and is not freed at the end");
}

static const char *oom_addr_name(const void *addr, char *buf, size_t len)
{
	unsigned int i, m;

	if (addr == &oom_tasklist_lock.xp_held)
		return "tasklist_lock";
	if (addr == &kc_rcu_gp_token)
		return "rcu";
	if (addr == &kc_task_list.next)
		return "task_list.next";
	for (i = 0; i < MAX_TASKS; i++) {
		struct task_struct *p = task[i];

		if (addr == &task[i])
			return snprintf(buf, len, "harness.task[%u]", i), buf;
		if (!p)
			continue;
		if (addr == &p->alloc_lock.xp_held)
			return snprintf(buf, len, "task%u.alloc_lock", i), buf;
		if (addr == &p->kc_magic)
			return snprintf(buf, len, "task%u.magic", i), buf;
		if (addr == &p->mm)
			return snprintf(buf, len, "task%u.mm", i), buf;
		if (addr == &p->usage.counter)
			return snprintf(buf, len, "task%u.usage", i), buf;
		if (addr == &p->kc_exited)
			return snprintf(buf, len, "task%u.exited", i), buf;
		if (addr == &p->tasks.next)
			return snprintf(buf, len, "task%u.tasks.next", i), buf;
		if (freed(p) || !p->mm)
			continue;
		if (addr == &p->mm->mm_count.counter)
			return snprintf(buf, len, "task%u.mm_count", i), buf;
		for (m = 0; m < NR_MM_COUNTERS; m++)
			if ((const char *)addr >= (const char *)&p->mm->rss_stat[m] &&
			    (const char *)addr < (const char *)(&p->mm->rss_stat[m] + 1))
				return snprintf(buf, len, "task%u.rss[%u]", i, m), buf;
	}
	return NULL;
}

static void oom_describe(const struct xp_cfg *cfg, char *buf, size_t len)
{
	snprintf(buf, len, " cpus 2 tasks %u forks %u algo %s batch %lu (%s)", cfg->tasks,
		 cfg->forks, cfg->algo, cfg->batch, oom_impl());
}

static const struct xp_harness xp_oom_harness = {
	.name = "oom",
	.alias = "oom_race",
	.describe = oom_describe,
	.init = oom_init,
	.nr_fibers = oom_nr_fibers,
	.fiber_cpu = oom_fiber_cpu,
	.setup = oom_setup,
	.fiber = oom_fiber,
	.final = oom_final,
	.teardown = oom_teardown,
	.addr_name = oom_addr_name,
};
XP_HARNESS_REGISTER(xp_oom_harness);
