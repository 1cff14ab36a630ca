// SPDX-License-Identifier: GPL-2.0
/*
 * The userspace kernel environment (lib/kcompat) against the meanings in
 * docs/spec/hpcc.md#hpcc-kcompat: get_count_order, type-generic abs(), per-CPU
 * memory, this_cpu_add_return, WARN recording, virtual CPUs (ownership in the
 * per-CPU model of $KC_PCPU_OPS) and RCU ordering.
 */
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/atomic.h>
#include <linux/align.h>
#include <linux/bits.h>
#include <linux/jump_label.h>
#include <linux/slab.h>
#include <linux/overflow.h>
#include <linux/cleanup.h>
#include <linux/module.h>
#include <kcompat/kcompat.h>
#include "ktap.h"

static void kcompat_get_count_order(struct kt *t)
{
	unsigned int k;

	KT_EXPECT_EQ(t, get_count_order(0), -1);
	KT_EXPECT_EQ(t, get_count_order(1), 0);
	KT_EXPECT_EQ(t, get_count_order(2), 1);
	KT_EXPECT_EQ(t, get_count_order(3), 2);
	KT_EXPECT_EQ(t, get_count_order(4), 2);
	KT_EXPECT_EQ(t, get_count_order(5), 3);
	KT_EXPECT_EQ(t, get_count_order(UINT_MAX), 32);
	for (k = 1; k < 32; k++) {
		KT_EXPECT(t, get_count_order(1U << k) == (int)k, "2^%u", k);
		KT_EXPECT(t, get_count_order((1U << k) + 1) == (int)k + 1, "2^%u + 1", k);
		KT_EXPECT(t, get_count_order((1U << k) - 1) == (int)k - (k == 1 ? 1 : 0),
			  "2^%u - 1", k);
	}
	for (k = 0; k < 64; k++)
		KT_EXPECT(t, get_count_order_long(1UL << k) == (int)k, "long 2^%u", k);
	KT_EXPECT_EQ(t, get_count_order_long((1UL << 40) + 1), 41);
}

static void kcompat_abs_long(struct kt *t)
{
	long big = -(1L << 31), huge = -(1L << 40), odd = -3000000000L, lmin = LONG_MIN;
	int small = -5, imin = INT_MIN;

	KT_EXPECT(t, sizeof(abs(big)) == sizeof(long), "abs(long) is a long");
	KT_EXPECT(t, sizeof(abs(small)) == sizeof(int), "abs(int) is an int");
	KT_EXPECT(t, abs(big) == 1L << 31, "abs(-2^31) = %ld", (long)abs(big));
	KT_EXPECT(t, abs(huge) == 1L << 40, "abs(-2^40) = %ld", (long)abs(huge));
	KT_EXPECT(t, abs(odd) == 3000000000L, "abs(-3e9) = %ld", (long)abs(odd));
	KT_EXPECT(t, abs(-odd) == 3000000000L, "abs(3e9) = %ld", (long)abs(-odd));
	/* Wraps like the kernel's -fno-strict-overflow build. */
	KT_EXPECT(t, abs(lmin) == LONG_MIN, "abs(LONG_MIN) = %ld", (long)abs(lmin));
	KT_EXPECT(t, ((unsigned long)abs(lmin) & ((1UL << 20) - 1)) == 0, "low bits");
	KT_EXPECT(t, abs(small) == 5 && abs(5) == 5 && abs(0) == 0, "int");
	KT_EXPECT(t, abs(imin) == INT_MIN, "abs(INT_MIN)");
	/* The skip-level test: |c| & (M - 1) for |c| >= 2^32. */
	KT_EXPECT(t, (abs(-(1L << 32) - 96) & 255) == 96, "low bits of |c|");
}

