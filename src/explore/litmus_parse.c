// SPDX-License-Identifier: GPL-2.0
/*
 * The litmus harness's program (litmus.h), one item a line:
 *
 *   var NAME INIT                  a shared int (also a lock's word)
 *   thread                         the next fiber's operations follow
 *   st VAR VALUE once|release|assign   WRITE_ONCE(), smp_store_release(),
 *                                  rcu_assign_pointer()
 *   st VAR REG once                WRITE_ONCE() of a register
 *   ld REG VAR once|acquire|deref  READ_ONCE(), smp_load_acquire(),
 *                                  rcu_dereference()
 *   ld REG *REG once               READ_ONCE() through a pointer register
 *   fence mb|wmb|rmb               smp_mb(), smp_wmb(), smp_rmb()
 *   lock VAR, unlock VAR           spin_lock(), spin_unlock()
 *   islocked REG VAR               spin_is_locked()
 *   rcu_lock, rcu_unlock, sync     rcu_read_lock(), rcu_read_unlock(),
 *                                  synchronize_rcu()
 *   xchg REG VAR VALUE             atomic_xchg()
 *   cmpxchg REG VAR OLD NEW        atomic_cmpxchg()
 *   add VAR VALUE                  atomic_add() (returns nothing)
 *   add_return REG VAR VALUE       atomic_add_return()
 *   add_unless VAR VALUE UNLESS    atomic_add_unless() (its result unused)
 *   addi REG VALUE                 REG += VALUE, no access
 *   if REG ==|!= VALUE             the next operation runs only when it holds
 *   if REG ==|!= VALUE {  ...  }   the operations up to the matching "}"
 *                                  (a line of its own) run only when it holds
 *   exists TERM...                 a disjunction of conjunctions: terms
 *                                  T:REG=V or VAR=V, "|" between conjunctions
 *   filter TERM...                 as exists: an execution whose end it does
 *                                  not hold for cannot observe the outcome
 *
 * A VALUE is an integer or &NAME (a variable declared before). REG is
 * r0..r8.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "litmus.h"

static int var_index(const struct lt_prog *t, const char *s)
{
	unsigned int i;

	for (i = 0; i < t->nr_vars; i++)
		if (!strcmp(s, t->name[i]))
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

/* An integer or &NAME. */
static bool parse_val(const struct lt_prog *t, const char *s, int *v)
{
	int i;

	if (s[0] != '&')
		return parse_int(s, v);
	i = var_index(t, s + 1);
	*v = LT_PTR_BASE + i;
	return i >= 0;
}

static bool parse_reg(const char *s, unsigned int *r)
{
	int v;

	if (s[0] != 'r' || !parse_int(s + 1, &v) || v < 0 || v >= LT_REGS)
		return false;
	*r = (unsigned int)v;
	return true;
}

static bool parse_var(const struct lt_prog *t, const char *s, unsigned int *v)
{
	int i = var_index(t, s);

	*v = (unsigned int)i;
	return i >= 0;
}

static bool parse_term(const struct lt_prog *t, struct lt_cond *c, char *tok)
{
	char *eq = strchr(tok, '='), *colon = strchr(tok, ':');
	int v, th;

	if (!eq || c->nr_terms >= LT_TERMS)
		return false;
	*eq = '\0';
	if (!parse_val(t, eq + 1, &v))
		return false;
	c->term[c->nr_terms].val = v;
	if (colon && colon < eq) {
		*colon = '\0';
		if (!parse_int(tok, &th) || th < 0 || (unsigned int)th >= t->nr_threads ||
		    !parse_reg(colon + 1, &c->term[c->nr_terms].idx))
			return false;
		c->term[c->nr_terms].thread = th;
	} else {
		if (!parse_var(t, tok, &c->term[c->nr_terms].idx))
			return false;
		c->term[c->nr_terms].thread = -1;
	}
	c->term[c->nr_terms++].or_next = false;
	return true;
}

/* An exists or filter clause: once each. */
static bool parse_cond(const struct lt_prog *t, struct lt_cond *c, char *line)
{
	char *tok;

	if (c->nr_terms)
		return false;
	for (tok = strtok(line, " \t"); tok; tok = strtok(NULL, " \t")) {
		if (!strcmp(tok, "|")) {
			if (!c->nr_terms || c->term[c->nr_terms - 1].or_next)
				return false;
			c->term[c->nr_terms - 1].or_next = true;
		} else if (!parse_term(t, c, tok)) {
			return false;
		}
	}
	return c->nr_terms && !c->term[c->nr_terms - 1].or_next;
}

/* The word after an access names its order: @names[i] is op @base + i. */
static bool parse_order(const char *s, const char *const *names, enum lt_op base,
			struct lt_insn *in)
{
	unsigned int i;

	for (i = 0; names[i]; i++)
		if (!strcmp(s, names[i])) {
			in->op = base + i;
			return true;
		}
	return false;
}

static const char *const st_orders[] = { "once", "release", "assign", NULL };
static const char *const ld_orders[] = { "once", "acquire", "deref", NULL };
static const char *const fences[] = { "mb", "wmb", "rmb", NULL };
static const char *const bare[] = { "rcu_lock", "rcu_unlock", "sync", NULL };

