// SPDX-License-Identifier: GPL-2.0
/*
 * Virtual CPUs and who runs them (the per-CPU models are described in
 * kcompat/kcompat.h).
 *
 * In the owned model each vCPU has an owner word: 0 (free), the tid of
 * the thread running it, or KC_LENT | tid of a thread that handed it to
 * its waiters and may not take it back before one of them had it. A
 * thread waiting for a vCPU first gives back the one it held (never hold
 * one and wait for another: no cycle of waits), counts itself in
 * `waiters` and raises KC_ATTN_WANT, which the holder sees at its next
 * preemption point (the after-add check of every this_cpu_*_return(),
 * kc_cpu_preempt(), kc_cpu_unhold()) once it has run the vCPU for a
 * quantum (KC_QUANTUM_NS: two threads that want one vCPU take turns in
 * slices, not at every operation). It spins briefly (Concurrency Kit's
 * ck_pr_stall(), the pause instruction), then sleeps on the owner word
 * (futex): 256 threads on 2 cores must not burn the holder's time slice.
 * A give wakes one sleeper, not the herd (vcpu_wake()).
 *
 * The owner word is a C11 atomic taken with acquire and given with
 * release, so ThreadSanitizer sees every hand-off; each user of a vCPU
 * also makes a plain access to the vCPU's tsan_shadow, so that two
 * threads running one vCPU with no hand-off between them are a reported
 * race (kc_tsan_vcpu_use()).
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <ck_pr.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <kcompat/kcompat.h>

unsigned int nr_cpu_ids = 1;
__thread unsigned int kc_cpu;
__thread unsigned int kc_pcpu_fast = KC_PCPU_NOT_HELD;
__thread bool kc_cpu_held;
__thread unsigned int kc_held_cpu;	/* valid while kc_cpu_held */
enum kc_pcpu_ops kc_pcpu_ops = KC_PCPU_OWNED;
struct kc_vcpu kc_vcpus[NR_CPUS];

static _Atomic(kc_hook_fn) kc_hook;
static __thread unsigned int kc_tid;	/* the owner token: gettid() */
static __thread unsigned int kc_nest;	/* per-operation holds re-entered by a signal */
static pthread_key_t kc_exit_key;
static pthread_once_t kc_exit_once = PTHREAD_ONCE_INIT;

/*
 * A holder lends its vCPU no sooner than KC_QUANTUM_NS after taking it.
 * A waiter spins up to KC_SPIN_NS at a time (a holder that runs reaches a
 * preemption point well within that; a sleep and a wake-up cost more);
 * every sleep re-checks after KC_WAIT_NS at most.
 *
 * A spin only pays when the holder is on a host core. With more vCPU
 * threads than cores (256 on 2) it mostly is not, and every spin runs
 * out: the thread's spin (kc_spin_ns) halves each time its first spin of
 * a wait ran out, down to KC_SPIN_MIN_NS (a few pauses: a holder that
 * runs is still caught), and doubles back, up to KC_SPIN_NS, each time a
 * spin took the vCPU. Only how long a waiter spins before it sleeps
 * changes: what it waits for, and who may take the vCPU, do not.
 * -DKC_HANDOFF_OLD keeps the fixed spin.
 */
#define KC_QUANTUM_NS	100000LL
#define KC_SPIN_NS	5000LL
#define KC_SPIN_MIN_NS	250LL
#define KC_WAIT_NS	50000000LL
#define KC_WAIT_WARN_S	30

static __thread unsigned int kc_lend_polls;
static __thread long long kc_spin_ns = KC_SPIN_NS;

/* The waiter's first spin took the vCPU (@won) or ran out. */
static void kc_spin_learn(bool won)
{
#ifndef KC_HANDOFF_OLD
	if (won)
		kc_spin_ns = kc_spin_ns * 2 < KC_SPIN_NS ? kc_spin_ns * 2 : KC_SPIN_NS;
	else
		kc_spin_ns = kc_spin_ns / 2 > KC_SPIN_MIN_NS ? kc_spin_ns / 2 : KC_SPIN_MIN_NS;
#endif
}

