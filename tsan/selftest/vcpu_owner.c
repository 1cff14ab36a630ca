// SPDX-License-Identifier: GPL-2.0
/*
 * TSan self-test: two threads running one virtual CPU (owned per-CPU
 * model, lib/kcompat/cpu.c).
 *
 * The holder runs vCPU 0 and adds to its per-CPU word, then gives it
 * back. Correct form: the second thread takes vCPU 0 (kc_cpu_hold())
 * before its adds: the owner word's release/acquire orders the two, so
 * TSan is quiet. Racy form: the intruder acts as CPU 0 without taking it
 * (the bug of a thread updating another CPU's per-CPU data with a
 * CPU-local operation); the per-CPU add itself is invisible to TSan (one
 * instruction without LOCK), but every user of a vCPU also makes a plain
 * access to the vCPU's shadow word, so TSan must report it.
 */
#include <pthread.h>
#include <linux/percpu.h>
#include <kcompat/kcompat.h>
#include "selftest.h"

#define PROG	"vcpu_owner"
#define NR_ADDS	1000

static unsigned long *word;
static int holder_done;

static void *holder(void *arg)
{
	int i;

	kc_set_cpu(0);
	kc_cpu_hold();
	for (i = 0; i < NR_ADDS; i++)
		this_cpu_add_return(*word, 1);
	kc_cpu_unhold();
	st_flag_set(&holder_done);
	return NULL;
}

static void *intruder(void *arg)
{
	int i;

	st_flag_wait(&holder_done, PROG);
	kc_set_cpu(0);
#ifdef SELFTEST_RACY
	kc_pcpu_fast = 0;	/* runs as CPU 0 without taking it */
#else
	kc_cpu_hold();
#endif
	for (i = 0; i < NR_ADDS; i++)
		this_cpu_add_return(*word, 1);
#ifdef SELFTEST_RACY
	kc_pcpu_fast = KC_PCPU_NOT_HELD;
#else
	kc_cpu_unhold();
#endif
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	kc_pcpu_set_ops(KC_PCPU_OWNED);
	if (kc_set_nr_cpu_ids(2))
		st_die(PROG, "init failed");
	word = alloc_percpu(unsigned long);
	if (!word)
		st_die(PROG, "alloc failed");
	pthread_create(&a, NULL, holder, NULL);
	pthread_create(&b, NULL, intruder, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	if (*per_cpu_ptr(word, 0) != 2 * NR_ADDS)
		st_die(PROG, "adds lost");
	free_percpu(word);
	printf("%s (%s): %d adds on CPU 0 by two threads\n", PROG, ST_VARIANT, 2 * NR_ADDS);
	return 0;
}
