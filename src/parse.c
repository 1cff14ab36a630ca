// SPDX-License-Identifier: GPL-2.0
/* Strict parsers for option values: any junk is a usage error. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "parse.h"

/*
 * Numbers on the command line are decimal only: digits, at most one '.'
 * with digits on one side. No sign, blank, exponent, hex (0x5, 0x1p-3),
 * inf or nan: strtod() would take them all. Returns where the number
 * ends (its unit), or NULL.
 */
const char *stress_decimal(const char *s, double *out)
{
	size_t i = strspn(s, "0123456789"), f = 0;

	if (s[i] == '.')
		f = strspn(s + i + 1, "0123456789");
	if (!i && !f)
		return NULL;
	*out = strtod(s, NULL);	/* what is left is plain decimal: exact enough */
	return s + i + (s[i] == '.' ? 1 + f : 0);
}

const char *stress_escape(const char *s, char *buf, size_t len)
{
	size_t o = 0;

	for (; *s && o + 5 < len; s++) {
		unsigned char c = *s;

		if (c == '\n')
			o += snprintf(buf + o, len - o, "\\n");
		else if (c < 0x20 || c > 0x7e)
			o += snprintf(buf + o, len - o, "\\x%02x", c);
		else
			buf[o++] = c;
	}
	buf[o] = 0;
	return buf;
}

bool stress_printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
			return false;
	return true;
}

