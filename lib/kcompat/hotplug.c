// SPDX-License-Identifier: GPL-2.0
/*
 * CPU hotplug: the online mask and the state machine of
 * <linux/cpuhotplug.h>. A CPU goes down in three parts: the AP states'
 * teardowns run as the CPU while it is still online (descending), then it
 * leaves the online mask, then the BP states' teardowns run on the
 * calling thread (descending). Up is the mirror. A failing callback rolls
 * the CPU back to where it was, as the kernel does. One mutex (the
 * kernel's cpu_hotplug_lock and cpuhp_state_mutex in one) serialises
 * hotplug operations and state registration; callbacks run under it and
 * must not register states.
 *
 * An offline CPU keeps its per-CPU memory: only the mask and the
 * callbacks change. Running it (the vCPU's thread) is the caller's
 * business: the stress engine parks that thread (src/threads.c).
 */
#include <errno.h>
#include <pthread.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/cpumask.h>
#include <linux/cpuhotplug.h>
#include <kcompat/kcompat.h>

struct cpumask __cpu_possible_mask = { .bits = { 1 } };
struct cpumask __cpu_online_mask = { .bits = { 1 } };
struct cpumask __cpu_dying_mask;
static _Atomic unsigned int kc_nr_online = 1;
static _Atomic unsigned long kc_hotplug_ops;

struct kc_cpuhp_step {
	const char *name;
	int (*startup)(unsigned int cpu);
	int (*teardown)(unsigned int cpu);
	bool used;
};

static struct kc_cpuhp_step kc_steps[CPUHP_ONLINE + 1];
static pthread_mutex_t kc_hotplug_lock = PTHREAD_MUTEX_INITIALIZER;

static void mask_set(struct cpumask *m, unsigned int cpu, bool on)
{
	unsigned long bit = 1UL << (cpu % 64);

	if (on)
		__atomic_fetch_or(&m->bits[cpu / 64], bit, __ATOMIC_RELAXED);
	else
		__atomic_fetch_and(&m->bits[cpu / 64], ~bit, __ATOMIC_RELAXED);
}

/* A boot with @n possible CPUs: every one of them online (cpu.c). */
void kc_cpumask_boot(unsigned int n);

void kc_cpumask_boot(unsigned int n)
{
	unsigned int cpu;

	if (n > NR_CPUS)
		n = NR_CPUS;
	pthread_mutex_lock(&kc_hotplug_lock);
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		mask_set(&__cpu_possible_mask, cpu, cpu < n);
		mask_set(&__cpu_online_mask, cpu, cpu < n);
		mask_set(&__cpu_dying_mask, cpu, false);
	}
	atomic_store(&kc_nr_online, n);
	atomic_store(&kc_hotplug_ops, 0);
	pthread_mutex_unlock(&kc_hotplug_lock);
}

unsigned int kc_num_online_cpus(void)
{
	return atomic_load_explicit(&kc_nr_online, memory_order_relaxed);
}

unsigned long kc_cpu_hotplug_count(void)
{
	return atomic_load_explicit(&kc_hotplug_ops, memory_order_relaxed);
}

static bool is_ap_state(int state)
{
	return state > CPUHP_AP_ONLINE_IDLE;
}

/*
 * One callback of @state for @cpu: an AP state's as the CPU itself (the
 * calling thread becomes @cpu for the call, giving back a vCPU it holds),
 * a BP state's on the calling thread.
 */
static int cpuhp_invoke(int state, unsigned int cpu, bool up)
{
	struct kc_cpuhp_step *st = &kc_steps[state];
	int (*fn)(unsigned int) = up ? st->startup : st->teardown;
	unsigned int self;
	bool held;
	int ret;

	if (!st->used || !fn)
		return 0;
	if (!is_ap_state(state))
		return fn(cpu);
	held = kc_cpu_held;
	if (held)
		kc_cpu_unhold();
	self = kc_get_cpu();
	kc_set_cpu(cpu);
	ret = fn(cpu);
	kc_set_cpu(self);
	if (held)
		kc_cpu_hold();
	return ret;
}

/* Run states (@from, @to] ascending (up) or [@to, @from) descending (down). */
static int cpuhp_walk_up(unsigned int cpu, int from, int to, int *failed)
{
	int state, ret;

	for (state = from + 1; state <= to; state++) {
		ret = cpuhp_invoke(state, cpu, true);
		if (ret) {
			*failed = state;
			return ret;
		}
	}
	return 0;
}

static int cpuhp_walk_down(unsigned int cpu, int from, int to, int *failed)
{
	int state, ret;

	for (state = from - 1; state >= to; state--) {
		ret = cpuhp_invoke(state, cpu, false);
		if (ret) {
			*failed = state;
			return ret;
		}
	}
	return 0;
}

static int cpu_check(unsigned int cpu)
{
	if (cpu >= nr_cpu_ids || cpu >= NR_CPUS)
		return -EINVAL;
	/* The owned model: nobody may be running the vCPU while it changes. */
	if (kc_pcpu_ops == KC_PCPU_OWNED && kc_cpu_holder(cpu))
		return -EBUSY;
	return 0;
}

