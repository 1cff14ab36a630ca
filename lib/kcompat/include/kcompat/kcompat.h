/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Suite-facing controls of the userspace kernel environment: virtual CPUs,
 * recorded warnings, the fault-injection hook and RCU thread registration.
 * Kernel code never includes this directly; the linux/ shims do.
 */
#ifndef _KCOMPAT_KCOMPAT_H
#define _KCOMPAT_KCOMPAT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#ifndef NR_CPUS
#define NR_CPUS 8192
#endif

/* Bytes of per-CPU memory each virtual CPU owns (fixed stride between areas). */
#ifndef KC_PERCPU_UNIT
#define KC_PERCPU_UNIT (1UL << 20)
#endif

#if defined(__SANITIZE_THREAD__)
#define KC_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define KC_TSAN 1
#endif
#endif

#ifdef KC_TSAN
#include <sanitizer/tsan_interface.h>
#define kc_tsan_release(addr)	__tsan_release((void *)(addr))
#define kc_tsan_acquire(addr)	__tsan_acquire((void *)(addr))
#else
#define kc_tsan_release(addr)	do { (void)(addr); } while (0)
#define kc_tsan_acquire(addr)	do { (void)(addr); } while (0)
#endif

/*
 * Virtual CPUs (lib/kcompat/cpu.c has the whole story). nr_cpu_ids is set
 * at run time and each thread has a CPU number, kc_cpu. How this_cpu_*()
 * operations run is the per-CPU model, chosen once per process before
 * other threads exist (--pcpu-ops, or KC_PCPU_OPS in the environment):
 *
 *  owned   (default) a virtual CPU is run by at most one thread at a time,
 *          as a real CPU runs one task. A thread that holds its vCPU
 *          (kc_cpu_hold(): the stress engine's workers, the benchmarks)
 *          does the kernel's x86 per-CPU operation: one instruction without
 *          LOCK, atomic w.r.t. signals on that thread, not w.r.t. other
 *          threads. Any other thread (unit tests, checkers, the
 *          controller) takes the vCPU around each operation, so a test
 *          acts as any CPU with kc_set_cpu() alone. kc_set_cpu() by a
 *          holding thread is a migration: it gives its vCPU back and waits
 *          for the new one, which its holder lends at its next preemption
 *          point (after a per-CPU add, kc_cpu_preempt(), kc_cpu_unhold()).
 *          When the migrating thread left its vCPU free, the holder moves
 *          there at that point instead (a swap, as the kernel's load
 *          balancer would move the preempted task to the idle CPU): a
 *          holder's CPU may change at any of its preemption points.
 *  atomic  every operation is a LOCK-prefixed atomic read-modify-write and
 *          any number of threads may act as one vCPU at once.
 */
extern unsigned int nr_cpu_ids;
extern __thread unsigned int kc_cpu;

enum kc_pcpu_ops { KC_PCPU_OWNED, KC_PCPU_ATOMIC };
extern enum kc_pcpu_ops kc_pcpu_ops;
/* 0, or -1 for a name that is neither "owned" nor "atomic". */
int kc_pcpu_ops_parse(const char *name, enum kc_pcpu_ops *ops);
const char *kc_pcpu_ops_name(enum kc_pcpu_ops ops);
/* Before any other thread exists (the calling thread re-reads it). */
void kc_pcpu_set_ops(enum kc_pcpu_ops ops);

/* One virtual CPU's ownership state (one cache line each). */
struct kc_vcpu {
	_Atomic unsigned int attn;	/* KC_ATTN_*: the holder must look */
	_Atomic unsigned int owner;	/* 0, a holder's tid, or KC_LENT | lender */
	_Atomic unsigned int waiters;	/* threads waiting to run it */
	_Atomic unsigned int sleepers;	/* those of them asleep on owner */
	_Atomic long long lend_at;	/* the holder's quantum ends (ns) */
	_Atomic unsigned int swap_to;	/* 0, or 1 + the vCPU a migrating waiter left */
	unsigned int tsan_shadow;	/* TSan: a plain access by each user */
} __attribute__((aligned(64)));
#define KC_ATTN_HOOK	1U		/* the after-add hook is installed */
#define KC_ATTN_WANT	2U		/* a thread waits for this vCPU */
#define KC_LENT		0x80000000U	/* handed off: anyone but the lender */
extern struct kc_vcpu kc_vcpus[NR_CPUS];

/*
 * The vCPU the calling thread holds in the owned model (its per-CPU
 * operations take the CPU-local form without further checks), else
 * KC_PCPU_NOT_HELD.
 */
#define KC_PCPU_NOT_HELD	(~0U)
extern __thread unsigned int kc_pcpu_fast;
extern __thread bool kc_cpu_held;
extern __thread unsigned int kc_held_cpu;	/* while kc_cpu_held: == kc_cpu */