static void kcompat_percpu_alloc(struct kt *t)
{
	unsigned int cpu, round;
	unsigned long *p, *q;

	KT_ASSERT(t, kc_set_nr_cpu_ids(64) == 0, "");
	p = __alloc_percpu_gfp(3 * sizeof(unsigned long), __alignof__(unsigned long), GFP_KERNEL);
	KT_ASSERT(t, p != NULL, "alloc");
	for (cpu = 0; cpu < 64; cpu++) {
		KT_EXPECT(t, (char *)per_cpu_ptr(p, cpu) - (char *)p ==
			  (long)(cpu * KC_PERCPU_UNIT), "stride at cpu %u", cpu);
		KT_EXPECT(t, per_cpu_ptr(p + 2, cpu) == per_cpu_ptr(p, cpu) + 2,
			  "interior pointer at cpu %u", cpu);
		KT_EXPECT(t, !p[0] && !*per_cpu_ptr(p, cpu) && !*per_cpu_ptr(p + 2, cpu),
			  "zeroed at cpu %u", cpu);
	}
	for (round = 0; round < 3; round++) {
		for (cpu = 0; cpu < 64; cpu++) {
			*per_cpu_ptr(p, cpu) = ~0UL;
			*per_cpu_ptr(p + 1, cpu) = cpu;
			*per_cpu_ptr(p + 2, cpu) = ~0UL;
		}
		free_percpu(p);
		q = __alloc_percpu_gfp(3 * sizeof(unsigned long), __alignof__(unsigned long),
				       GFP_KERNEL);
		KT_EXPECT(t, q == p, "freed block reused (%p, %p)", (void *)q, (void *)p);
		for (cpu = 0; cpu < 64; cpu++)
			KT_EXPECT(t, !*per_cpu_ptr(q, cpu) && !*per_cpu_ptr(q + 1, cpu) &&
				  !*per_cpu_ptr(q + 2, cpu), "reused block zeroed at cpu %u", cpu);
		p = q;
	}
	q = __alloc_percpu_gfp(8, 64, GFP_KERNEL);
	KT_EXPECT(t, q && !((uintptr_t)q & 63), "alignment 64: %p", (void *)q);
	KT_EXPECT(t, q != p, "distinct live blocks");
	free_percpu(q);
	free_percpu(p);
	free_percpu(NULL);
	/* More CPUs than areas: allocation fails cleanly. */
	KT_ASSERT(t, kc_set_nr_cpu_ids(NR_CPUS + 1) == 0, "");
	KT_EXPECT(t, __alloc_percpu_gfp(8, 8, GFP_KERNEL) == NULL, "beyond NR_CPUS");
	KT_EXPECT_EQ(t, kc_set_nr_cpu_ids(0), -EINVAL);
	KT_ASSERT(t, kc_set_nr_cpu_ids(4) == 0, "");
}

/*
 * A sequence: a block written on 64 CPUs is freed, the CPU count is
 * lowered, the block is reused, and the count is raised again. The CPUs
 * above the lowered count still hold the old words unless every area that
 * ever held data is zeroed on reuse.
 */
static void kcompat_percpu_reuse_across_cpu_counts(struct kt *t)
{
	unsigned long *p, *q;
	unsigned int cpu, stale = 0;

	KT_ASSERT(t, kc_set_nr_cpu_ids(64) == 0, "");
	p = __alloc_percpu_gfp(5 * sizeof(unsigned long), __alignof__(unsigned long), GFP_KERNEL);
	KT_ASSERT(t, p != NULL, "alloc");
	for (cpu = 0; cpu < 64; cpu++)
		*per_cpu_ptr(p + 4, cpu) = ~0UL - cpu;
	free_percpu(p);
	KT_ASSERT(t, kc_set_nr_cpu_ids(2) == 0, "");
	q = __alloc_percpu_gfp(5 * sizeof(unsigned long), __alignof__(unsigned long), GFP_KERNEL);
	KT_EXPECT(t, q == p, "freed block reused (%p, %p)", (void *)q, (void *)p);
	KT_ASSERT(t, kc_set_nr_cpu_ids(64) == 0, "");
	for (cpu = 0; cpu < 64; cpu++)
		stale += *per_cpu_ptr(q + 4, cpu) != 0;
	KT_EXPECT(t, stale == 0, "%u of 64 CPUs kept a stale word", stale);
	free_percpu(q);
	KT_ASSERT(t, kc_set_nr_cpu_ids(4) == 0, "");
}

static unsigned long hook_calls;

static void count_hook(void)
{
	hook_calls++;
}

struct adder {
	unsigned long *p;
	unsigned int cpu;
	unsigned long n;
	int seen_cpu;
};

static void *adder_fn(void *arg)
{
	struct adder *a = arg;
	unsigned long i;

	kc_set_cpu(a->cpu);
	a->seen_cpu = raw_smp_processor_id();
	for (i = 0; i < a->n; i++)
		this_cpu_add_return(*a->p, 1);
	return NULL;
}

