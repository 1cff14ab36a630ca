/* SPDX-License-Identifier: GPL-2.0 */
/*
 * recorder.c: the flight recorder, the last operations of each ring.
 */
#ifndef _STRESS_RECORDER_H
#define _STRESS_RECORDER_H

struct flight_recorder *recorder_new(unsigned int nr_rings, unsigned int depth);
void recorder_free(struct flight_recorder *r);
void recorder_add(struct flight_recorder *r, unsigned int ring, const char *op,
		  long a, long b);
/* Malloc'ed text: the last @n entries of @ring (all rings' last few when ring < 0). */
char *recorder_dump(struct flight_recorder *r, int ring, unsigned int n);

#endif /* _STRESS_RECORDER_H */