/*
 * Set the number of possible CPUs. Call before subsystem init and before
 * any per-CPU allocation made under the new value. Values above NR_CPUS
 * are accepted (shape-only use, e.g. the tree-shape table test) but
 * per-CPU allocation then fails with NULL. Every possible CPU is then
 * online (<linux/cpumask.h>: kc_cpu_down(), kc_cpu_up()).
 */
int kc_set_nr_cpu_ids(unsigned int n);

void kc_cpu_migrate(unsigned int cpu);
/* Become CPU @cpu: a migration when the thread holds its vCPU. */
static inline void kc_set_cpu(unsigned int cpu)
{
	if (__builtin_expect(kc_cpu_held, 0)) {
		if (cpu != kc_cpu)
			kc_cpu_migrate(cpu);
		return;
	}
	__atomic_store_n(&kc_cpu, cpu, __ATOMIC_RELAXED);
}
static inline unsigned int kc_get_cpu(void)
{
	return __atomic_load_n(&kc_cpu, __ATOMIC_RELAXED);
}
/*
 * Hold the current vCPU until kc_cpu_unhold() (or thread exit): per-CPU
 * operations then run without LOCK. A holder must reach a preemption
 * point now and then and must not block on anything a thread waiting for
 * a vCPU may hold: unhold before sleeping, parking or waiting for others.
 * Both do nothing in the atomic model.
 */
void kc_cpu_hold(void);
void kc_cpu_unhold(void);
void kc_cpu_lend(void);
/* A preemption point of a holder: lend the vCPU if a thread waits for it. */
static inline void kc_cpu_preempt(void)
{
	if (__builtin_expect(kc_cpu_held, 1) &&
	    __builtin_expect(atomic_load_explicit(&kc_vcpus[kc_held_cpu].attn, memory_order_relaxed) &
			     KC_ATTN_WANT, 0))
		kc_cpu_lend();
}
/* The tid of the thread running @cpu now (0: none), for diagnostics. */
unsigned int kc_cpu_holder(unsigned int cpu);

/* Slow paths of this_cpu_*() (linux/percpu.h). */
/*
 * How long the calling thread now spins for a held vCPU before it sleeps
 * (ns): halved when its last wait's first spin ran out, doubled back when
 * a spin took the vCPU (lib/kcompat/cpu.c).
 */
long long kc_cpu_spin_ns(void);
bool kc_pcpu_op_begin(unsigned int cpu);
void kc_pcpu_op_end(unsigned int cpu);
void kc_pcpu_attention(void) __attribute__((cold, noinline));

/* ThreadSanitizer: every user of a vCPU makes a plain access, so that two
 * threads running one vCPU without a hand-off between them are a race. */
#ifdef KC_TSAN
#define kc_tsan_vcpu_use(cpu)	((void)(kc_vcpus[cpu].tsan_shadow++))
#else
#define kc_tsan_vcpu_use(cpu)	((void)(cpu))
#endif

/*
 * A line many threads may print at once (a vCPU wait on an overloaded
 * host): at most one per @interval_ns. -1: stay quiet (counted); else
 * print, and the count is how many were held back since the last line.
 */
struct kc_ratelimit {
	_Atomic long long next_ns;
	atomic_ulong held;
};
long kc_ratelimit(struct kc_ratelimit *rl, long long now_ns, long long interval_ns);

/* Warnings recorded by WARN_ON & co. */
struct kc_warn_info {
	unsigned long count;
	char first[256];	/* "file:line: condition" of the first one */
	unsigned long bad_frees;	/* of count, kc_warn_bad_free()'s */
	char first_bad_free[256];
};
void kc_warn(const char *file, int line, const char *cond, bool once);
/*
 * A free of memory that is not a live allocation (an invalid or double
 * free_percpu()/kfree()): a WARN, counted apart because it is memory
 * corruption in the kernel, a crash class finding, not a wrong answer.
 */
void kc_warn_bad_free(const char *file, int line, const char *what);
unsigned long kc_warn_bad_frees(void);
unsigned long kc_warn_count(void);
void kc_warn_get(struct kc_warn_info *info);
void kc_warn_reset(void);
/* Quiet: record only (tests that provoke warnings on purpose). */
void kc_warn_set_quiet(bool quiet);
/* Fatal: abort() on the first warning (debugging). */
void kc_warn_set_fatal(bool fatal);

/*
 * Fault-injection hook, called right after every this_cpu_*_return() add,
 * i.e. between hpcc's level-0 add and its carry propagation: a
 * preemption point. It may sleep, yield or migrate (kc_set_cpu()).
 * Install it (NULL: none) before the threads that use it start.
 */
typedef void (*kc_hook_fn)(void);
void kc_set_after_pcpu_add_hook(kc_hook_fn fn);
kc_hook_fn kc_get_after_pcpu_add_hook(void);