static void kcompat_this_cpu_add_return(struct kt *t)
{
	unsigned long *p;
	unsigned int cpu;

	KT_ASSERT(t, kc_set_nr_cpu_ids(8) == 0, "");
	p = alloc_percpu(unsigned long);
	KT_ASSERT(t, p != NULL, "alloc");
	kc_set_cpu(3);
	KT_EXPECT_EQ(t, raw_smp_processor_id(), 3);
	kc_set_after_pcpu_add_hook(count_hook);
	KT_EXPECT_EQ(t, this_cpu_add_return(*p, 5), 5);
	KT_EXPECT_EQ(t, this_cpu_add_return(*p, -7), -2);
	kc_set_after_pcpu_add_hook(NULL);
	KT_EXPECT_EQ(t, hook_calls, 2);
	for (cpu = 0; cpu < 8; cpu++)
		KT_EXPECT(t, *per_cpu_ptr(p, cpu) == (cpu == 3 ? (unsigned long)-2 : 0),
			  "cpu %u: %ld", cpu, (long)*per_cpu_ptr(p, cpu));
	kc_set_cpu(0);
	free_percpu(p);
}

/* Threads sharing a virtual CPU lose nothing; each thread has its own CPU id. */
static void kcompat_this_cpu_shared(struct kt *t)
{
	struct adder a[6];
	pthread_t tid[6];
	unsigned long *p;
	unsigned int i;

	KT_ASSERT(t, kc_set_nr_cpu_ids(8) == 0, "");
	p = alloc_percpu(unsigned long);
	KT_ASSERT(t, p != NULL, "alloc");
	for (i = 0; i < 6; i++) {
		a[i] = (struct adder){ .p = p, .cpu = i % 2 ? 5 : 1, .n = 100000, .seen_cpu = -1 };
		KT_ASSERT(t, pthread_create(&tid[i], NULL, adder_fn, &a[i]) == 0, "create");
	}
	for (i = 0; i < 6; i++) {
		pthread_join(tid[i], NULL);
		KT_EXPECT(t, a[i].seen_cpu == (int)a[i].cpu, "thread %u saw cpu %d", i,
			  a[i].seen_cpu);
	}
	KT_EXPECT_EQ(t, *per_cpu_ptr(p, 1), 300000);
	KT_EXPECT_EQ(t, *per_cpu_ptr(p, 5), 300000);
	KT_EXPECT_EQ(t, *per_cpu_ptr(p, 0), 0);
	KT_EXPECT_EQ(t, raw_smp_processor_id(), 0);
	free_percpu(p);
}

/*
 * Virtual CPU ownership (kcompat.h): a holder keeps its vCPU and lends it
 * at its preemption points; a thread that holds none takes the vCPU
 * around each operation; a holder that changes CPU migrates, and the
 * holder of its target may swap to the CPU it left. Nothing is lost
 * (each add is counted as the CPU the thread ran as when it made it) and
 * every thread finishes (the counts bound the test).
 */
struct vholder {
	unsigned long *p;
	unsigned int cpu, other;
	unsigned long max, adds, hops;	/* hop every 1024 adds when other != cpu */
	unsigned long as[8];		/* adds made as each CPU */
	unsigned int seen_holder, last_cpu;
	struct vholder *holder;		/* vswap_migrate(): the target's holder */
	_Atomic bool started;
	_Atomic bool *stop;
};

static void vholder_add(struct vholder *h)
{
	unsigned int cpu = kc_get_cpu();	/* a swap happens after the add */

	this_cpu_add_return(*h->p, 1);
	h->as[cpu]++;
}

static void *vholder_fn(void *arg)
{
	struct vholder *h = arg;
	unsigned long i;

	kc_set_cpu(h->cpu);
	kc_cpu_hold();
	h->seen_holder = kc_cpu_holder(h->cpu);
	atomic_store(&h->started, true);
	/* Until the main thread is done (bounded: at most max adds). */
	for (i = 0; i < h->max && !atomic_load_explicit(h->stop, memory_order_relaxed); i++) {
		vholder_add(h);
		h->adds++;
		if (h->other != h->cpu && !(i & 1023)) {
			/* A migration there and back: one add as the other CPU. */
			kc_set_cpu(h->other);
			vholder_add(h);
			kc_set_cpu(h->cpu);
			h->hops++;
		}
		if (!(i & 63))
			kc_cpu_preempt();
	}
	h->last_cpu = kc_get_cpu();
	kc_cpu_unhold();
	return NULL;
}