int kc_cpu_down(unsigned int cpu)
{
	int ret, failed = CPUHP_ONLINE, dummy;

	ret = cpu_check(cpu);
	if (ret)
		return ret;
	pthread_mutex_lock(&kc_hotplug_lock);
	if (!cpu_online(cpu)) {
		pthread_mutex_unlock(&kc_hotplug_lock);
		return 0;
	}
	if (atomic_load(&kc_nr_online) <= 1) {
		pthread_mutex_unlock(&kc_hotplug_lock);
		return -EBUSY;
	}
	mask_set(&__cpu_dying_mask, cpu, true);
	ret = cpuhp_walk_down(cpu, CPUHP_ONLINE, CPUHP_AP_ONLINE_IDLE + 1, &failed);
	if (ret) {
		/* Roll back: the states torn down come up again. */
		WARN_ON(cpuhp_walk_up(cpu, failed, CPUHP_ONLINE, &dummy));
		mask_set(&__cpu_dying_mask, cpu, false);
		pthread_mutex_unlock(&kc_hotplug_lock);
		return ret;
	}
	mask_set(&__cpu_online_mask, cpu, false);
	atomic_fetch_sub(&kc_nr_online, 1);
	/* A BP teardown cannot fail the operation any more: it is only told. */
	ret = cpuhp_walk_down(cpu, CPUHP_BRINGUP_CPU, CPUHP_OFFLINE + 1, &failed);
	WARN_ON(ret);
	atomic_fetch_add(&kc_hotplug_ops, 1);
	pthread_mutex_unlock(&kc_hotplug_lock);
	return 0;
}

int kc_cpu_up(unsigned int cpu)
{
	int ret, failed = CPUHP_ONLINE, dummy;

	ret = cpu_check(cpu);
	if (ret)
		return ret;
	pthread_mutex_lock(&kc_hotplug_lock);
	if (cpu_online(cpu)) {
		pthread_mutex_unlock(&kc_hotplug_lock);
		return 0;
	}
	mask_set(&__cpu_dying_mask, cpu, false);
	ret = cpuhp_walk_up(cpu, CPUHP_OFFLINE, CPUHP_BRINGUP_CPU - 1, &failed);
	if (ret) {
		WARN_ON(cpuhp_walk_down(cpu, failed, CPUHP_OFFLINE + 1, &dummy));
		pthread_mutex_unlock(&kc_hotplug_lock);
		return ret;
	}
	mask_set(&__cpu_online_mask, cpu, true);
	atomic_fetch_add(&kc_nr_online, 1);
	ret = cpuhp_walk_up(cpu, CPUHP_AP_ONLINE_IDLE, CPUHP_ONLINE, &failed);
	if (ret) {
		WARN_ON(cpuhp_walk_down(cpu, failed, CPUHP_AP_ONLINE_IDLE + 1, &dummy));
		mask_set(&__cpu_online_mask, cpu, false);
		atomic_fetch_sub(&kc_nr_online, 1);
		WARN_ON(cpuhp_walk_down(cpu, CPUHP_BRINGUP_CPU, CPUHP_OFFLINE + 1, &dummy));
		pthread_mutex_unlock(&kc_hotplug_lock);
		return ret;
	}
	atomic_fetch_add(&kc_hotplug_ops, 1);
	pthread_mutex_unlock(&kc_hotplug_lock);
	return 0;
}

static int cpuhp_alloc_state(int state)
{
	int first, last;

	if (state == CPUHP_AP_ONLINE_DYN) {
		first = CPUHP_AP_ONLINE_DYN;
		last = CPUHP_AP_ONLINE_DYN_END;
	} else if (state == CPUHP_BP_PREPARE_DYN) {
		first = CPUHP_BP_PREPARE_DYN;
		last = CPUHP_BP_PREPARE_DYN_END;
	} else {
		if (state <= CPUHP_OFFLINE || state >= CPUHP_ONLINE ||
		    state == CPUHP_BRINGUP_CPU || state == CPUHP_AP_ONLINE_IDLE)
			return -EINVAL;
		return kc_steps[state].used ? -EBUSY : state;
	}
	for (state = first; state <= last; state++)
		if (!kc_steps[state].used)
			return state;
	return -ENOSPC;
}

int __cpuhp_setup_state(enum cpuhp_state state, const char *name, bool invoke,
			int (*startup)(unsigned int cpu), int (*teardown)(unsigned int cpu))
{
	bool dyn = state == CPUHP_AP_ONLINE_DYN || state == CPUHP_BP_PREPARE_DYN;
	unsigned int cpu, undo;
	int s, ret = 0;

	pthread_mutex_lock(&kc_hotplug_lock);
	s = cpuhp_alloc_state(state);
	if (s < 0) {
		pthread_mutex_unlock(&kc_hotplug_lock);
		return s;
	}
	kc_steps[s] = (struct kc_cpuhp_step){ name, startup, teardown, true };
	if (invoke && startup) {
		for_each_online_cpu(cpu) {
			ret = cpuhp_invoke(s, cpu, true);
			if (!ret)
				continue;
			for_each_online_cpu(undo) {
				if (undo == cpu)
					break;
				cpuhp_invoke(s, undo, false);
			}
			kc_steps[s].used = false;
			break;
		}
	}
	pthread_mutex_unlock(&kc_hotplug_lock);
	if (ret)
		return ret;
	return dyn ? s : 0;
}

void __cpuhp_remove_state(enum cpuhp_state state, bool invoke)
{
	unsigned int cpu;

	if (WARN_ON((int)state <= CPUHP_OFFLINE || state >= CPUHP_ONLINE))
		return;
	pthread_mutex_lock(&kc_hotplug_lock);
	if (invoke && kc_steps[state].used)
		for_each_online_cpu(cpu)
			cpuhp_invoke(state, cpu, false);
	kc_steps[state].used = false;
	pthread_mutex_unlock(&kc_hotplug_lock);
}
