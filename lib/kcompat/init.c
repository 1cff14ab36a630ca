// SPDX-License-Identifier: GPL-2.0
/* Built-in initcalls (module_init & co.): run once per process. */
#include <pthread.h>
#include <linux/init.h>

#define KC_MAX_INITCALLS	32

static struct {
	initcall_t fn;
	const char *name;
} kc_initcalls[KC_MAX_INITCALLS];
static unsigned int kc_nr_initcalls;
static pthread_once_t kc_initcalls_once = PTHREAD_ONCE_INIT;
static int kc_initcalls_ret;

/* Runs from constructors, before main(): single-threaded. */
void kc_initcall_register(initcall_t fn, const char *name)
{
	if (kc_nr_initcalls < KC_MAX_INITCALLS)
		kc_initcalls[kc_nr_initcalls++] = (typeof(kc_initcalls[0])){ fn, name };
}

static void kc_run_initcalls(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < kc_nr_initcalls; i++) {
		ret = kc_initcalls[i].fn();
		if (ret && !kc_initcalls_ret)
			kc_initcalls_ret = ret;
	}
}

int kc_do_initcalls(void)
{
	pthread_once(&kc_initcalls_once, kc_run_initcalls);
	return kc_initcalls_ret;
}