static void kcompat_vcpu_handoff(struct kt *t)
{
	_Atomic bool stop = false;
	struct vholder h[2] = {
		{ .cpu = 2, .other = 2, .max = 100000000, .stop = &stop },
		{ .cpu = 3, .other = 2, .max = 100000000, .stop = &stop },
	};
	unsigned long *p, i, mine = 300;
	pthread_t tid[2];
	bool owned = kc_pcpu_ops == KC_PCPU_OWNED;

	KT_ASSERT(t, kc_set_nr_cpu_ids(8) == 0, "");
	p = alloc_percpu(unsigned long);
	KT_ASSERT(t, p != NULL, "alloc");
	for (i = 0; i < 2; i++) {
		h[i].p = p;
		KT_ASSERT(t, pthread_create(&tid[i], NULL, vholder_fn, &h[i]) == 0, "create");
	}
	while (!atomic_load(&h[0].started) || !atomic_load(&h[1].started))
		sched_yield();
	/* The main thread holds nothing: each add takes CPU 2 from its holder. */
	kc_set_cpu(2);
	for (i = 0; i < mine; i++)
		this_cpu_add_return(*p, 1);
	kc_set_cpu(0);
	atomic_store(&stop, true);
	for (i = 0; i < 2; i++)
		pthread_join(tid[i], NULL);
	KT_EXPECT_EQ(t, *per_cpu_ptr(p, 2), h[0].as[2] + h[1].as[2] + mine);
	KT_EXPECT_EQ(t, *per_cpu_ptr(p, 3), h[0].as[3] + h[1].as[3]);
	KT_EXPECT_EQ(t, h[0].as[2] + h[0].as[3] + h[1].as[2] + h[1].as[3],
		     h[0].adds + h[1].adds + h[1].hops);
	KT_EXPECT(t, (h[0].seen_holder != 0) == owned, "%s model: holder of CPU 2 was %u",
		  kc_pcpu_ops_name(kc_pcpu_ops), h[0].seen_holder);
	KT_EXPECT(t, !kc_cpu_holder(2) && !kc_cpu_holder(3), "vCPUs given back: %u %u",
		  kc_cpu_holder(2), kc_cpu_holder(3));
	kt_diag(t, "%s model: %lu + %lu adds by the holders, %lu migrations",
		kc_pcpu_ops_name(kc_pcpu_ops), h[0].adds, h[1].adds, h[1].hops);
	free_percpu(p);
}

/*
 * A swap (owned model): a holder that migrates offers the vCPU it left,
 * and the target's holder moves there at its next preemption point
 * instead of waiting for its vCPU back. Atomic model: the migration only
 * changes the migrating thread's CPU number.
 */
static void *vswap_migrate(void *arg)
{
	struct vholder *h = arg;

	kc_set_cpu(h->cpu);
	kc_cpu_hold();
	while (!atomic_load(&h->holder->started))
		sched_yield();
	kc_set_cpu(h->other);		/* waits for the holder's next add */
	vholder_add(h);
	h->last_cpu = kc_get_cpu();
	atomic_store(h->stop, true);
	kc_cpu_unhold();
	return NULL;
}

static void kcompat_vcpu_swap(struct kt *t)
{
	_Atomic bool stop = false;
	struct vholder h[2] = {
		{ .cpu = 4, .other = 4, .max = 100000000, .stop = &stop },
		{ .cpu = 5, .other = 4, .stop = &stop },
	};
	bool owned = kc_pcpu_ops == KC_PCPU_OWNED;
	pthread_t tid[2];
	unsigned long *p;
	unsigned int i;

	KT_ASSERT(t, kc_set_nr_cpu_ids(8) == 0, "");
	p = alloc_percpu(unsigned long);
	KT_ASSERT(t, p != NULL, "alloc");
	h[0].p = h[1].p = p;
	h[1].holder = &h[0];
	KT_ASSERT(t, pthread_create(&tid[0], NULL, vholder_fn, &h[0]) == 0, "create");
	KT_ASSERT(t, pthread_create(&tid[1], NULL, vswap_migrate, &h[1]) == 0, "create");
	for (i = 0; i < 2; i++)
		pthread_join(tid[i], NULL);
	KT_EXPECT_EQ(t, h[1].last_cpu, 4);
	KT_EXPECT_EQ(t, h[1].as[4], 1);
	/* Owned: CPU 4's holder was moved to 5 and made its later adds there. */
	KT_EXPECT_EQ(t, h[0].last_cpu, owned ? 5 : 4);
	KT_EXPECT(t, h[0].adds < h[0].max, "the holder stopped when the migration was done");
	KT_EXPECT_EQ(t, *per_cpu_ptr(p, 4), h[0].as[4] + 1);
	KT_EXPECT_EQ(t, *per_cpu_ptr(p, 5), h[0].as[5]);
	KT_EXPECT_EQ(t, h[0].as[4] + h[0].as[5], h[0].adds);
	KT_EXPECT(t, !kc_cpu_holder(4) && !kc_cpu_holder(5), "vCPUs given back: %u %u",
		  kc_cpu_holder(4), kc_cpu_holder(5));
	kt_diag(t, "%s model: the holder made %lu adds as CPU 4, %lu as CPU 5",
		kc_pcpu_ops_name(kc_pcpu_ops), h[0].as[4], h[0].as[5]);
	free_percpu(p);
}

