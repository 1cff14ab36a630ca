// SPDX-License-Identifier: GPL-2.0
/* Virtual CPUs: nr_cpu_ids is chosen at run time; each thread has a CPU number. */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <kcompat/kcompat.h>

unsigned int nr_cpu_ids = 1;
__thread unsigned int kc_cpu;
kc_hook_fn kc_after_pcpu_add_hook;

void kc_percpu_note_nr_cpu_ids(unsigned int n);

int kc_set_nr_cpu_ids(unsigned int n)
{
	if (n == 0)
		return -EINVAL;
	nr_cpu_ids = n;
	kc_percpu_note_nr_cpu_ids(n);
	return 0;
}