int stress_parse_ulong(const char *s, unsigned long long min, unsigned long long max,
		       unsigned long long *out, char *err, size_t errlen)
{
	unsigned long long v;
	char *end;

	if (!s || !isdigit((unsigned char)s[0])) {
		snprintf(err, errlen, "'%s' is not an integer (decimal digits only)", s ? s : "");
		return -1;
	}
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end) {
		snprintf(err, errlen, "'%s' is not an integer (decimal digits only)", s);
		return -1;
	}
	if (v < min || v > max) {
		snprintf(err, errlen, "%s is out of range (%llu..%llu)", s, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

/* A number with an optional unit: ms, s, m, h, d; bare = seconds. */
int stress_parse_duration(const char *s, double *out, char *err, size_t errlen)
{
	static const struct { const char *sfx; double mul; } units[] = {
		{ "", 1 }, { "ms", 1e-3 }, { "s", 1 }, { "m", 60 }, { "h", 3600 },
		{ "d", 86400 },
	};
	const char *end;
	double v;
	size_t i;

	if (!s || !(end = stress_decimal(s, &v)))
		goto bad;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (!strcmp(end, units[i].sfx)) {
			v *= units[i].mul;
			if (v > 365.0 * 86400)
				goto bad;
			/* 0 means "none" or "unbounded" where it is allowed; else >= 1 ms. */
			if (v > 0 && v < 0.001 - 1e-12) {
				snprintf(err, errlen, "'%s' is below the minimum of 1ms", s);
				return -1;
			}
			*out = v;
			return 0;
		}
	}
bad:
	snprintf(err, errlen, "'%s' is not a duration (decimal, e.g. 30s, 1.5m, 250ms, 2h, 1d)",
		 s ? s : "");
	return -1;
}

void stress_format_duration(double secs, char *buf, size_t len)
{
	if (secs == 0)
		snprintf(buf, len, "0");
	else if (secs < 1 || secs != (double)(unsigned long)secs)
		snprintf(buf, len, "%gms", secs * 1000);
	else
		snprintf(buf, len, "%lus", (unsigned long)secs);
}

static int parse_prob(const char *s, size_t n, double *out)
{
	char tmp[32];
	const char *end;
	double v;

	if (!n || n >= sizeof(tmp))
		return -1;
	memcpy(tmp, s, n);
	tmp[n] = 0;
	end = stress_decimal(tmp, &v);
	if (!end || *end || v > 1)
		return -1;
	*out = v;
	return 0;
}

int stress_parse_inject(const char *s, struct inject_spec *out, char *err, size_t errlen)
{
	struct inject_spec spec = { 0 };
	const char *p = s;
	unsigned int seen = 0;

	if (!s || !*s || strlen(s) >= sizeof(spec.text))
		goto bad;
	snprintf(spec.text, sizeof(spec.text), "%s", s);
	if (!strcmp(s, "off") || !strcmp(s, "none")) {
		*out = spec;
		return 0;
	}
	while (*p) {
		const char *eq = strchr(p, '='), *comma;
		double *slot;
		unsigned int bit;

		if (!eq)
			goto bad;
		comma = strchr(eq, ',');
		if (!comma)
			comma = eq + strlen(eq);
		if (eq - p == 3 && !strncmp(p, "hop", 3))
			slot = &spec.hop, bit = 1;
		else if (eq - p == 5 && !strncmp(p, "delay", 5))
			slot = &spec.delay, bit = 2;
		else if (eq - p == 5 && !strncmp(p, "yield", 5))
			slot = &spec.yield, bit = 4;
		else
			goto bad;
		/* Each key once: which of two values was meant is not ours to guess. */
		if (seen & bit) {
			snprintf(err, errlen, "'%s': %.*s given twice", s, (int)(eq - p), p);
			return -1;
		}
		seen |= bit;
		if (parse_prob(eq + 1, comma - eq - 1, slot))
			goto bad;
		p = *comma ? comma + 1 : comma;
		if (*comma && !*p)
			goto bad;
	}
	*out = spec;
	return 0;
bad:
	snprintf(err, errlen, "'%s' is not an injection spec (hop=P,delay=P,yield=P; "
		 "P in [0,1]; or off)", s ? s : "");
	return -1;
}

int stress_parse_stutter(const char *s, struct stutter_spec *out, char *err, size_t errlen)
{
	struct stutter_spec spec = { 0 };
	char lo[32];
	const char *dash;
	char e[64];

	if (!s || !*s || strlen(s) >= sizeof(spec.text))
		goto bad;
	snprintf(spec.text, sizeof(spec.text), "%s", s);
	if (!strcmp(s, "off")) {
		*out = spec;
		return 0;
	}
	dash = strchr(s, '-');
	if (dash) {
		if ((size_t)(dash - s) >= sizeof(lo))
			goto bad;
		memcpy(lo, s, dash - s);
		lo[dash - s] = 0;
		if (stress_parse_duration(lo, &spec.min, e, sizeof(e)) ||
		    stress_parse_duration(dash + 1, &spec.max, e, sizeof(e)))
			goto bad;
	} else {
		if (stress_parse_duration(s, &spec.min, e, sizeof(e)))
			goto bad;
		spec.max = spec.min;
	}
	if (spec.min < 0.001 || spec.max < spec.min)
		goto bad;
	*out = spec;
	return 0;
bad:
	snprintf(err, errlen, "'%s' is not a stutter spec (off, DURATION or MIN-MAX, "
		 "each at least 1ms)", s ? s : "");
	return -1;
}

/* --hotplug off | P: the chance, per quiescent point, that a CPU goes offline or back. */
/* DIGITS[.DIGITS] or .DIGITS, nothing else. */
static bool plain_decimal(const char *s)
{
	size_t i = strspn(s, "0123456789"), j = 0;

	if (s[i] == '.')
		j = strspn(s + i + 1, "0123456789");
	return (i || j) && s[i + (s[i] == '.') + j] == 0;
}

int stress_parse_hotplug(const char *s, double *p, char *text, size_t textlen, char *err,
			 size_t errlen)
{
	char *end;
	double d;

	if (s && !strcmp(s, "off")) {
		*p = 0;
		snprintf(text, textlen, "off");
		return 0;
	}
	/* Plain decimal only (0.5, .25, 1): no sign, space, exponent or hex float. */
	d = s && *s && strlen(s) < textlen && plain_decimal(s) ? strtod(s, &end) : -1;
	if (d < 0 || d > 1 || *end || d != d) {
		snprintf(err, errlen, "'%s' is not off or a probability in [0, 1]", s ? s : "");
		return -1;
	}
	*p = d;
	snprintf(text, textlen, "%s", d ? s : "off");
	return 0;
}