/*
 * The holder's per-CPU add is one instruction: a signal arriving at its
 * store (a write fault) runs a nested add on the same CPU, and the
 * interrupted add, re-executed, re-reads the word and loses nothing.
 */
static struct {
	void *page;
	size_t len;
	unsigned long *p;
	volatile sig_atomic_t hits;
} vsig;

static void vsig_fault(int sig, siginfo_t *si, void *uc)
{
	if ((char *)si->si_addr < (char *)vsig.page ||
	    (char *)si->si_addr >= (char *)vsig.page + vsig.len)
		abort();
	mprotect(vsig.page, vsig.len, PROT_READ | PROT_WRITE);
	this_cpu_add_return(*vsig.p, 100);
	vsig.hits++;
}

static void kcompat_vcpu_signal_atomic(struct kt *t)
{
	struct sigaction sa = { .sa_sigaction = vsig_fault, .sa_flags = SA_SIGINFO }, old;
	unsigned int r;

	KT_ASSERT(t, kc_set_nr_cpu_ids(4) == 0, "");
	vsig.p = alloc_percpu(unsigned long);
	KT_ASSERT(t, vsig.p != NULL, "alloc");
	vsig.len = sysconf(_SC_PAGESIZE);
	vsig.page = (void *)((uintptr_t)per_cpu_ptr(vsig.p, 1) & ~(vsig.len - 1));
	vsig.hits = 0;
	sigemptyset(&sa.sa_mask);
	KT_ASSERT(t, sigaction(SIGSEGV, &sa, &old) == 0, "sigaction");
	kc_set_cpu(1);
	kc_cpu_hold();
	for (r = 0; r < 20; r++) {
		if (mprotect(vsig.page, vsig.len, PROT_READ))
			break;
		this_cpu_add_return(*vsig.p, 1);
	}
	kc_cpu_unhold();
	kc_set_cpu(0);
	mprotect(vsig.page, vsig.len, PROT_READ | PROT_WRITE);
	sigaction(SIGSEGV, &old, NULL);
	KT_EXPECT_EQ(t, vsig.hits, 20);
	KT_EXPECT_EQ(t, *per_cpu_ptr(vsig.p, 1), 20 * 101);
	free_percpu(vsig.p);
}

static void kcompat_warn_recording(struct kt *t)
{
	struct kc_warn_info wi;
	unsigned long w0;
	int i, ret, fired = 0;

	kt_expect_warns(t);
	kc_warn_reset();
	KT_EXPECT_EQ(t, kc_warn_count(), 0);
	KT_EXPECT(t, WARN_ON(0) == 0, "WARN_ON(0)");
	KT_EXPECT_EQ(t, kc_warn_count(), 0);
	ret = WARN_ON(1 + 1 == 2);
	KT_EXPECT(t, ret == 1, "WARN_ON(true) = %d", ret);
	KT_EXPECT_EQ(t, kc_warn_count(), 1);
	kc_warn_get(&wi);
	KT_EXPECT(t, strstr(wi.first, "test_kcompat.c:") && strstr(wi.first, "1 + 1 == 2"),
		  "first: %s", wi.first);
	w0 = kc_warn_count();
	for (i = 0; i < 5; i++)
		fired += WARN_ON_ONCE(i >= 0);
	KT_EXPECT(t, fired == 5, "WARN_ON_ONCE still returns its condition (%d)", fired);
	KT_EXPECT_EQ(t, kc_warn_count(), w0 + 1);
	for (i = 0; i < 3; i++)
		WARN_ON(i < 10);
	KT_EXPECT_EQ(t, kc_warn_count(), w0 + 4);
	kc_warn_get(&wi);
	KT_EXPECT(t, strstr(wi.first, "1 + 1 == 2") != NULL, "first kept: %s", wi.first);
}

