// SPDX-License-Identifier: GPL-2.0
/* The suite's one KTAP writer: see ktap.h. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "util/ktap.h"

static const char *const directive[] = {
	[KTAP_SKIP] = "SKIP", [KTAP_TIMEOUT] = "TIMEOUT", [KTAP_ERROR] = "ERROR",
};

static void indent(struct ktap *k, unsigned int depth)
{
	unsigned int i;

	for (i = 0; i < depth; i++)
		fputs("  ", k->out);
}

/* A test name holds neither '#' nor a line break (ktap.rst: the description). */
static void put_name(struct ktap *k, const char *name)
{
	for (; name && *name; name++)
		fputc(*name == '#' || *name == '\n' || *name == '\r' ? '_' : *name, k->out);
}

/* Text after a result's " # ": one line. */
static void put_line(struct ktap *k, const char *s)
{
	for (; *s; s++)
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, k->out);
}

static void plan(struct ktap *k, unsigned int depth, unsigned int n)
{
	k->lvl[depth].plan = n;
	if (n) {
		indent(k, depth);
		fprintf(k->out, "1..%u\n", n);
	}
}

static void ktap_flush(struct ktap *k)
{
	if (k->flush)
		k->flush(k->out);
	else
		fflush(k->out);
}

void ktap_begin(struct ktap *k, FILE *out, unsigned int n)
{
	memset(k, 0, sizeof(*k));
	k->out = out;
	fputs("KTAP version 1\n", out);
	plan(k, 0, n);
}

void ktap_subtest_begin(struct ktap *k, const char *name, unsigned int n)
{
	struct ktap_level *l;

	if (k->depth + 1 >= KTAP_MAX_DEPTH)
		abort();	/* a programming error, not input */
	l = &k->lvl[++k->depth];
	memset(l, 0, sizeof(*l));
	snprintf(l->name, sizeof(l->name), "%s", name);
	indent(k, k->depth);
	fputs("KTAP version 1\n", k->out);
	indent(k, k->depth);
	fputs("# Subtest: ", k->out);
	put_name(k, l->name);
	fputc('\n', k->out);
	plan(k, k->depth, n);
}

static void result_line(struct ktap *k, enum ktap_status st, const char *name,
			const char *fmt, va_list ap)
{
	struct ktap_level *l = &k->lvl[k->depth];
	char data[512] = "";

	if (fmt)
		vsnprintf(data, sizeof(data), fmt, ap);
	indent(k, k->depth);
	fprintf(k->out, "%s %u ", st == KTAP_PASS || st == KTAP_SKIP ? "ok" : "not ok", ++l->nr);
	put_name(k, name);
	if (st != KTAP_PASS && st != KTAP_FAIL) {
		fprintf(k->out, " # %s", directive[st]);
		if (*data)
			fputc(' ', k->out);
	} else if (*data) {
		fputs(" # ", k->out);
	}
	put_line(k, data);
	fputc('\n', k->out);
	ktap_flush(k);
}

static void count(struct ktap_counts *c, enum ktap_status st)
{
	if (st == KTAP_PASS)
		c->pass++;
	else if (st == KTAP_SKIP)
		c->skip++;
	else
		c->fail++;
}

void ktap_result(struct ktap *k, enum ktap_status st, const char *name, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	result_line(k, st, name, fmt, ap);
	va_end(ap);
	count(&k->lvl[k->depth].counts, st);
}

void ktap_subtest_end(struct ktap *k, enum ktap_status st, const char *extra,
		      const char *fmt, ...)
{
	struct ktap_level *l = &k->lvl[k->depth], *parent;
	struct ktap_counts c = l->counts;
	va_list ap;

	if (!k->depth)
		abort();
	if (c.fail && (st == KTAP_PASS || st == KTAP_SKIP))
		st = KTAP_FAIL;
	/*
	 * A subtest failed on its own (e.g. its program's exit status) while
	 * its cases passed: one more failure, as kunit_parser counts it.
	 */
	if (st != KTAP_PASS && st != KTAP_SKIP && !c.fail && c.pass)
		c.fail++;
	parent = &k->lvl[--k->depth];
	indent(k, k->depth);
	fputs("# ", k->out);
	put_name(k, l->name);
	fprintf(k->out, ": pass:%lu fail:%lu skip:%lu total:%lu%s\n", c.pass, c.fail, c.skip,
		ktap_total(&c), extra ? extra : "");
	va_start(ap, fmt);
	result_line(k, st, l->name, fmt, ap);
	va_end(ap);
	parent->counts.pass += c.pass;
	parent->counts.fail += c.fail;
	parent->counts.skip += c.skip;
}

void ktap_diag_block(struct ktap *k, const char *text)
{
	const char *p = text, *nl;

	while (p && *p) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		indent(k, k->depth);
		/* Text that is already a diagnostic keeps its own '#'. */
		fprintf(k->out, "%s%.*s\n", p[0] == '#' ? "" : "# ", (int)(nl - p), p);
		p = *nl ? nl + 1 : nl;
	}
}

void ktap_diag(struct ktap *k, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!*buf) {
		indent(k, k->depth);
		fputs("#\n", k->out);
		return;
	}
	ktap_diag_block(k, buf);
}

void ktap_end(struct ktap *k, const char *extra)
{
	const struct ktap_counts *c = &k->lvl[0].counts;

	fprintf(k->out, "# Totals: pass:%lu fail:%lu skip:%lu total:%lu%s\n", c->pass, c->fail,
		c->skip, ktap_total(c), extra ? extra : "");
	ktap_flush(k);
}

unsigned int ktap_nr(const struct ktap *k)
{
	return k->lvl[k->depth].nr;
}

const struct ktap_counts *ktap_counts(const struct ktap *k)
{
	return &k->lvl[k->depth].counts;
}
