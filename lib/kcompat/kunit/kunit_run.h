/* SPDX-License-Identifier: GPL-2.0 */
/* The KUnit runner's entry points, for the driver (main.c). */
#ifndef _KC_KUNIT_RUN_H
#define _KC_KUNIT_RUN_H

/* Every registered suite (those @filter selects, a kunit.filter_glob): 1 on a failure. */
int kc_kunit_run_all(const char *filter);
/* "suite.case" per line. */
void kc_kunit_list(void);
unsigned int kc_kunit_nr_suites(void);
/* The calling kthread (if it is one) exits as killed, before pthread_exit(). */
void kc_kthread_abort(void);

#endif /* _KC_KUNIT_RUN_H */