long long kc_cpu_spin_ns(void)
{
	return kc_spin_ns;
}

static long long kc_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void kc_percpu_note_nr_cpu_ids(unsigned int n);
void kc_cpumask_boot(unsigned int n);

/* A boot: every possible CPU online (lib/kcompat/hotplug.c). */
int kc_set_nr_cpu_ids(unsigned int n)
{
	if (n == 0)
		return -EINVAL;
	nr_cpu_ids = n;
	kc_percpu_note_nr_cpu_ids(n);
	kc_cpumask_boot(n);
	return 0;
}

int kc_pcpu_ops_parse(const char *name, enum kc_pcpu_ops *ops)
{
	if (!strcmp(name, "owned"))
		*ops = KC_PCPU_OWNED;
	else if (!strcmp(name, "atomic"))
		*ops = KC_PCPU_ATOMIC;
	else
		return -1;
	return 0;
}

const char *kc_pcpu_ops_name(enum kc_pcpu_ops ops)
{
	return ops == KC_PCPU_ATOMIC ? "atomic" : "owned";
}

void kc_pcpu_set_ops(enum kc_pcpu_ops ops)
{
	kc_pcpu_ops = ops;
}

/* KC_PCPU_OPS=owned|atomic picks the model of every program of the suite. */
static void __attribute__((constructor)) kc_pcpu_ops_from_env(void)
{
	const char *v = getenv("KC_PCPU_OPS");

	if (v && *v && kc_pcpu_ops_parse(v, &kc_pcpu_ops)) {
		fprintf(stderr, "KC_PCPU_OPS: '%s' is not owned or atomic\n", v);
		exit(2);
	}
}

static unsigned int kc_self(void)
{
	if (!kc_tid)
		kc_tid = (unsigned int)syscall(SYS_gettid);
	return kc_tid;
}

unsigned int kc_cpu_holder(unsigned int cpu)
{
	unsigned int o;

	if (cpu >= NR_CPUS)
		return 0;
	o = atomic_load_explicit(&kc_vcpus[cpu].owner, memory_order_relaxed);
	return o & KC_LENT ? 0 : o;
}

static void kc_bad_cpu(unsigned int cpu)
{
	fprintf(stderr, "kcompat: virtual CPU %u is beyond NR_CPUS (%u)\n", cpu, NR_CPUS);
	abort();
}

static bool vcpu_try(struct kc_vcpu *v, unsigned int me)
{
	unsigned int o = atomic_load_explicit(&v->owner, memory_order_relaxed);

	if (o && (!(o & KC_LENT) || (o & ~KC_LENT) == me))
		return false;
	return atomic_compare_exchange_strong_explicit(&v->owner, &o, me,
						       memory_order_acquire,
						       memory_order_relaxed);
}

/*
 * Sleepers on a vCPU's owner word wait with a futex bitset: a thread that
 * lent the vCPU and waits to take it back may not have it before another
 * waiter did, so a give wakes one of the others first (-DKC_HANDOFF_OLD:
 * every sleeper, each to find out again whether it may take the vCPU).
 */
#define KC_WAKE_WAITER	1U
#define KC_WAKE_LENDER	2U

static void vcpu_sleep(struct kc_vcpu *v, unsigned int seen, long long ns)
{
#ifdef KC_HANDOFF_OLD
	struct timespec ts = { ns / 1000000000L, ns % 1000000000L };
#else
	long long until = kc_now_ns() + ns;
	struct timespec ts = { until / 1000000000L, until % 1000000000L };
	unsigned int bits = (seen & KC_LENT) && (seen & ~KC_LENT) == kc_self() ?
			    KC_WAKE_LENDER : KC_WAKE_WAITER;
#endif

	/* seq_cst: either the giver sees us asleep, or the futex sees its store. */
	atomic_fetch_add_explicit(&v->sleepers, 1, memory_order_seq_cst);
#ifdef KC_HANDOFF_OLD
	syscall(SYS_futex, &v->owner, FUTEX_WAIT_PRIVATE, seen, &ts, NULL, 0);
#else
	/* The bitset wait's timeout is absolute, on CLOCK_MONOTONIC. */
	syscall(SYS_futex, &v->owner, FUTEX_WAIT_BITSET_PRIVATE, seen, &ts, NULL, bits);
#endif
	atomic_fetch_sub_explicit(&v->sleepers, 1, memory_order_relaxed);
}

