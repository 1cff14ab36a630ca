/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KTAP_RUN_ORDER_H
#define _KTAP_RUN_ORDER_H
/*
 * ktap-run --order FILE: the programs start longest first, by the CPU
 * times FILE recorded ("NAME WALL CPU" lines, as --times writes them);
 * the document keeps the command line's order. After the run, FILE holds
 * this run's times and the older lines of programs it did not run.
 */

/*
 * Fill @perm[0..@nr) with the indices of @names in start order: those
 * FILE has no time for first, in their order, then the others by
 * decreasing recorded CPU time (ties in their order). A missing FILE
 * is the command line's order; an unreadable line is ignored.
 */
void order_plan(const char *file, const char *const *names, int nr, int *perm);

/*
 * Write FILE again (a temporary file renamed over it): @nr programs'
 * "NAME WALL CPU", then FILE's lines for names not among them. Returns
 * 0, or -1 with errno set.
 */
int order_save(const char *file, const char *const *names, const double *wall,
	       const double *cpu, int nr);
#endif
