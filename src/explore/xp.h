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
#include <stdio.h>
#include <kcompat/kcompat.h>

/* Agents: the fibers and, under a weak memory model, their store buffers. */
#define XP_MAX_FIBERS	16
#define XP_MAX_STEPS	4096
#define XP_MAX_ADDS	8
/* oom: initial tasks; past 16 the two-pass selections' budget runs out. */
#define XP_OOM_MAX_TASKS	20
/*
 * Largest |add size|: every sum the harness's checks form (at most
 * 4 vCPUs x XP_MAX_ADDS adds, plus pending bounds) stays far inside a
 * long, so no check can overflow.
 */
#define XP_SIZE_MAX	(1L << 52)

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
	/* The configuration after "harness NAME" in the header (NULL: " cpus 2"). */
	void (*describe)(const struct xp_cfg *cfg, char *buf, size_t len);
	const char *alias;		/* another name it answers to, or NULL */
};

/* Harnesses register themselves from constructors (registry.c), as scenarios do. */
#define XP_MAX_HARNESSES	16
void xp_harness_register(const struct xp_harness *h);
#define XP_HARNESS_REGISTER(h)						\
static void __attribute__((constructor)) xp_register_##h(void)		\
{									\
	xp_harness_register(&h);					\
}

/* The harness called @name (its canonical name or alias), or NULL. */
const struct xp_harness *xp_harness_find(const char *name);
/* The @i-th registered harness by name, NULL past the last. */
const struct xp_harness *xp_harness_at(unsigned int i);

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
unsigned int xp_pending_order(unsigned int id);	/* its order within the fiber, from 0 */
void xp_step(unsigned int id);			/* run @id to its next point */
bool xp_failed(void);
void xp_exec_end(void);				/* final checks unless failed */
void xp_exec_abandon(void);			/* no checks */
const char *xp_fail_invariant(void);
const char *xp_fail_message(void);
unsigned int xp_nr_fibers(void);
int xp_current(void);				/* the running fiber, -1 outside one */
const char *xp_access_name(const struct xp_access *a, char *buf, size_t len);
const char *xp_kind_name(enum kc_xp_kind k);	/* NULL when unknown */
const char *xp_object_name(const struct xp_access *a, char *buf, size_t len);

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

/* One step of a schedule file: the fiber and the access it makes. */
struct xp_sched_step {
	unsigned char fiber;
	unsigned char kind;		/* enum kc_xp_kind */
	unsigned int order;		/* the fiber's order-th point, from 0 */
	char object[48];		/* xp_object_name() */
};

/* A schedule file (sched_file.c, docs/explore.md#schedule-files). */
struct xp_sched {
	unsigned int chosen;		/* the first @chosen steps were chosen, the rest default */
	unsigned int preemptions;
	char expect[64];		/* the invariant it failed */
	unsigned int nr_steps;
	struct xp_sched_step step[XP_MAX_STEPS];
};

/* Run @r again, recording each step's access, and write it: 0, or -1 (message printed). */
int xp_schedule_save(const char *path, const struct xp_cfg *cfg, const struct xp_run *r);
/* 0, or -1 with one line printed (bad input). */
int xp_schedule_load(const char *path, struct xp_cfg *cfg, struct xp_sched *s);
/* Its steps against the machine's fibers (after xp_machine_init()): 0, or -1 (one line). */
int xp_schedule_check(const char *path, const struct xp_sched *s);
/* Follow @s on this tree: 1 when it fails, 0 when not reproduced (@out->message says why). */
int xp_schedule_replay(const char *path, const struct xp_sched *s, struct xp_run *out);

/* Write @path as a whole (temporary file and rename): 0, or -1 (message printed). */
int xp_write_file(const char *path, int (*fill)(FILE *f, const void *arg), const void *arg);

#endif /* _XP_H */
