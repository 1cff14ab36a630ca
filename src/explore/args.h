/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The explorer's command line (docs/explore.md#options): option rows of
 * the engine's kind (src/opts.h), parsed into one struct.
 */
#ifndef _XP_ARGS_H
#define _XP_ARGS_H

#include <stdbool.h>
#include <stdio.h>
#include "xp.h"

enum xp_action {
	XP_ACT_SEARCH,		/* the enumeration or PCT */
	XP_ACT_REPLAY,		/* --replay-schedule */
	XP_ACT_HELP,		/* --help, --help-markdown, --list-harnesses: printed */
};

struct xp_args {
	struct xp_cfg cfg;
	const char *save, *replay, *json;
	long timeout;		/* seconds; -1: the mode's default */
	int model;		/* enum xp_model */
	int fiber_switch;	/* 0: asm, 1: ucontext */
	int algo;		/* the --algo row's choice */
	/* given on the command line: a schedule file must have the same */
	bool batch_given, algo_given;
	bool help, help_markdown, list;
};

/* XP_ACT_*, or -1 with one line printed (bad input: exit 2). */
int xp_args_parse(int argc, char **argv, struct xp_args *a);
/* Decimal sizes within +-XP_SIZE_MAX into @cfg: 0, or -1. */
int xp_parse_sizes(const char *s, struct xp_cfg *cfg);

#endif /* _XP_ARGS_H */
