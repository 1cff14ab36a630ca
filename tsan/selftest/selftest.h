/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the TSan self-test programs in tsan/selftest/. Each
 * program is built twice: as written (the correct form, which must be
 * clean) and with -DSELFTEST_RACY (one known bug, which TSan must report).
 *
 * The programs fix the real-time order of the two conflicting accesses
 * with st_flag_set()/st_flag_wait(): a relaxed atomic flag and a futex.
 * TSan sees neither as synchronisation, so the handshake orders the
 * accesses in time without creating a happens-before edge that would
 * hide the race: whatever orders them in the correct form is the RCU or
 * atomic annotation under test, nothing else.
 */
#ifndef _TSAN_SELFTEST_H
#define _TSAN_SELFTEST_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/syscall.h>

#ifdef SELFTEST_RACY
#define ST_VARIANT	"racy"
#else
#define ST_VARIANT	"correct"
#endif

/* Bound on every wait: a lost wake-up fails the program, never hangs it. */
#define ST_WAIT_SECONDS	60

static inline void st_die(const char *prog, const char *why)
{
	fprintf(stderr, "%s (%s): %s\n", prog, ST_VARIANT, why);
	exit(1);
}

static inline void st_flag_set(int *flag)
{
	__atomic_store_n(flag, 1, __ATOMIC_RELAXED);
	syscall(SYS_futex, flag, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

static inline void st_flag_wait(int *flag, const char *prog)
{
	struct timespec ts = { .tv_sec = 1 };
	int i;

	for (i = 0; i < ST_WAIT_SECONDS; i++) {
		if (__atomic_load_n(flag, __ATOMIC_RELAXED))
			return;
		syscall(SYS_futex, flag, FUTEX_WAIT_PRIVATE, 0, &ts, NULL, 0);
	}
	if (!__atomic_load_n(flag, __ATOMIC_RELAXED))
		st_die(prog, "handshake timed out");
}

/*
 * The RCU programs run under every flavor (KC_RCU_FLAVOR, tsan/run-selftest):
 * say which one, first, so that a racy form killed by TSan still shows it.
 */
#define st_rcu_flavor(prog) do {					\
	printf("%s (%s): rcu=%s\n", prog, ST_VARIANT, kc_rcu_flavor());	\
	fflush(stdout);							\
} while (0)

#endif /* _TSAN_SELFTEST_H */
