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

/* Booted with NCPUS CPUs in the owned model (the atomic one holds no vCPU: skipped). */
static bool owned_setup(struct kt *t)
{
	if (!kt_hpcc_setup(t, NCPUS))
		return false;
	if (kc_pcpu_ops != KC_PCPU_OWNED) {
		kt_skip(t, "the atomic model holds no vCPU");
		return false;
	}
	return true;
}

static void swap_mark_follows_the_vcpu(struct kt *t)
{
	unsigned int migrator_cpu = UINT_MAX;
	pthread_t th;

	if (!owned_setup(t))
		return;
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

/*
 * The waiter's spin adapts: a holder that sits on its vCPU until the
 * waiter sleeps (a holder not on a core) makes every first spin run out,
 * and each such wait halves the spin down to its floor.
 */
#define SIT_ROUNDS	10U

static _Atomic unsigned int sitter_held, sitter_go;

/* Holds vCPU 2 each round until a waiter sleeps on it, then gives it. */
static void *sitter(void *arg)
{
	unsigned int r;
	unsigned long i;

	for (r = 1; r <= SIT_ROUNDS; r++) {
		kc_set_cpu(2);
		kc_cpu_hold();
		atomic_store(&sitter_held, r);
		for (i = 0; i < WAIT_YIELDS && !atomic_load(&kc_vcpus[2].sleepers); i++)
			sched_yield();
		kc_cpu_unhold();
		for (i = 0; i < WAIT_YIELDS && atomic_load(&sitter_go) != r; i++)
			sched_yield();
	}
	return NULL;
}

static unsigned int sit_round;

static bool sitting(void)
{
	return atomic_load(&sitter_held) == sit_round;
}

static void spin_halves_while_the_holder_sits(struct kt *t)
{
	long long before, after, first;
	pthread_t th;

	if (!owned_setup(t))
		return;
	first = kc_cpu_spin_ns();
	KT_ASSERT(t, !pthread_create(&th, NULL, sitter, NULL), "thread");
	for (sit_round = 1; sit_round <= SIT_ROUNDS; sit_round++) {
		if (!wait_for("held vCPU 2", sitting, t))
			break;
		before = kc_cpu_spin_ns();
		/* An operation as CPU 2 by a thread that holds nothing: a take. */
		kc_set_cpu(2);
		KT_EXPECT(t, kc_pcpu_op_begin(2), "owned model: the operation takes vCPU 2");
		kc_pcpu_op_end(2);
		after = kc_cpu_spin_ns();
		atomic_store(&sitter_go, sit_round);
		KT_EXPECT(t, after == before / 2 || (after < before && after > before / 2) ||
			  (after == before && after < first),
			  "round %u: spin %lld ns after a wait whose spin ran out, %lld before",
			  sit_round, after, before);
	}
	pthread_join(th, NULL);
	after = kc_cpu_spin_ns();
	KT_EXPECT(t, after > 0 && after <= first / 16,
		  "after %u waits that slept the spin is %lld ns (first %lld)",
		  SIT_ROUNDS, after, first);
	kt_diag(t, "spin %lld ns at first, %lld after %u waits that slept", first, after,
		SIT_ROUNDS);
}

static const struct kt_case cases[] = {
	KT_CASE(swap_mark_follows_the_vcpu),
	KT_CASE(spin_halves_while_the_holder_sits),
};

KT_MAIN("kcompat_swap", cases)
