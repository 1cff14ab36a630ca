/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Engine internals shared by the files of src/ (not by scenarios, which
 * see only scenario.h), one header per part: config.h (the run
 * configuration), run.h (the run object), and each file's entry points in
 * its own header (cli.h, engine.h, threads.h, watchdog.h, report.h, ...).
 * A file of src/ may include this one for all of them.
 */
#ifndef _STRESS_STRESS_H
#define _STRESS_STRESS_H

#include "config.h"
#include "parse.h"
#include "cli.h"
#include "output.h"
#include "registry.h"
#include "describe.h"
#include "run.h"
#include "hotplug.h"
#include "engine.h"
#include "replay_explore.h"
#include "signals.h"
#include "threads.h"
#include "inject.h"
#include "watchdog.h"
#include "recorder.h"
#include "report.h"
#include "verdict.h"

#endif /* _STRESS_STRESS_H */
