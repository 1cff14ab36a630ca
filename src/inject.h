/* SPDX-License-Identifier: GPL-2.0 */
/*
 * inject.c: --inject's hops, delays and yields at kcompat's hook points.
 */
#ifndef _STRESS_INJECT_H
#define _STRESS_INJECT_H

#include "run.h"

void stress_inject_attach(struct stress *s, unsigned int cpu);
void stress_inject_detach(void);
void stress_inject_install(const struct stress_config *cfg);
void stress_inject_counts(unsigned long *hops, unsigned long *delays, unsigned long *yields);

#endif /* _STRESS_INJECT_H */