/* Wake the next taker of @v: one sleeper, the lender only when no other sleeps. */
static void vcpu_wake(struct kc_vcpu *v)
{
#ifdef KC_HANDOFF_OLD
	syscall(SYS_futex, &v->owner, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
#else
	if (syscall(SYS_futex, &v->owner, FUTEX_WAKE_BITSET_PRIVATE, 1, NULL, NULL,
		    KC_WAKE_WAITER) <= 0)
		syscall(SYS_futex, &v->owner, FUTEX_WAKE_BITSET_PRIVATE, 1, NULL, NULL,
			KC_WAKE_LENDER);
#endif
}

/*
 * Take @cpu, waiting for its holder to lend it. The holder gives it back
 * when it migrates, parks or exits, and lends it at its first preemption
 * point after its quantum (lend_at). Spin a few microseconds at most
 * (most holds by a migrating thread are that short; kc_spin_ns), sleep
 * through the rest of the holder's quantum, spin again, then sleep until
 * a give wakes us.
 */
static struct kc_ratelimit wait_lines;

/* The clock is read every KC_SPIN_CHECK + 1 pauses of a spin. */
#ifdef KC_HANDOFF_OLD
#define KC_SPIN_CHECK	31U
#else
#define KC_SPIN_CHECK	3U
#endif

static void vcpu_take(unsigned int cpu)
{
	struct kc_vcpu *v;
	unsigned int me = kc_self(), o, n = 0, offer = 0;
	long long t0, now, spin_until, left;
	bool warned = false, slept_quantum = false, slept = false;

	if (cpu >= NR_CPUS)
		kc_bad_cpu(cpu);
	v = &kc_vcpus[cpu];
	if (vcpu_try(v, me))
		return;
	/* A migrating holder offers the vCPU it left to the one it waits for. */
	if (kc_cpu_held && kc_held_cpu != cpu)
		offer = kc_held_cpu + 1;
	if (offer)
		atomic_store_explicit(&v->swap_to, offer, memory_order_relaxed);
	/* seq_cst: either the giver sees us counted, or we see its release. */
	atomic_fetch_add_explicit(&v->waiters, 1, memory_order_seq_cst);
	atomic_fetch_or_explicit(&v->attn, KC_ATTN_WANT, memory_order_relaxed);
	t0 = now = kc_now_ns();
	spin_until = t0 + kc_spin_ns;
	while (!vcpu_try(v, me)) {
		o = atomic_load_explicit(&v->owner, memory_order_relaxed);
		if (!o || ((o & KC_LENT) && (o & ~KC_LENT) != me))
			continue;
		ck_pr_stall();
		if (++n & KC_SPIN_CHECK || (now = kc_now_ns()) < spin_until)
			continue;
		if (!slept)
			kc_spin_learn(false);
		slept = true;
		left = atomic_load_explicit(&v->lend_at, memory_order_relaxed) - now;
		if (!slept_quantum && left > 0) {
			vcpu_sleep(v, o, left);
			slept_quantum = true;
		} else {
			vcpu_sleep(v, o, KC_WAIT_NS);
		}
		now = kc_now_ns();
		spin_until = now + kc_spin_ns;
		if (!warned && now - t0 >= KC_WAIT_WARN_S * 1000000000LL) {
			/* Every waiter of a starved host says it: one line a second, with a count. */
			long held = kc_ratelimit(&wait_lines, now, 1000000000LL);

			if (held > 0)
				fprintf(stderr, "kcompat: thread %u has waited %d s for virtual CPU "
					"%u, run by thread %u (and %ld more such waits since the "
					"last line)\n", me, KC_WAIT_WARN_S, cpu, o & ~KC_LENT, held);
			else if (!held)
				fprintf(stderr, "kcompat: thread %u has waited %d s for virtual CPU "
					"%u, run by thread %u\n", me, KC_WAIT_WARN_S, cpu,
					o & ~KC_LENT);
			warned = true;
		}
	}
	if (!slept)
		kc_spin_learn(true);
	if (offer)	/* not taken up: no holder may move there later */
		atomic_compare_exchange_strong_explicit(&v->swap_to, &offer, 0,
							memory_order_relaxed,
							memory_order_relaxed);
	if (atomic_fetch_sub_explicit(&v->waiters, 1, memory_order_relaxed) == 1) {
		atomic_fetch_and_explicit(&v->attn, ~KC_ATTN_WANT, memory_order_relaxed);
		/* A waiter that came in between raised the flag before we cleared it. */
		if (atomic_load_explicit(&v->waiters, memory_order_seq_cst))
			atomic_fetch_or_explicit(&v->attn, KC_ATTN_WANT, memory_order_relaxed);
	}
}

/* A holder's quantum starts: waiters sleep until it ends. */
static void vcpu_quantum(unsigned int cpu)
{
	atomic_store_explicit(&kc_vcpus[cpu].lend_at, kc_now_ns() + KC_QUANTUM_NS,
			      memory_order_relaxed);
}

/* Give @cpu back; with waiters, hand it to one of them (not to us). */
static void vcpu_give(unsigned int cpu)
{
	struct kc_vcpu *v = &kc_vcpus[cpu];
	unsigned int w = atomic_load_explicit(&v->waiters, memory_order_relaxed);

	if (atomic_load_explicit(&v->owner, memory_order_relaxed) != kc_self()) {
		fprintf(stderr, "kcompat: thread %u gives back virtual CPU %u, run by %u\n",
			kc_self(), cpu, atomic_load_explicit(&v->owner, memory_order_relaxed));
		abort();
	}
	atomic_store_explicit(&v->owner, w ? KC_LENT | kc_self() : 0, memory_order_seq_cst);
	if (atomic_load_explicit(&v->sleepers, memory_order_seq_cst))
		vcpu_wake(v);
}

/* A thread that exits holding its vCPU gives it back. */
static void kc_exit_release(void *unused)
{
	kc_cpu_unhold();
}

static void kc_exit_key_init(void)
{
	pthread_key_create(&kc_exit_key, kc_exit_release);
}

void kc_cpu_hold(void)
{
	if (kc_pcpu_ops != KC_PCPU_OWNED || kc_cpu_held)
		return;
	pthread_once(&kc_exit_once, kc_exit_key_init);
	pthread_setspecific(kc_exit_key, (void *)1);
	vcpu_take(kc_cpu);
	vcpu_quantum(kc_cpu);
	kc_held_cpu = kc_cpu;
	kc_cpu_held = true;
	kc_pcpu_fast = kc_cpu;
}

void kc_cpu_unhold(void)
{
	if (!kc_cpu_held)
		return;
	kc_pcpu_fast = KC_PCPU_NOT_HELD;
	kc_cpu_held = false;
	vcpu_give(kc_held_cpu);
}

/*
 * A migrating thread waits for our vCPU and left its own free: move there
 * and hand ours over (we wait for nothing, so no quantum). False when there
 * is no such offer or someone else took that vCPU first.
 */
static bool vcpu_swap(void)
{
	struct kc_vcpu *v = &kc_vcpus[kc_held_cpu];
	unsigned int to = atomic_exchange_explicit(&v->swap_to, 0, memory_order_relaxed) - 1;
	unsigned int free_owner = 0;

	if (to >= NR_CPUS || to == kc_held_cpu ||
	    !atomic_compare_exchange_strong_explicit(&kc_vcpus[to].owner, &free_owner,
						     kc_self(), memory_order_acquire,
						     memory_order_relaxed))
		return false;
	kc_pcpu_fast = KC_PCPU_NOT_HELD;
	vcpu_give(kc_held_cpu);
	__atomic_store_n(&kc_cpu, to, __ATOMIC_RELAXED);
	vcpu_quantum(to);
	kc_held_cpu = to;
	kc_pcpu_fast = to;
	return true;
}

/*
 * A preemption point with a waiter: swap with a migrating waiter at once
 * (neither waits), else lend the vCPU once our quantum is over and wait
 * for it.
 */
void kc_cpu_lend(void)
{
	if (!kc_cpu_held)
		return;
	if (atomic_load_explicit(&kc_vcpus[kc_held_cpu].swap_to, memory_order_relaxed) &&
	    vcpu_swap())
		return;
	if (++kc_lend_polls & 15)
		return;
	if (kc_now_ns() < atomic_load_explicit(&kc_vcpus[kc_held_cpu].lend_at,
					       memory_order_relaxed))
		return;
	kc_pcpu_fast = KC_PCPU_NOT_HELD;
	vcpu_give(kc_held_cpu);
	vcpu_take(kc_held_cpu);
	vcpu_quantum(kc_held_cpu);
	kc_pcpu_fast = kc_cpu;
}

/*
 * A holder moves to @cpu: its own vCPU first, then wait for the new one.
 * An offline @cpu runs nothing: the move goes to the next online CPU, as
 * the scheduler's fallback would send it.
 */
void kc_cpu_migrate(unsigned int cpu)
{
	cpu = kc_cpu_online_fallback(cpu);
	kc_pcpu_fast = KC_PCPU_NOT_HELD;
	vcpu_give(kc_held_cpu);
	__atomic_store_n(&kc_cpu, cpu, __ATOMIC_RELAXED);
	vcpu_take(cpu);
	vcpu_quantum(cpu);
	kc_held_cpu = cpu;
	kc_pcpu_fast = cpu;
}

/*
 * A per-CPU operation by a thread that holds no vCPU: true when it must
 * run the CPU-local form and then call kc_pcpu_op_end(), false for the
 * atomic form.
 */
bool kc_pcpu_op_begin(unsigned int cpu)
{
	if (kc_pcpu_ops == KC_PCPU_ATOMIC)
		return false;
	/* A signal handler running an operation inside one of ours (same CPU). */
	if (cpu < NR_CPUS &&
	    atomic_load_explicit(&kc_vcpus[cpu].owner, memory_order_relaxed) == kc_self()) {
		kc_nest++;
		return true;
	}
	vcpu_take(cpu);
	return true;
}

void kc_pcpu_op_end(unsigned int cpu)
{
	if (kc_nest) {
		kc_nest--;
		return;
	}
	vcpu_give(cpu);
}

/* this_cpu_add_return() of a thread that does not hold its vCPU. */
#define KC_XADD_SLOW(bits)						\
u##bits kc_pcpu_xadd_slow##bits(u##bits *p, u##bits v, unsigned int cpu)	\
{									\
	u##bits old;							\
									\
	if (!kc_pcpu_op_begin(cpu))					\
		return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);	\
	kc_tsan_vcpu_use(cpu);						\
	old = __kc_local_xadd(p, v);					\
	kc_pcpu_op_end(cpu);						\
	return old;							\
}
KC_XADD_SLOW(8)
KC_XADD_SLOW(16)
KC_XADD_SLOW(32)
KC_XADD_SLOW(64)

void kc_pcpu_attention(void)
{
	unsigned int a = atomic_load_explicit(&kc_vcpus[kc_get_cpu()].attn,
					      memory_order_relaxed);
	kc_hook_fn hook;

	if ((a & KC_ATTN_WANT) && kc_cpu_held)
		kc_cpu_lend();
	if ((a & KC_ATTN_HOOK) &&
	    (hook = atomic_load_explicit(&kc_hook, memory_order_acquire)))
		hook();
}

void kc_set_after_pcpu_add_hook(kc_hook_fn fn)
{
	unsigned int cpu;

	atomic_store_explicit(&kc_hook, fn, memory_order_release);
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		if (fn)
			atomic_fetch_or_explicit(&kc_vcpus[cpu].attn, KC_ATTN_HOOK,
						 memory_order_relaxed);
		else
			atomic_fetch_and_explicit(&kc_vcpus[cpu].attn, ~KC_ATTN_HOOK,
						  memory_order_relaxed);
	}
}

kc_hook_fn kc_get_after_pcpu_add_hook(void)
{
	return atomic_load_explicit(&kc_hook, memory_order_acquire);
}