/* One operation of the current thread, @n words: false when bad. */
static bool parse_op(const struct lt_prog *t, char **w, unsigned int n, struct lt_insn *in)
{
	const char *c = w[0];

	if (n == 1)
		return parse_order(c, bare, LT_RCU_LOCK, in);
	if (!strcmp(c, "fence") && n == 2)
		return parse_order(w[1], fences, LT_MB, in);
	if (!strcmp(c, "st") && n == 4 && parse_var(t, w[1], &in->var)) {
		if (parse_reg(w[2], &in->reg))
			return !strcmp(w[3], "once") && (in->op = LT_ST_REG, true);
		return parse_val(t, w[2], &in->val) &&
		       parse_order(w[3], st_orders, LT_ST, in);
	}
	if (!strcmp(c, "ld") && n == 4 && parse_reg(w[1], &in->reg)) {
		if (w[2][0] == '*')
			return parse_reg(w[2] + 1, &in->var) && !strcmp(w[3], "once") &&
			       (in->op = LT_LD_PTR, true);
		return parse_var(t, w[2], &in->var) && parse_order(w[3], ld_orders, LT_LD, in);
	}
	if ((!strcmp(c, "lock") || !strcmp(c, "unlock")) && n == 2) {
		in->op = c[0] == 'l' ? LT_LOCK : LT_UNLOCK;
		return parse_var(t, w[1], &in->var);
	}
	if (!strcmp(c, "islocked") && n == 3) {
		in->op = LT_ISLOCKED;
		return parse_reg(w[1], &in->reg) && parse_var(t, w[2], &in->var);
	}
	if (!strcmp(c, "add") && n == 3) {
		in->op = LT_ADD;
		return parse_var(t, w[1], &in->var) && parse_val(t, w[2], &in->val);
	}
	if (!strcmp(c, "add_unless") && n == 4) {
		in->op = LT_ADD_UNLESS;
		return parse_var(t, w[1], &in->var) && parse_val(t, w[2], &in->val) &&
		       parse_val(t, w[3], &in->val2);
	}
	if (!strcmp(c, "addi") && n == 3) {
		in->op = LT_ADDI;
		return parse_reg(w[1], &in->reg) && parse_int(w[2], &in->val);
	}
	if (!strcmp(c, "if") && (n == 4 || (n == 5 && !strcmp(w[4], "{")))) {
		in->op = !strcmp(w[2], "==") ? LT_IF_EQ : LT_IF_NE;
		in->val2 = 1;	/* a block's: set at its "}" */
		return parse_reg(w[1], &in->reg) && parse_val(t, w[3], &in->val) &&
		       (!strcmp(w[2], "==") || !strcmp(w[2], "!="));
	}
	if (n < 4 || !parse_reg(w[1], &in->reg) || !parse_var(t, w[2], &in->var) ||
	    !parse_val(t, w[3], &in->val))
		return false;
	if (!strcmp(c, "xchg") && n == 4)
		return in->op = LT_XCHG, true;
	if (!strcmp(c, "add_return") && n == 4)
		return in->op = LT_ADD_RETURN, true;
	in->op = LT_CMPXCHG;
	return !strcmp(c, "cmpxchg") && n == 5 && parse_val(t, w[4], &in->val2);
}

/* The if blocks open in the current thread: their operations' indexes. */
struct lt_blocks {
	unsigned int open[LT_OPS];
	unsigned int depth;
};

/* "}" closes the innermost block: its if skips what the block holds. */
static bool close_block(struct lt_prog *t, struct lt_blocks *b)
{
	unsigned int th = t->nr_threads - 1, at;

	if (!b->depth)
		return false;
	at = b->open[--b->depth];
	t->ops[th][at].val2 = (int)(t->nr_ops[th] - at - 1);
	return true;
}

/* One line of the program; false: bad. */
static bool parse_line(struct lt_prog *t, struct lt_blocks *b, char *line)
{
	char *w[6], *tok;
	unsigned int n = 0, th = t->nr_threads - 1;
	int v;

	if (!strncmp(line, "exists", 6) && (line[6] == ' ' || line[6] == '\t'))
		return !b->depth && parse_cond(t, &t->exists, line + 6);
	if (!strncmp(line, "filter", 6) && (line[6] == ' ' || line[6] == '\t'))
		return !b->depth && parse_cond(t, &t->filter, line + 6);
	for (tok = strtok(line, " \t"); tok && n < 6; tok = strtok(NULL, " \t"))
		w[n++] = tok;
	if (!n)
		return true;
	if (tok)
		return false;
	if (!strcmp(w[0], "}") && n == 1)
		return t->nr_threads && close_block(t, b);
	if (!strcmp(w[0], "var") && n == 3) {
		if (t->nr_vars >= LT_VARS || strlen(w[1]) >= sizeof(t->name[0]) ||
		    var_index(t, w[1]) >= 0 || !parse_val(t, w[2], &v))
			return false;
		strcpy(t->name[t->nr_vars], w[1]);
		t->init[t->nr_vars++] = v;
		return true;
	}
	if (!strcmp(w[0], "thread") && n == 1)
		return !b->depth && t->nr_threads < LT_THREADS && (t->nr_threads++, true);
	if (!t->nr_threads || t->nr_ops[th] >= LT_OPS)
		return false;
	memset(&t->ops[th][t->nr_ops[th]], 0, sizeof(t->ops[0][0]));
	if (!parse_op(t, w, n, &t->ops[th][t->nr_ops[th]++]))
		return false;
	if (n == 5 && !strcmp(w[0], "if"))
		b->open[b->depth++] = t->nr_ops[th] - 1;
	return true;
}

int lt_parse(const char *path, struct lt_prog *t)
{
	struct lt_blocks b = { .depth = 0 };
	char line[1024];
	int lineno = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		fprintf(stderr, "explore: cannot read %s\n", path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		line[strcspn(line, "\n#")] = '\0';
		if (!parse_line(t, &b, line)) {
			fprintf(stderr, "explore: %s:%d: bad litmus line\n", path, lineno);
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	if (!t->nr_threads || !t->exists.nr_terms || b.depth) {
		fprintf(stderr, "explore: %s: no thread, no exists clause or an if block not closed\n",
			path);
		return -1;
	}
	return 0;
}
