/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Options as data: one row per option, the engine's and every scenario's
 * alike. The engine parses each value into the field the row names (a
 * struct of the owner's: struct stress_config, or a scenario's opt_cfg),
 * and generates getopt_long's table, --help and the docs from the rows.
 */
#ifndef _STRESS_OPTS_H
#define _STRESS_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum opt_type {
	OPT_CODE,	/* the engine's code handles it (src/cli.c) */
	OPT_FLAG,	/* a bool set to true */
	OPT_UINT,	/* a decimal integer in [min, max], into any integer field */
	OPT_INT,	/* a decimal integer, maybe negative, in [smin, smax] */
	OPT_CHOICE,	/* one of choices[]: its index, or values[index] */
	OPT_DOUBLE,	/* a decimal in [fmin, fmax], or one of choices[] (values[i]) */
	OPT_DURATION,	/* 30s, 5m, ... in seconds; at least fmin (0: none) */
	OPT_STRING,	/* a non-empty string (a file name) */
};

/* The engine's --help sections, in their order (a scenario's rows: OPT_GROUP_NONE). */
enum opt_group {
	OPT_GROUP_NONE,
	OPT_GROUP_RUN,
	OPT_GROUP_CHECKING,
	OPT_GROUP_FAULTS,
	OPT_GROUP_OUTPUT,
	OPT_GROUP_UNTIL_FAIL,
	OPT_GROUP_REPLAY,
	OPT_GROUP_MODES,
	OPT_GROUP_END,
};

struct stress_opt {
	const char *name;	/* without "--"; NULL ends a table */
	char shortname;		/* engine only; 0: none */
	const char *arg;	/* the value's name in --help; NULL: a flag */
	enum opt_type type;
	size_t offset, size;	/* the field in the owner's struct */
	unsigned long long min, max;	/* OPT_UINT */
	long long smin, smax;		/* OPT_INT */
	double fmin, fmax;		/* OPT_DOUBLE; OPT_DURATION: fmin */
	const char *const *choices;	/* NULL-terminated */
	const int *values;		/* NULL: the index */
	const char *unavailable;	/* set: this build cannot honour it (why) */
	unsigned int scope;		/* engine: where it applies (src/cli.c) */
	int id;				/* engine: OPT_CODE's case */
	enum opt_group group;		/* engine: its --help section */
	const char *deflt;		/* parsed before the command line; NULL: none */
	const char *help;
};

#define OPT_FIELD(type, field)	.offset = offsetof(type, field), \
				.size = sizeof(((type *)0)->field)

/* Parse @val (NULL for a flag) into @base's field: 0, or -1 with a reason in @err. */
int stress_opt_parse(const struct stress_opt *o, void *base, const char *val,
		     char *err, size_t errlen);
/* Apply every row's default (deflt) to @base. */
void stress_opt_defaults(const struct stress_opt *opts, void *base);
/*
 * One option's --help entry, wrapped to @width columns: the help text, the
 * choices and the default.
 */
void stress_opt_help(FILE *out, const struct stress_opt *o, unsigned int width);
/* The same as a Markdown list item (the option reference in docs/stress.md). */
void stress_opt_markdown(FILE *out, const struct stress_opt *o);

#endif /* _STRESS_OPTS_H */
