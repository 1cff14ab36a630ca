/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse.c: the value parsers the options and the replay files share.
 */
#ifndef _STRESS_PARSE_H
#define _STRESS_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include "config.h"

/* Parsing helpers: 0, or -1 with a reason in @err. */
int stress_parse_ulong(const char *s, unsigned long long min, unsigned long long max,
		       unsigned long long *out, char *err, size_t errlen);
int stress_parse_duration(const char *s, double *out, char *err, size_t errlen);
int stress_parse_inject(const char *s, struct inject_spec *out, char *err, size_t errlen);
int stress_parse_stutter(const char *s, struct stutter_spec *out, char *err, size_t errlen);
int stress_parse_hotplug(const char *s, double *p, char *text, size_t textlen, char *err,
			 size_t errlen);
void stress_format_duration(double secs, char *buf, size_t len);
/* @s for a message: bytes outside printable ASCII as \xNN, a newline as \n. */
const char *stress_escape(const char *s, char *buf, size_t len);
bool stress_printable(const char *s);

#endif /* _STRESS_PARSE_H */
