/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_CPUHOTPLUG_H
#define _KC_LINUX_CPUHOTPLUG_H

#include <linux/types.h>
#include <linux/cpumask.h>

/*
 * CPU hotplug states (lib/kcompat/hotplug.c), the kernel's layout in
 * small: the states below CPUHP_BRINGUP_CPU are "BP" states, run by the
 * controlling thread while the CPU is offline (startup before it comes
 * online, teardown once it is dead); the states above CPUHP_AP_ONLINE_IDLE
 * are "AP" states, run as the CPU itself while it is online (startup
 * after it came online, teardown before it goes down). Startup runs in
 * ascending state order, teardown in descending order.
 */
enum cpuhp_state {
	CPUHP_INVALID = -1,
	CPUHP_OFFLINE = 0,
	CPUHP_CREATE_THREADS,
	CPUHP_PERCPU_CNT_DEAD,
	CPUHP_BP_PREPARE_DYN,
	CPUHP_BP_PREPARE_DYN_END = CPUHP_BP_PREPARE_DYN + 20,
	CPUHP_BRINGUP_CPU,
	CPUHP_AP_ONLINE_IDLE,
	CPUHP_AP_ONLINE_DYN,
	CPUHP_AP_ONLINE_DYN_END = CPUHP_AP_ONLINE_DYN + 40,
	CPUHP_ONLINE,
};

/*
 * Register @state's callbacks (either may be NULL). For CPUHP_AP_ONLINE_DYN
 * and CPUHP_BP_PREPARE_DYN a free state of that range is allocated and
 * returned (> 0); for a fixed state 0. cpuhp_setup_state() also runs
 * @startup for every online CPU now (on an error, teardown for those done,
 * and the error is returned); the _nocalls form does not.
 * cpuhp_remove_state() runs the teardown for every online CPU.
 */
int __cpuhp_setup_state(enum cpuhp_state state, const char *name, bool invoke,
			int (*startup)(unsigned int cpu), int (*teardown)(unsigned int cpu));
void __cpuhp_remove_state(enum cpuhp_state state, bool invoke);

static inline int cpuhp_setup_state(enum cpuhp_state state, const char *name,
				    int (*startup)(unsigned int cpu),
				    int (*teardown)(unsigned int cpu))
{
	return __cpuhp_setup_state(state, name, true, startup, teardown);
}

static inline int cpuhp_setup_state_nocalls(enum cpuhp_state state, const char *name,
					    int (*startup)(unsigned int cpu),
					    int (*teardown)(unsigned int cpu))
{
	return __cpuhp_setup_state(state, name, false, startup, teardown);
}

static inline void cpuhp_remove_state(enum cpuhp_state state)
{
	__cpuhp_remove_state(state, true);
}

static inline void cpuhp_remove_state_nocalls(enum cpuhp_state state)
{
	__cpuhp_remove_state(state, false);
}

#endif /* _KC_LINUX_CPUHOTPLUG_H */
