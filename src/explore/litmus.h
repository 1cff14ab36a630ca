/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A litmus program (litmus_parse.c reads it, litmus.c runs it): the
 * form scripts/litmus writes from the kernel's litmus C form
 * (docs/explore.md#litmus-tests).
 */
#ifndef _XP_LITMUS_H
#define _XP_LITMUS_H

#include <stdbool.h>

#define LT_VARS		8
#define LT_THREADS	4
#define LT_OPS		24
#define LT_REGS		9	/* r0..r7 and r8, the translator's own */
#define LT_TERMS	32
/* The value of &NAME: past every integer a program may write. */
#define LT_PTR_BASE	(1 << 24)

enum lt_op {
	LT_ST, LT_ST_REL, LT_ST_ASSIGN, LT_ST_REG,
	LT_LD, LT_LD_ACQ, LT_LD_DEREF, LT_LD_PTR,
	LT_MB, LT_WMB, LT_RMB,
	LT_LOCK, LT_UNLOCK, LT_ISLOCKED,
	LT_RCU_LOCK, LT_RCU_UNLOCK, LT_SYNC,
	LT_XCHG, LT_CMPXCHG, LT_ADD, LT_ADD_RETURN, LT_ADD_UNLESS,
	LT_ADDI, LT_IF_EQ, LT_IF_NE,
};

struct lt_insn {
	enum lt_op op;
	unsigned int var, reg;	/* LT_LD_PTR, LT_ST_REG: var is the source register */
	int val, val2;		/* a store's value; cmpxchg's old, new; an if's
				 * operations to skip when it fails;
				 * add_unless's addend, unless */
};

/* A disjunction of conjunctions: a term with or_next ends its conjunction. */
struct lt_cond {
	struct {
		int thread;		/* -1: a variable */
		unsigned int idx;
		int val;
		bool or_next;
	} term[LT_TERMS];
	unsigned int nr_terms;
};

struct lt_prog {
	char name[LT_VARS][16];
	int init[LT_VARS];
	unsigned int nr_vars, nr_threads;
	struct lt_insn ops[LT_THREADS][LT_OPS];
	unsigned int nr_ops[LT_THREADS];
	/* filter: an execution whose end it does not hold for observes nothing */
	struct lt_cond exists, filter;
};

/* Read @path into @t: 0, or -1 with one line printed. */
int lt_parse(const char *path, struct lt_prog *t);

#endif /* _XP_LITMUS_H */