/*
 * RCU flavor, chosen once per process before the first RCU call:
 * kc_rcu_set_flavor(), else $KC_RCU_FLAVOR, else memb (lib/kcompat/rcu.c).
 * kc_rcu_set_flavor() returns -1 for an unknown name or when another
 * flavor is already in use.
 */
#define KC_RCU_FLAVOR_ENV	"KC_RCU_FLAVOR"
#define KC_RCU_FLAVORS		"memb, qsbr, bp, ck-epoch"
bool kc_rcu_flavor_valid(const char *name);
int kc_rcu_set_flavor(const char *name);
const char *kc_rcu_flavor(void);

/*
 * Threads are registered at their first RCU call and unregistered when
 * they exit; registering early (and unregistering) is still allowed.
 */
void kc_rcu_register_thread(void);
void kc_rcu_unregister_thread(void);
/* Wait for all call_rcu() callbacks queued so far, by any thread. */
void kc_rcu_barrier(void);
/*
 * rcu_barrier() requests the flavor's callback thread sees so far and
 * those it has completed, for tests that order a barrier against that
 * thread; -1: the flavor cannot say (liburcu's flavors).
 */
int kc_rcu_barriers(unsigned long *asked, unsigned long *done);
/*
 * Quiescent-state reporting, for qsbr (no-ops under the other flavors).
 * A thread that calls kc_rcu_thread_online() reports its own quiescent
 * states: kc_rcu_quiescent_state() between read-side sections, and
 * kc_rcu_thread_offline() before it blocks or sleeps, or grace periods
 * wait for it. Other threads are online only inside their sections.
 * Never inside a read-side section (WARN).
 */
void kc_rcu_quiescent_state(void);
void kc_rcu_thread_online(void);
void kc_rcu_thread_offline(void);

/*
 * Systematic exploration (docs/explore.md): in a -DKC_EXPLORE build every
 * shared access of the shims (atomics, this_cpu_*(), READ_ONCE/WRITE_ONCE,
 * barriers, RCU, spin locks) first calls kc_xp_hook, which may switch the
 * running fiber. Other builds compile the points away.
 */
enum kc_xp_kind {
	KC_XP_START,		/* a fiber not yet started: no access */
	KC_XP_READ,
	KC_XP_WRITE,
	KC_XP_RMW,
	KC_XP_FENCE,		/* sequentially consistent model: no access */
	KC_XP_RCU_LOCK,
	KC_XP_RCU_UNLOCK,
	KC_XP_GP,		/* a grace period starts */
	KC_XP_GP_WAIT,		/* ... and ends: enabled once its readers left */
	KC_XP_LOCK,		/* enabled while the lock word is 0 */
	KC_XP_UNLOCK,
};
#ifdef KC_EXPLORE
typedef void (*kc_xp_fn)(const void *addr, enum kc_xp_kind kind);
extern kc_xp_fn kc_xp_hook;
/* The running fiber's RCU read-side nesting (the explorer points it per fiber). */
extern int *kc_xp_rcu_nest;
#define kc_xp(addr, kind) do {						\
	if (__builtin_expect(kc_xp_hook != NULL, 0))			\
		kc_xp_hook((const void *)(addr), (kind));		\
} while (0)

/*
 * What a load, store or fence orders, for the explorer's weak memory
 * models (docs/explore.md#memory-models). LOCAL: the owner's own load
 * (rcu_dereference_protected()), no scheduling point.
 */
enum kc_xp_order {
	KC_XP_MO_PLAIN,
	KC_XP_MO_ACQUIRE,
	KC_XP_MO_RELEASE,
	KC_XP_MO_MB,
	KC_XP_MO_WMB,
	KC_XP_MO_RMB,
	KC_XP_MO_LOCAL,
};
typedef void (*kc_xp_mem_fn)(const void *addr, unsigned int size, enum kc_xp_kind kind,
			     enum kc_xp_order mo);
/* Set only while a memory model other than sc is explored. */
extern kc_xp_mem_fn kc_xp_mem_hook;
/* After the access: a store goes to the store buffer, a forwarded load's word is restored. */
extern void (*kc_xp_post_hook)(void);
#define kc_xp_mem(addr, size, kind, mo) do {				\
	if (__builtin_expect(kc_xp_hook != NULL, 0)) {			\
		if (kc_xp_mem_hook)					\
			kc_xp_mem_hook((const void *)(addr), (size), (kind), (mo)); \
		else if ((mo) != KC_XP_MO_LOCAL)			\
			kc_xp_hook((const void *)(addr), (kind));	\
	}								\
} while (0)
#define kc_xp_post() do {						\
	if (__builtin_expect(kc_xp_mem_hook != NULL, 0))		\
		kc_xp_post_hook();					\
} while (0)
#else
#define kc_xp(addr, kind) do { } while (0)
#define kc_xp_mem(addr, size, kind, mo) do { } while (0)
#define kc_xp_post() do { } while (0)
#endif

#endif /* _KCOMPAT_KCOMPAT_H */
