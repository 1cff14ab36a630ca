/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Systematic schedule exploration (docs/explore.md): fibers on one
 * thread, switched only at kcompat's scheduling points, driven by a
 * depth-first search with a preemption bound (and optional sleep sets)
 * or by PCT.
 */
#ifndef _XP_H
#define _XP_H

#include <stdbool.h>
#include <stddef.h>
#include <kcompat/kcompat.h>

/* Agents: the fibers and, under a weak memory model, their store buffers. */
#define XP_MAX_FIBERS	16
#define XP_MAX_STEPS	4096
#define XP_MAX_ADDS	8

/* One scheduling point: the access the fiber makes when it next runs. */
struct xp_access {
	const void *addr;
	enum kc_xp_kind kind;
};

/* How the depth-first search cuts equivalent schedules (docs/explore.md). */
enum xp_reduction {
	XP_RED_NONE,		/* every schedule within the bound */
	XP_RED_SLEEP,		/* sleep sets */
	XP_RED_DPOR,		/* dynamic partial-order reduction, bounded (BPOR) */
};

struct xp_cfg {
	const char *harness;
	unsigned int cpus, adds, readers, reads;
	unsigned long batch;
	long sizes[XP_MAX_ADDS];
	unsigned int nr_sizes;
	int bound;			/* preemptions; -1: unbounded */
	unsigned long budget;		/* executions; 0: none */
	enum xp_reduction reduction;
	bool pct;
	unsigned int pct_depth;
	unsigned long pct_runs;
	unsigned long seed;
	bool plant;			/* the harness's planted lost update */
	/* oom: initial tasks, a forking fiber or not, the selection's algorithm. */
	unsigned int tasks, forks;
	const char *algo;
	const char *litmus;		/* litmus: the program (litmus.c) */
};

struct xp_harness {
	const char *name;
	/* Once per process, after the configuration is known; 0 or -1 (message printed). */
	int (*init)(const struct xp_cfg *cfg);
	unsigned int (*nr_fibers)(const struct xp_cfg *cfg);
	unsigned int (*fiber_cpu)(unsigned int id);
	void (*setup)(void);			/* fresh state for one execution */
	void (*fiber)(unsigned int id);		/* a fiber's body */
	void (*final)(void);			/* end-of-execution checks */
	void (*teardown)(void);
	/* Name a shared address for schedules (NULL: unknown). */
	const char *(*addr_name)(const void *addr, char *buf, size_t len);
};

extern const struct xp_harness xp_storm_harness;
extern const struct xp_harness xp_oom_harness;
extern const struct xp_harness xp_compaction_harness;
/* Barrier patterns (patterns.c): sb, mp and publish. */
extern const struct xp_harness xp_sb_harness, xp_mp_harness, xp_publish_harness;
extern const struct xp_harness xp_litmus_harness;
/* The oom harness's selection: the model or a kernel tree's code. */
const char *xp_oom_impl(void);
/* The harness called @name (its canonical name), or NULL. */
const struct xp_harness *xp_harness_find(const char *name);

/* A failed invariant: the first one ends the execution. */
void xp_fail(const char *invariant, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The fiber machine (fiber.c): one execution at a time. */
int xp_machine_init(const struct xp_harness *h, const struct xp_cfg *cfg);
void xp_exec_begin(void);
unsigned int xp_enabled(void);			/* bit mask of runnable fibers */
unsigned int xp_live(void);			/* bit mask of fibers not done */
bool xp_all_done(void);
const struct xp_access *xp_pending(unsigned int id);
void xp_step(unsigned int id);			/* run @id to its next point */
bool xp_failed(void);
void xp_exec_end(void);				/* final checks unless failed */
void xp_exec_abandon(void);			/* no checks */
const char *xp_fail_invariant(void);
const char *xp_fail_message(void);
unsigned int xp_nr_fibers(void);
int xp_current(void);				/* the running fiber, -1 outside one */
const char *xp_access_name(const struct xp_access *a, char *buf, size_t len);

/* Choices of one execution. */
struct xp_run {
	unsigned char choice[XP_MAX_STEPS];
	unsigned int len;
	unsigned int prefix_len;	/* choices a schedule file keeps */
	unsigned int preemptions;
	bool failed;
	char invariant[64];
	char message[256];
};

/*
 * Run one execution: the first @prefix_len choices of @prefix, then the
 * default (non-preemptive: the last fiber while it can run, else the
 * lowest runnable one). Fills @out.
 */
void xp_run_schedule(const unsigned char *prefix, unsigned int prefix_len, struct xp_run *out);

struct xp_stats {
	unsigned long executions, sleep_pruned, sleep_blocked, bound_cut, steps;
	unsigned long traces;		/* distinct happens-before orders completed */
	unsigned long per_bound[16];
	int bound_reached;		/* the last bound enumerated */
	unsigned int pct_k;		/* PCT: steps of the default run */
	bool complete, budget_cut;
	double seconds;
};

/* Depth-first search; 1 and @fail filled when an execution fails, else 0. */
int xp_dfs(const struct xp_cfg *cfg, struct xp_stats *st, struct xp_run *fail);
/* PCT: @cfg->pct_runs executions at depth @cfg->pct_depth. */
int xp_pct(const struct xp_cfg *cfg, struct xp_stats *st, struct xp_run *fail);
/* Shortest prefix that still fails the same invariant (default continuation). */
void xp_shrink(struct xp_run *fail);

/* Schedule files (sched_file.c). */
int xp_schedule_save(const char *path, const struct xp_cfg *cfg, const struct xp_run *r);
int xp_schedule_load(const char *path, struct xp_cfg *cfg, struct xp_run *r);

#endif /* _XP_H */
