// SPDX-License-Identifier: GPL-2.0
/*
 * litmus: a litmus test, as scripts/litmus translates it from the kernel's
 * litmus C form (docs/explore.md#litmus-tests), run by kcompat's own
 * primitives on int variables. The program (--litmus FILE), one item a
 * line:
 *
 *   var NAME INIT                a shared int
 *   thread                       the next fiber's operations follow
 *   st VAR VALUE once|release    WRITE_ONCE() or smp_store_release()
 *   ld REG VAR once|acquire      READ_ONCE() or smp_load_acquire() (REG 0..7)
 *   fence mb|wmb|rmb             smp_mb(), smp_wmb(), smp_rmb()
 *   exists TERM...               a disjunction of conjunctions: terms
 *                                T:REG=V or VAR=V, "|" between conjunctions
 *
 * The execution fails (litmus_exists) when the exists clause holds at the
 * end (after every store buffer drained): the outcome was observed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/compiler.h>
#include "xp.h"

#define LT_VARS		8
#define LT_THREADS	4
#define LT_OPS		16
#define LT_REGS		8
#define LT_TERMS	32

enum lt_op { LT_ST, LT_ST_REL, LT_LD, LT_LD_ACQ, LT_MB, LT_WMB, LT_RMB };

static struct {
	char name[LT_VARS][16];
	int init[LT_VARS];
	unsigned int nr_vars, nr_threads;
	struct {
		enum lt_op op;
		unsigned int var, reg;
		int val;
	} ops[LT_THREADS][LT_OPS];
	unsigned int nr_ops[LT_THREADS];
	/* exists: terms; a term with or_next ends its conjunction. */
	struct {
		int thread;		/* -1: a variable */
		unsigned int idx;
		int val;
		bool or_next;
	} term[LT_TERMS];
	unsigned int nr_terms;
} T;

static int vars[LT_VARS];
static int regs[LT_THREADS][LT_REGS];

static int var_index(const char *s)
{
	unsigned int i;

	for (i = 0; i < T.nr_vars; i++)
		if (!strcmp(s, T.name[i]))
			return (int)i;
	return -1;
}

static bool parse_int(const char *s, int *v)
{
	char *end;
	long n = strtol(s, &end, 10);

	if (end == s || *end || n < -1000000 || n > 1000000)
		return false;
	*v = (int)n;
	return true;
}

static bool parse_term(char *tok)
{
	char *eq = strchr(tok, '='), *colon = strchr(tok, ':');
	int v, t;

	if (!eq || T.nr_terms >= LT_TERMS)
		return false;
	*eq = '\0';
	if (!parse_int(eq + 1, &v))
		return false;
	T.term[T.nr_terms].val = v;
	if (colon && colon < eq) {
		*colon = '\0';
		if (!parse_int(tok, &t) || t < 0 || (unsigned int)t >= T.nr_threads ||
		    colon[1] != 'r' || !parse_int(colon + 2, &v) || v < 0 || v >= LT_REGS)
			return false;
		T.term[T.nr_terms].thread = t;
		T.term[T.nr_terms].idx = (unsigned int)v;
	} else {
		if ((t = var_index(tok)) < 0)
			return false;
		T.term[T.nr_terms].thread = -1;
		T.term[T.nr_terms].idx = (unsigned int)t;
	}
	T.term[T.nr_terms++].or_next = false;
	return true;
}

/* One line of the program; false: bad. */
static bool parse_line(char *line)
{
	char *w[5], *tok;
	unsigned int n = 0, t = T.nr_threads - 1;
	int v, r;

	if (!strncmp(line, "exists", 6) && (line[6] == ' ' || line[6] == '\t')) {
		for (tok = strtok(line + 6, " \t"); tok; tok = strtok(NULL, " \t")) {
			if (!strcmp(tok, "|")) {
				if (!T.nr_terms || T.term[T.nr_terms - 1].or_next)
					return false;
				T.term[T.nr_terms - 1].or_next = true;
			} else if (!parse_term(tok)) {
				return false;
			}
		}
		return T.nr_terms && !T.term[T.nr_terms - 1].or_next;
	}
	for (tok = strtok(line, " \t"); tok && n < 5; tok = strtok(NULL, " \t"))
		w[n++] = tok;
	if (!n)
		return true;
	if (tok)
		return false;
	if (!strcmp(w[0], "var") && n == 3) {
		if (T.nr_vars >= LT_VARS || strlen(w[1]) >= sizeof(T.name[0]) ||
		    var_index(w[1]) >= 0 || !parse_int(w[2], &v))
			return false;
		strcpy(T.name[T.nr_vars], w[1]);
		T.init[T.nr_vars++] = v;
		return true;
	}
	if (!strcmp(w[0], "thread") && n == 1)
		return T.nr_threads < LT_THREADS && (T.nr_threads++, true);
	if (!T.nr_threads || T.nr_ops[t] >= LT_OPS)
		return false;
	if (!strcmp(w[0], "fence") && n == 2) {
		if (!strcmp(w[1], "mb"))
			T.ops[t][T.nr_ops[t]].op = LT_MB;
		else if (!strcmp(w[1], "wmb"))
			T.ops[t][T.nr_ops[t]].op = LT_WMB;
		else if (!strcmp(w[1], "rmb"))
			T.ops[t][T.nr_ops[t]].op = LT_RMB;
		else
			return false;
		T.nr_ops[t]++;
		return true;
	}
	if (!strcmp(w[0], "st") && n == 4 && (r = var_index(w[1])) >= 0 && parse_int(w[2], &v)) {
		if (strcmp(w[3], "once") && strcmp(w[3], "release"))
			return false;
		T.ops[t][T.nr_ops[t]].op = strcmp(w[3], "once") ? LT_ST_REL : LT_ST;
		T.ops[t][T.nr_ops[t]].var = (unsigned int)r;
		T.ops[t][T.nr_ops[t]++].val = v;
		return true;
	}
	if (!strcmp(w[0], "ld") && n == 4 && w[1][0] == 'r' && parse_int(w[1] + 1, &v) &&
	    v >= 0 && v < LT_REGS && (r = var_index(w[2])) >= 0) {
		if (strcmp(w[3], "once") && strcmp(w[3], "acquire"))
			return false;
		T.ops[t][T.nr_ops[t]].op = strcmp(w[3], "once") ? LT_LD_ACQ : LT_LD;
		T.ops[t][T.nr_ops[t]].var = (unsigned int)r;
		T.ops[t][T.nr_ops[t]++].reg = (unsigned int)v;
		return true;
	}
	return false;
}

