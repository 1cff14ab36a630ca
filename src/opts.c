// SPDX-License-Identifier: GPL-2.0
/* Options as data (opts.h): parsing into a field, --help and docs text. */
#include <limits.h>
#include <string.h>
#include "opts.h"
#include "parse.h"

static void store_int(void *p, size_t size, long long v)
{
	switch (size) {
	case 1:
		*(signed char *)p = v;
		break;
	case 2:
		*(short *)p = v;
		break;
	case 4:
		*(int *)p = v;
		break;
	default:
		*(long long *)p = v;
		break;
	}
}

static int choice(const struct stress_opt *o, const char *val)
{
	int i;

	for (i = 0; o->choices && o->choices[i]; i++)
		if (!strcmp(val, o->choices[i]))
			return i;
	return -1;
}

static void choices_text(const struct stress_opt *o, char *buf, size_t len)
{
	size_t n = 0;
	int i;

	buf[0] = 0;
	for (i = 0; o->choices && o->choices[i] && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%s", i ? ", " : "", o->choices[i]);
}

/* OPT_INT: an optional '-', then decimal digits. */
static int parse_int(const struct stress_opt *o, void *p, const char *val, char *err,
		     size_t errlen)
{
	bool neg = val[0] == '-';
	unsigned long long u;
	long long v;

	if (stress_parse_ulong(val + neg, 0, LLONG_MAX, &u, err, errlen))
		return -1;
	v = neg ? -(long long)u : (long long)u;
	if (v < o->smin || v > o->smax) {
		snprintf(err, errlen, "%s is out of range (%lld..%lld)", val, o->smin, o->smax);
		return -1;
	}
	store_int(p, o->size, v);
	return 0;
}

int stress_opt_parse(const struct stress_opt *o, void *base, const char *val,
		     char *err, size_t errlen)
{
	void *p = (char *)base + o->offset;
	unsigned long long u;
	char list[160];
	const char *end;
	double d;
	int i;

	if (o->unavailable) {
		snprintf(err, errlen, "%s", o->unavailable);
		return -1;
	}
	switch (o->type) {
	case OPT_CODE:
		return 0;
	case OPT_FLAG:
		*(bool *)p = true;
		return 0;
	case OPT_UINT:
		if (stress_parse_ulong(val, o->min, o->max, &u, err, errlen))
			return -1;
		store_int(p, o->size, u);
		return 0;
	case OPT_INT:
		return parse_int(o, p, val, err, errlen);
	case OPT_CHOICE:
		i = choice(o, val);
		if (i < 0) {
			choices_text(o, list, sizeof(list));
			snprintf(err, errlen, "'%s' is not one of %s", val, list);
			return -1;
		}
		store_int(p, o->size, o->values ? o->values[i] : i);
		return 0;
	case OPT_DOUBLE:
		i = choice(o, val);
		if (i >= 0) {
			*(double *)p = o->values[i];
			return 0;
		}
		end = stress_decimal(val, &d);
		if (!end || *end || !(d >= o->fmin && d <= o->fmax)) {
			choices_text(o, list, sizeof(list));
			snprintf(err, errlen, "'%s' is not %s%sa fraction in [%g, %g]", val, list,
				 *list ? " or " : "", o->fmin, o->fmax);
			return -1;
		}
		*(double *)p = d;
		return 0;
	case OPT_DURATION:
		if (stress_parse_duration(val, &d, err, errlen))
			return -1;
		if (o->fmin > 0 && d < o->fmin) {
			stress_format_duration(o->fmin, list, sizeof(list));
			snprintf(err, errlen, "'%s' is below the minimum of %s", val, list);
			return -1;
		}
		*(double *)p = d;
		return 0;
	case OPT_STRING:
		if (!*val) {
			snprintf(err, errlen, "empty file name");
			return -1;
		}
		*(const char **)p = val;
		return 0;
	}
	return 0;
}

void stress_opt_defaults(const struct stress_opt *opts, void *base)
{
	char err[160];

	for (; opts && opts->name; opts++)
		if (opts->deflt && !opts->unavailable)
			stress_opt_parse(opts, base, opts->deflt, err, sizeof(err));
}

/* The entry's text: help, then "One of: ..." and "Default: ...". */
static void entry_text(const struct stress_opt *o, char *buf, size_t len, bool build)
{
	char list[160];
	size_t n;

	n = snprintf(buf, len, "%s", o->help);
	if (o->choices && o->type == OPT_CHOICE && n < len) {
		choices_text(o, list, sizeof(list));
		n += snprintf(buf + n, len - n, " One of: %s.", list);
	}
	if (o->deflt && n < len)
		n += snprintf(buf + n, len - n, " Default: %s.", o->deflt);
	if (build && o->unavailable && n < len)
		snprintf(buf + n, len - n, " (Not in this build: %s.)", o->unavailable);
}

static void left_text(const struct stress_opt *o, char *buf, size_t len)
{
	char sh[8] = "";

	if (o->shortname)
		snprintf(sh, sizeof(sh), "-%c, ", o->shortname);
	snprintf(buf, len, "%s--%s%s%s", sh, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

#define HELP_INDENT	8

void stress_opt_help(FILE *out, const struct stress_opt *o, unsigned int width)
{
	char text[1024], left[64];
	const char *p;
	unsigned int col;

	left_text(o, left, sizeof(left));
	entry_text(o, text, sizeof(text), true);
	fprintf(out, "  %s\n", left);
	/* Words on lines of at most @width columns, each indented. */
	p = text;
	while (*p) {
		fprintf(out, "%*s", HELP_INDENT, "");
		col = HELP_INDENT;
		for (;;) {
			size_t w = strcspn(p, " ");

			if (col > HELP_INDENT && col + 1 + w > width)
				break;
			fprintf(out, "%s%.*s", col > HELP_INDENT ? " " : "", (int)w, p);
			col += (col > HELP_INDENT) + w;
			p += w;
			p += strspn(p, " ");
			if (!*p)
				break;
		}
		fputc('\n', out);
	}
}

void stress_opt_markdown(FILE *out, const struct stress_opt *o)
{
	char text[1024], left[64];

	left_text(o, left, sizeof(left));
	/* The docs hold for every build: no "not in this build". */
	entry_text(o, text, sizeof(text), false);
	fprintf(out, "- `%s`: %s\n", left, text);
}