/* The vCPU-wait line: one per interval, the next one says how many were held back. */
static void kcompat_ratelimit(struct kt *t)
{
	struct kc_ratelimit rl = { 0 };
	const long long s = 1000000000LL;
	int i;

	KT_EXPECT_EQ(t, kc_ratelimit(&rl, 10 * s, s), 0);
	for (i = 0; i < 3; i++)
		KT_EXPECT_EQ(t, kc_ratelimit(&rl, 10 * s + s / 2, s), -1);
	KT_EXPECT_EQ(t, kc_ratelimit(&rl, 11 * s, s), 3);
	KT_EXPECT_EQ(t, kc_ratelimit(&rl, 11 * s + 1, s), -1);
	KT_EXPECT_EQ(t, kc_ratelimit(&rl, 20 * s, s), 1);
	KT_EXPECT_EQ(t, kc_ratelimit(&rl, 30 * s, s), 0);
}

/* RCU: a grace period and a call_rcu callback wait for a reader's section. */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int state;		/* 1: reader inside, 2: writer waiting, 3: reader left */
	_Atomic bool reader_left;
	_Atomic bool left_before_gp, left_before_cb, cb_ran;
	int *gp;
} rs = { .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER };

static void rs_wait(int state)
{
	pthread_mutex_lock(&rs.lock);
	while (rs.state < state)
		pthread_cond_wait(&rs.cond, &rs.lock);
	pthread_mutex_unlock(&rs.lock);
}

static void rs_set(int state)
{
	pthread_mutex_lock(&rs.lock);
	rs.state = state;
	pthread_cond_broadcast(&rs.cond);
	pthread_mutex_unlock(&rs.lock);
}

static void *rcu_reader(void *arg)
{
	int *p;

	kc_rcu_register_thread();
	rcu_read_lock();
	p = rcu_dereference(rs.gp);
	rs_set(1);
	rs_wait(2);
	/* Give a broken grace period time to end early (power, not correctness). */
	usleep(20000);
	*(int *)arg = *p;
	atomic_store(&rs.reader_left, true);
	rcu_read_unlock();
	kc_rcu_unregister_thread();
	return NULL;
}

static void rcu_cb(struct rcu_head *head)
{
	atomic_store(&rs.left_before_cb, atomic_load(&rs.reader_left));
	atomic_store(&rs.cb_ran, true);
}

static void kcompat_rcu_ordering(struct kt *t)
{
	static int value = 42, other = 7;
	static struct rcu_head head;
	pthread_t tid;
	int seen = 0;

	kc_rcu_register_thread();
	rcu_assign_pointer(rs.gp, &value);
	KT_ASSERT(t, pthread_create(&tid, NULL, rcu_reader, &seen) == 0, "create");
	rs_wait(1);
	call_rcu(&head, rcu_cb);
	rcu_assign_pointer(rs.gp, &other);
	rs_set(2);
	synchronize_rcu();
	atomic_store(&rs.left_before_gp, atomic_load(&rs.reader_left));
	pthread_join(tid, NULL);
	kc_rcu_barrier();
	KT_EXPECT(t, atomic_load(&rs.left_before_gp), "synchronize_rcu returned inside a reader");
	KT_EXPECT(t, atomic_load(&rs.cb_ran), "call_rcu callback did not run");
	KT_EXPECT(t, atomic_load(&rs.left_before_cb), "callback ran inside a reader");
	KT_EXPECT_EQ(t, seen, 42);
	rcu_read_lock();
	KT_EXPECT(t, rcu_dereference(rs.gp) == &other, "published pointer");
	KT_EXPECT(t, rcu_read_lock_held(), "depth");
	rcu_read_unlock();
	KT_EXPECT(t, !rcu_read_lock_held(), "depth after unlock");
	kc_rcu_unregister_thread();
}

/*
 * Other spellings a kernel file may use (the KERNEL_SRC seam): every
 * add-and-return form reaches the fault-injection hook; cmpxchg forms
 * return the old value and store only on a match; static keys switch.
 */
static DEFINE_STATIC_KEY_FALSE(kc_test_key);

