/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One measurement point in a forked process of its own, writing its JSON
 * value in the parent's place (hpcc-bench, hpcc-report). A kernel tree's
 * percpu_counter_tree_subsystem_init() runs once per boot and may keep
 * static state from an earlier call, so a program that measures several
 * CPU counts boots each one in a fresh process.
 */
#ifndef _UTIL_CHILD_H
#define _UTIL_CHILD_H

#include "util/json.h"

/*
 * What a point function returns: its value written and every check passed,
 * its value written but a self-check failed, or nothing written.
 */
enum {
	CHILD_POINT_OK = 0,
	CHILD_POINT_CHECK_FAILED = 1,
	CHILD_POINT_NO_VALUE = -1,
};

/*
 * Run @fn(@cj, @arg) in a forked child, @cj a copy of @j on the same file:
 * @fn writes one or more values (or members) where @j stands, and the child
 * exits when it returns. Returns @fn's CHILD_POINT_* value, or
 * CHILD_POINT_NO_VALUE if the child could not run or died; messages start
 * with @prog and name the point by @what and @cpus. @j counts the value
 * as written unless the result is CHILD_POINT_NO_VALUE.
 */
int json_point_in_child(struct json *j, const char *prog, const char *what, unsigned int cpus,
			int (*fn)(struct json *cj, void *arg), void *arg);

#endif /* _UTIL_CHILD_H */
