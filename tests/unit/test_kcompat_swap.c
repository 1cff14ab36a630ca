// SPDX-License-Identifier: GPL-2.0
/*
 * The owned per-CPU model's swap: a holder at a preemption point moves
 * to the vCPU a migrating waiter left and hands its own over. Inside the
 * hand-off (between giving the vCPU and naming the new one) a signal
 * handler's per-CPU operation takes the fast path when the fast-path mark
 * names its CPU, so the mark must never name a vCPU the thread no longer
 * runs. The hand-off's futex wake is that point: syscall() is wrapped at
 * link time for this binary (see the Makefile) and checks the mark there.
 * No timing: the threads wait for each other's published state only.
 */
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <linux/kernel.h>
#include <kcompat/kcompat.h>
#include "hpcc_util.h"

#define NCPUS	4
/* Yields while waiting for the other thread (a bound, not a clock). */
#define WAIT_YIELDS	100000000UL

static atomic_ulong wake_checks, wake_stale;
static _Atomic unsigned int stale_mark, stale_owner;

long __real_syscall(long nr, ...);
long __wrap_syscall(long nr, ...);

/* The library's calls: futex (six arguments) and gettid (none). */
long __wrap_syscall(long nr, ...)
{
	long a[6] = { 0 };
	unsigned int mark, owner;
	va_list ap;
	int i;

	va_start(ap, nr);
	if (nr == SYS_futex)
		for (i = 0; i < 6; i++)
			a[i] = va_arg(ap, long);
	else if (nr != SYS_gettid)
		abort();
	va_end(ap);
	if (nr == SYS_futex && (a[1] == FUTEX_WAKE_PRIVATE || a[1] == FUTEX_WAKE_BITSET_PRIVATE) &&
	    kc_cpu_held) {
		/* A give's wake: the mark names no vCPU, or one this thread runs. */
		mark = kc_pcpu_fast;
		atomic_fetch_add(&wake_checks, 1);
		owner = mark < NR_CPUS ? atomic_load(&kc_vcpus[mark].owner) : 0;
		if (mark != KC_PCPU_NOT_HELD && owner != (unsigned int)gettid()) {
			atomic_fetch_add(&wake_stale, 1);
			atomic_store(&stale_mark, mark);
			atomic_store(&stale_owner, owner);
		}
	}
	return __real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

static atomic_bool migrator_holds;

/* Holds vCPU 1, then migrates to vCPU 0 (held by the test), offering vCPU 1. */
static void *migrator(void *arg)
{
	kc_set_cpu(1);
	kc_cpu_hold();
	atomic_store(&migrator_holds, true);
	kc_set_cpu(0);
	*(unsigned int *)arg = kc_get_cpu();
	kc_cpu_unhold();
	return NULL;
}

static bool wait_for(const char *what, bool (*cond)(void), struct kt *t)
{
	unsigned long i;

	for (i = 0; i < WAIT_YIELDS; i++) {
		if (cond())
			return true;
		sched_yield();
	}
	kt_fail(t, __FILE__, __LINE__, "the other thread never %s", what);
	return false;
}

static bool holds(void)
{
	return atomic_load(&migrator_holds);
}

/* The migrator gave vCPU 1, offered it to vCPU 0's holder and waits. */
static bool offered(void)
{
	return atomic_load(&kc_vcpus[0].swap_to) == 1 + 1 &&
	       (atomic_load(&kc_vcpus[0].attn) & KC_ATTN_WANT);
}

static void swap_mark_follows_the_vcpu(struct kt *t)
{
	unsigned int migrator_cpu = UINT_MAX;
	pthread_t th;

	if (!kt_hpcc_setup(t, NCPUS))
		return;
	if (kc_pcpu_ops != KC_PCPU_OWNED) {
		kt_skip(t, "the atomic model holds no vCPU");
		return;
	}
	kc_set_cpu(0);
	kc_cpu_hold();
	KT_ASSERT(t, kc_pcpu_fast == 0, "holding vCPU 0: mark %u", kc_pcpu_fast);
	KT_ASSERT(t, !pthread_create(&th, NULL, migrator, &migrator_cpu), "thread");
	if (!wait_for("held vCPU 1", holds, t) || !wait_for("offered vCPU 1", offered, t)) {
		kc_cpu_unhold();
		pthread_join(th, NULL);
		return;
	}
	/* The give must wake: count a sleeper (the migrator may be spinning). */
	atomic_fetch_add(&kc_vcpus[0].sleepers, 1);
	kc_cpu_preempt();
	atomic_fetch_sub(&kc_vcpus[0].sleepers, 1);
	KT_EXPECT_EQU(t, kc_get_cpu(), 1);
	KT_EXPECT_EQU(t, kc_pcpu_fast, 1);
	kc_cpu_unhold();
	pthread_join(th, NULL);
	KT_EXPECT_EQU(t, migrator_cpu, 0);
	KT_EXPECT(t, atomic_load(&wake_checks) >= 1, "the hand-off never woke");
	KT_EXPECT(t, !atomic_load(&wake_stale),
		  "%lu wakes with the fast-path mark on vCPU %u, owner %#x, not us",
		  atomic_load(&wake_stale), atomic_load(&stale_mark), atomic_load(&stale_owner));
}

static const struct kt_case cases[] = {
	KT_CASE(swap_mark_follows_the_vcpu),
};

KT_MAIN("kcompat_swap", cases)