static void kcompat_kernel_spellings(struct kt *t)
{
	unsigned long *p, w = 5, old;
	atomic_long_t a = ATOMIC_LONG_INIT(10);
	long o = 3;
	size_t sz;

	KT_ASSERT(t, kc_set_nr_cpu_ids(4) == 0, "");
	p = alloc_percpu(unsigned long);
	KT_ASSERT(t, p != NULL, "alloc");
	kc_set_cpu(2);
	hook_calls = 0;
	kc_set_after_pcpu_add_hook(count_hook);
	KT_EXPECT_EQ(t, __this_cpu_add_return(*p, 4), 4);
	KT_EXPECT_EQ(t, raw_cpu_add_return(*p, 4), 8);
	KT_EXPECT_EQ(t, this_cpu_sub_return(*p, 1), 7);
	KT_EXPECT_EQ(t, this_cpu_inc_return(*p), 8);
	KT_EXPECT_EQ(t, this_cpu_dec_return(*p), 7);
	kc_set_after_pcpu_add_hook(NULL);
	KT_EXPECT_EQ(t, hook_calls, 5);
	__this_cpu_add(*p, 3);
	KT_EXPECT_EQ(t, __this_cpu_read(*p), 10);
	KT_EXPECT_EQ(t, this_cpu_cmpxchg(*p, 9, 1), 10);
	KT_EXPECT_EQ(t, this_cpu_cmpxchg(*p, 10, 1), 10);
	KT_EXPECT_EQ(t, *per_cpu_ptr(p, 2), 1);
	KT_EXPECT_EQ(t, *per_cpu_ptr(p, 1) + *per_cpu_ptr(p, 3), 0);
	kc_set_cpu(0);
	free_percpu(p);

	/* percpu_counter's form: an s64 expected value against an s32 slot. */
	{
		s32 __percpu *q = alloc_percpu(s32);
		s64 exp = 7;

		KT_ASSERT(t, q != NULL, "alloc");
		kc_set_cpu(1);
		this_cpu_write(*q, 5);
		KT_EXPECT(t, !this_cpu_try_cmpxchg(*q, &exp, exp + 1) && exp == 5,
			  "try_cmpxchg miss: expected %lld", (long long)exp);
		KT_EXPECT(t, this_cpu_try_cmpxchg(*q, &exp, exp - 9) && exp == 5,
			  "try_cmpxchg hit: expected %lld", (long long)exp);
		KT_EXPECT_EQ(t, *per_cpu_ptr(q, 1), -4);
		KT_EXPECT_EQ(t, *per_cpu_ptr(q, 0) + *per_cpu_ptr(q, 2), 0);
		kc_set_cpu(0);
		free_percpu(q);
	}

	KT_EXPECT_EQ(t, cmpxchg(&w, 4, 9), 5);
	KT_EXPECT_EQ(t, w, 5);
	KT_EXPECT_EQ(t, cmpxchg(&w, 5, 9), 5);
	KT_EXPECT_EQ(t, w, 9);
	old = 1;
	KT_EXPECT(t, !try_cmpxchg(&w, &old, 2) && old == 9, "try_cmpxchg miss: old %lu", old);
	KT_EXPECT(t, try_cmpxchg(&w, &old, 2) && w == 2, "try_cmpxchg hit: %lu", w);
	KT_EXPECT_EQ(t, xchg(&w, 7), 2);
	KT_EXPECT(t, !atomic_long_try_cmpxchg(&a, &o, 20) && o == 10, "miss: old %ld", o);
	KT_EXPECT(t, atomic_long_try_cmpxchg_relaxed(&a, &o, 20) &&
		  atomic_long_read_acquire(&a) == 20, "hit");
	KT_EXPECT_EQ(t, atomic_long_fetch_add(5, &a), 20);
	KT_EXPECT_EQ(t, atomic_long_sub_return_relaxed(5, &a), 20);
	KT_EXPECT_EQ(t, atomic_long_inc_return_relaxed(&a), 21);
	KT_EXPECT_EQ(t, atomic_long_cmpxchg_relaxed(&a, 21, 4), 21);
	KT_EXPECT_EQ(t, atomic_long_xchg_relaxed(&a, 6), 4);
	atomic_long_set_release(&a, 8);
	KT_EXPECT_EQ(t, atomic_long_read(&a), 8);

	KT_EXPECT(t, !static_branch_unlikely(&kc_test_key), "key starts false");
	static_branch_enable(&kc_test_key);
	KT_EXPECT(t, static_branch_likely(&kc_test_key), "key enabled");
	static_branch_disable(&kc_test_key);
	KT_EXPECT(t, !static_key_enabled(&kc_test_key), "key disabled");

	KT_EXPECT(t, check_add_overflow(LONG_MAX, 1L, &o), "overflow seen");
	KT_EXPECT(t, !check_add_overflow(1L, 2L, &o) && o == 3, "no overflow");
	sz = size_mul((size_t)1 << 63, (size_t)4);
	KT_EXPECT(t, sz == SIZE_MAX, "size_mul saturates: %zu", sz);
	KT_EXPECT(t, GENMASK(7, 4) == 0xf0 && GENMASK(63, 0) == ~0UL, "GENMASK");
	KT_EXPECT(t, ALIGN(65UL, 64) == 128 && ALIGN(64UL, 64) == 64, "ALIGN");
}

