/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Suite-facing controls of the userspace kernel environment: virtual CPUs,
 * recorded warnings, the fault-injection hook and RCU thread registration.
 * Kernel code never includes this directly; the linux/ shims do.
 */
#ifndef _KCOMPAT_KCOMPAT_H
#define _KCOMPAT_KCOMPAT_H

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

/* Virtual CPUs. */
extern unsigned int nr_cpu_ids;
extern __thread unsigned int kc_cpu;

/*
 * Set the number of possible CPUs. Call before subsystem init and before
 * any per-CPU allocation made under the new value. Values above NR_CPUS
 * are accepted (shape-only use, e.g. the tree-shape table test) but
 * per-CPU allocation then fails with NULL.
 */
int kc_set_nr_cpu_ids(unsigned int n);
static inline void kc_set_cpu(unsigned int cpu)
{
	__atomic_store_n(&kc_cpu, cpu, __ATOMIC_RELAXED);
}
static inline unsigned int kc_get_cpu(void)
{
	return __atomic_load_n(&kc_cpu, __ATOMIC_RELAXED);
}

/* Warnings recorded by WARN_ON & co. */
struct kc_warn_info {
	unsigned long count;
	char first[256];	/* "file:line: condition" of the first one */
};
void kc_warn(const char *file, int line, const char *cond, bool once);
unsigned long kc_warn_count(void);
void kc_warn_get(struct kc_warn_info *info);
void kc_warn_reset(void);
/* Quiet: record only (tests that provoke warnings on purpose). */
void kc_warn_set_quiet(bool quiet);
/* Fatal: abort() on the first warning (debugging). */
void kc_warn_set_fatal(bool fatal);

/*
 * Fault-injection hook, called right after every this_cpu_*_return()
 * add, i.e. between hpcc's level-0 add and its carry propagation. It may
 * sleep, yield or change the thread's virtual CPU (simulated migration).
 * Set it before the threads that use it start.
 */
typedef void (*kc_hook_fn)(void);
extern kc_hook_fn kc_after_pcpu_add_hook;

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

#endif /* _KCOMPAT_KCOMPAT_H */
