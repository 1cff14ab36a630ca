/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_CPUMASK_H
#define _KC_LINUX_CPUMASK_H

#include <linux/types.h>
#include <linux/smp.h>
/*
 * As in the kernel, cpumask.h (and so percpu.h) brings linux/kernel.h: a kernel
 * file that includes only docs/spec/hpcc.md#hpcc-kcompat headers still gets
 * WARN_ON, ARRAY_SIZE, printk, get_count_order and memset.
 */
#include <linux/kernel.h>
#include <kcompat/kcompat.h>

/*
 * CPU masks. Possible (and present) CPUs are 0 .. nr_cpu_ids - 1, set by
 * kc_set_nr_cpu_ids(), which also brings every one of them online (a
 * boot). CPUs go offline and back online through kc_cpu_down() and
 * kc_cpu_up() (lib/kcompat/hotplug.c), which run the cpuhp_setup_state()
 * callbacks (<linux/cpuhotplug.h>). Per-CPU memory of an offline CPU
 * stays: a sum over "all CPUs" must walk the possible mask.
 *
 * The online mask is read by any thread while hotplug changes it: its
 * words are loaded and stored with relaxed atomics.
 */
#define KC_CPUMASK_LONGS	((NR_CPUS + 63) / 64)

struct cpumask {
	unsigned long bits[KC_CPUMASK_LONGS];
};
typedef struct cpumask cpumask_t;

extern struct cpumask __cpu_possible_mask, __cpu_online_mask, __cpu_dying_mask;
#define cpu_possible_mask	((const struct cpumask *)&__cpu_possible_mask)
#define cpu_online_mask		((const struct cpumask *)&__cpu_online_mask)
/*
 * CPUs on their way down: set when kc_cpu_down() starts, before the CPU
 * leaves the online mask, kept through its dead-state teardowns, cleared
 * when it comes up again (or the down is rolled back), as the kernel's
 * cpuhp_set_state() does. A sum over online | dying misses no count that
 * a dead-state callback has not yet folded.
 */
#define cpu_dying_mask		((const struct cpumask *)&__cpu_dying_mask)
#define cpu_present_mask	cpu_possible_mask

static inline unsigned int nr_cpumask_bits_(void)
{
	return nr_cpu_ids < NR_CPUS ? nr_cpu_ids : NR_CPUS;
}

static inline bool cpumask_test_cpu(int cpu, const struct cpumask *m)
{
	if ((unsigned int)cpu >= nr_cpumask_bits_())
		return false;
	return (__atomic_load_n(&m->bits[cpu / 64], __ATOMIC_RELAXED) >> (cpu % 64)) & 1;
}

/* The first CPU of @m after @n (-1: from the start), or nr_cpu_ids. */
static inline unsigned int cpumask_next(int n, const struct cpumask *m)
{
	unsigned int nbits = nr_cpumask_bits_(), i = (unsigned int)(n + 1);
	unsigned long w;

	while (i < nbits) {
		w = __atomic_load_n(&m->bits[i / 64], __ATOMIC_RELAXED) >> (i % 64);
		if (w) {
			i += __builtin_ctzl(w);
			return i < nbits ? i : nr_cpu_ids;
		}
		i = (i / 64 + 1) * 64;
	}
	return nr_cpu_ids;
}

static inline unsigned int cpumask_first(const struct cpumask *m)
{
	return cpumask_next(-1, m);
}

static inline unsigned int cpumask_weight(const struct cpumask *m)
{
	unsigned int i, n = 0, nbits = nr_cpumask_bits_();

	for (i = 0; i < nbits; i += 64) {
		unsigned long w = __atomic_load_n(&m->bits[i / 64], __ATOMIC_RELAXED);

		if (nbits - i < 64)
			w &= (1UL << (nbits - i)) - 1;
		n += __builtin_popcountl(w);
	}
	return n;
}

#define for_each_cpu(cpu, mask)						\
	for ((cpu) = cpumask_first(mask); (unsigned int)(cpu) < nr_cpu_ids;	\
	     (cpu) = cpumask_next((cpu), (mask)))

/* The first CPU of @a | @b after @n, word by word as find_next_or_bit(). */
static inline unsigned int cpumask_next_or(int n, const struct cpumask *a,
					   const struct cpumask *b)
{
	unsigned int nbits = nr_cpumask_bits_(), i = (unsigned int)(n + 1);
	unsigned long w;

	while (i < nbits) {
		w = (__atomic_load_n(&a->bits[i / 64], __ATOMIC_RELAXED) |
		     __atomic_load_n(&b->bits[i / 64], __ATOMIC_RELAXED)) >> (i % 64);
		if (w) {
			i += __builtin_ctzl(w);
			return i < nbits ? i : nr_cpu_ids;
		}
		i = (i / 64 + 1) * 64;
	}
	return nr_cpu_ids;
}

#define for_each_cpu_or(cpu, a, b)					\
	for ((cpu) = cpumask_next_or(-1, (a), (b)); (unsigned int)(cpu) < nr_cpu_ids; \
	     (cpu) = cpumask_next_or((cpu), (a), (b)))

/* The possible mask is contiguous: a plain loop. */
#define for_each_possible_cpu(cpu)					\
	for ((cpu) = 0; (cpu) < (typeof(cpu))nr_cpu_ids; (cpu)++)
#define for_each_present_cpu(cpu)	for_each_possible_cpu(cpu)
#define for_each_online_cpu(cpu)	for_each_cpu((cpu), cpu_online_mask)

#define num_possible_cpus()	(nr_cpu_ids)
#define num_present_cpus()	(nr_cpu_ids)
#define num_online_cpus()	kc_num_online_cpus()
#define cpu_possible(cpu)	((unsigned int)(cpu) < nr_cpu_ids)
#define cpu_present(cpu)	cpu_possible(cpu)
#define cpu_online(cpu)		cpumask_test_cpu((cpu), cpu_online_mask)

unsigned int kc_num_online_cpus(void);

/*
 * The online CPU nearest after @cpu (itself when online), wrapping: where
 * the scheduler sends a task whose CPU went offline. nr_cpu_ids when none
 * is online.
 */
static inline unsigned int kc_cpu_online_fallback(unsigned int cpu)
{
	unsigned int c;

	if (cpu_online(cpu))
		return cpu;
	c = cpumask_next((int)cpu, cpu_online_mask);
	return c < nr_cpu_ids ? c : cpumask_first(cpu_online_mask);
}

/*
 * Take @cpu offline / bring it back online (lib/kcompat/hotplug.c), with
 * the kernel's rules: the hotplug callbacks run (teardown in reverse
 * order of the states, startup in order; a failing startup rolls back),
 * the last online CPU cannot go down, and no thread may hold the vCPU
 * (owned model) while it changes: the caller has parked its thread.
 * 0, -EINVAL (no such CPU), -EBUSY (the last online CPU, or the vCPU is
 * held), or a callback's error.
 */
int kc_cpu_down(unsigned int cpu);
int kc_cpu_up(unsigned int cpu);
/* Hotplug operations done since the last boot (kc_set_nr_cpu_ids()). */
unsigned long kc_cpu_hotplug_count(void);

#endif /* _KC_LINUX_CPUMASK_H */