static int lt_init(const struct xp_cfg *cfg)
{
	char line[1024];
	int lineno = 0;
	FILE *f;

	if (!cfg->litmus) {
		fprintf(stderr, "explore: the litmus harness wants --litmus FILE\n");
		return -1;
	}
	f = fopen(cfg->litmus, "r");
	if (!f) {
		fprintf(stderr, "explore: cannot read %s\n", cfg->litmus);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		line[strcspn(line, "\n#")] = '\0';
		if (!parse_line(line)) {
			fprintf(stderr, "explore: %s:%d: bad litmus line\n", cfg->litmus, lineno);
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	if (!T.nr_threads || !T.nr_terms) {
		fprintf(stderr, "explore: %s: no thread or no exists clause\n", cfg->litmus);
		return -1;
	}
	if (kc_set_nr_cpu_ids(T.nr_threads)) {
		fprintf(stderr, "explore: cannot set up %u cpus\n", T.nr_threads);
		return -1;
	}
	return 0;
}

static unsigned int lt_nr_fibers(const struct xp_cfg *cfg)
{
	(void)cfg;
	return T.nr_threads;
}

static unsigned int lt_fiber_cpu(unsigned int id)
{
	return id;
}

static void lt_setup(void)
{
	memcpy(vars, T.init, sizeof(vars));
	memset(regs, 0, sizeof(regs));
}

static void lt_teardown(void)
{
}

static void lt_fiber(unsigned int id)
{
	unsigned int i;

	for (i = 0; i < T.nr_ops[id]; i++) {
		unsigned int v = T.ops[id][i].var, r = T.ops[id][i].reg;
		int val = T.ops[id][i].val;

		switch (T.ops[id][i].op) {
		case LT_ST: WRITE_ONCE(vars[v], val); break;
		case LT_ST_REL: smp_store_release(&vars[v], val); break;
		case LT_LD: regs[id][r] = READ_ONCE(vars[v]); break;
		case LT_LD_ACQ: regs[id][r] = smp_load_acquire(&vars[v]); break;
		case LT_MB: smp_mb(); break;
		case LT_WMB: smp_wmb(); break;
		case LT_RMB: smp_rmb(); break;
		}
	}
}

static void lt_final(void)
{
	unsigned int i;
	bool all = true;

	for (i = 0; i < T.nr_terms; i++) {
		int got = T.term[i].thread < 0 ? vars[T.term[i].idx] :
			  regs[T.term[i].thread][T.term[i].idx];

		all = all && got == T.term[i].val;
		if (!T.term[i].or_next && i + 1 < T.nr_terms)
			continue;
		if (all) {
			xp_fail("litmus_exists", "the exists clause holds");
			return;
		}
		all = true;
	}
}

static const char *lt_addr_name(const void *addr, char *buf, size_t len)
{
	unsigned int i;

	for (i = 0; i < T.nr_vars; i++)
		if (addr == &vars[i]) {
			snprintf(buf, len, "%s", T.name[i]);
			return buf;
		}
	return NULL;
}

static void lt_describe(const struct xp_cfg *cfg, char *buf, size_t len)
{
	snprintf(buf, len, " %s", cfg->litmus);
}

static const struct xp_harness xp_litmus_harness = {
	.name = "litmus",
	.describe = lt_describe,
	.init = lt_init,
	.nr_fibers = lt_nr_fibers,
	.fiber_cpu = lt_fiber_cpu,
	.setup = lt_setup,
	.fiber = lt_fiber,
	.final = lt_final,
	.teardown = lt_teardown,
	.addr_name = lt_addr_name,
};
XP_HARNESS_REGISTER(xp_litmus_harness);
