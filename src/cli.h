/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.c: the command line, its option rows and --help.
 */
#ifndef _STRESS_CLI_H
#define _STRESS_CLI_H

#include <stdio.h>
#include "config.h"

/* cli.c: parse argv. Returns -1 after printing usage errors (exit 2). */
enum stress_action { ACT_RUN, ACT_LIST, ACT_HELP, ACT_VERSION, ACT_DESCRIBE, ACT_REPLAY,
		     ACT_SHRINK, ACT_LIST_INVARIANTS };
int stress_cli_parse(int argc, char **argv, struct stress_config *cfg,
		     enum stress_action *act);
/* The engine's option rows, ended by a row without a name. */
const struct stress_opt *stress_engine_opts(void);
void stress_usage(FILE *out, const struct stress_config *cfg);

#endif /* _STRESS_CLI_H */