/* kmalloc & co. give cache-line aligned memory: hpcc items live in it. */
static void kcompat_kmalloc_aligned(struct kt *t)
{
	static const size_t sizes[] = { 1, 16, 48, 64, 100, 2368, 9472, 9472 + 16, 65536 };
	unsigned int i, k;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		unsigned char *p[4];

		for (k = 0; k < 4; k++) {
			p[k] = k & 1 ? kzalloc(sizes[i], GFP_KERNEL) :
				       kcalloc(1, sizes[i], GFP_KERNEL);
			KT_ASSERT(t, p[k], "size %zu", sizes[i]);
			KT_EXPECT(t, !((uintptr_t)p[k] & (SMP_CACHE_BYTES - 1)),
				  "size %zu at %p", sizes[i], (void *)p[k]);
			KT_EXPECT(t, !p[k][0] && !p[k][sizes[i] - 1], "zeroed");
		}
		for (k = 0; k < 4; k++)
			kfree(p[k]);
	}
	KT_EXPECT(t, kcalloc(SIZE_MAX / 2, 4, GFP_KERNEL) == NULL, "kcalloc overflow");
	KT_EXPECT(t, kmalloc_array(SIZE_MAX / 2, 4, GFP_KERNEL) == NULL, "kmalloc_array overflow");
}

/*
 * What the kernel's include chains bring. <linux/percpu.h>
 * alone gives ____cacheline_aligned_in_smp and EXPORT_SYMBOL_GPL (through
 * cache.h and linkage.h); cleanup.h's guards run their unlock at scope
 * exit; module_init() registers an initcall that runs once.
 */
struct kc_lock_probe {
	int locked, unlocked;
};
DEFINE_LOCK_GUARD_1(kc_probe, struct kc_lock_probe, _T->lock->locked++, _T->lock->unlocked++)
DEFINE_FREE(kc_probe_free, int *, if (_T) (*_T)++)

static int kc_initcall_runs;

static int __init kc_probe_initcall(void)
{
	return ++kc_initcall_runs == 1 ? 0 : -1;
}
module_init(kc_probe_initcall);

struct kc_chain_probe {
	long v;
} ____cacheline_aligned_in_smp;
EXPORT_SYMBOL_GPL(kc_initcall_runs);

static void kcompat_include_chains(struct kt *t)
{
	struct kc_lock_probe l = { 0 };
	int freed = 0;

	KT_EXPECT(t, __alignof__(struct kc_chain_probe) == SMP_CACHE_BYTES, "%zu",
		  __alignof__(struct kc_chain_probe));
	{
		guard(kc_probe)(&l);
		KT_EXPECT(t, l.locked == 1 && l.unlocked == 0, "in scope: %d/%d",
			  l.locked, l.unlocked);
	}
	KT_EXPECT(t, l.unlocked == 1, "after scope: %d", l.unlocked);
	scoped_guard(kc_probe, &l)
		KT_EXPECT(t, l.locked == 2 && l.unlocked == 1, "scoped: %d/%d",
			  l.locked, l.unlocked);
	KT_EXPECT(t, l.unlocked == 2, "after scoped_guard: %d", l.unlocked);
	{
		int *p __free(kc_probe_free) = &freed;

		KT_EXPECT(t, !freed && p == &freed, "freed early");
	}
	KT_EXPECT(t, freed == 1, "__free ran %d times", freed);
	{
		guard(migrate)();
		guard(preempt)();
	}
	KT_EXPECT(t, kc_do_initcalls() == 0 && kc_do_initcalls() == 0, "initcalls");
	KT_EXPECT(t, kc_initcall_runs == 1, "module_init ran %d times", kc_initcall_runs);
}

static const struct kt_case cases[] = {
	KT_CASE(kcompat_get_count_order),
	KT_CASE(kcompat_include_chains),
	KT_CASE(kcompat_abs_long),
	KT_CASE(kcompat_percpu_alloc),
	KT_CASE(kcompat_percpu_reuse_across_cpu_counts),
	KT_CASE(kcompat_this_cpu_add_return),
	KT_CASE(kcompat_this_cpu_shared),
	KT_CASE(kcompat_vcpu_handoff),
	KT_CASE(kcompat_vcpu_swap),
	KT_CASE(kcompat_vcpu_signal_atomic),
	KT_CASE(kcompat_warn_recording),
	KT_CASE(kcompat_ratelimit),
	KT_CASE(kcompat_rcu_ordering),
	KT_CASE(kcompat_kernel_spellings),
	KT_CASE(kcompat_kmalloc_aligned),
};

KT_MAIN("kcompat", cases)
