// SPDX-License-Identifier: GPL-2.0
/* The suite's one JSON writer: see json.h for the number and string rules. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include "util/json.h"

void json_init(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = true;
	j->key_pending = false;
}

void json_init_inside(struct json *j, FILE *f)
{
	json_init(j, f);
	j->first[0] = false;
}

void json_finish(struct json *j)
{
	fputc('\n', j->f);
}

/* A comma before every element but the first of its container. */
static void sep(struct json *j)
{
	if (j->key_pending) {
		j->key_pending = false;
		return;
	}
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = false;
}

void json_value_written(struct json *j)
{
	if (j->key_pending)
		j->key_pending = false;
	else
		j->first[j->depth] = false;
}

/* Length of the valid UTF-8 sequence at @p, or 0. */
static int utf8_len(const unsigned char *p)
{
	int n, i;
	uint32_t c;

	if (p[0] < 0x80)
		return 1;
	if ((p[0] & 0xe0) == 0xc0)
		n = 2, c = p[0] & 0x1f;
	else if ((p[0] & 0xf0) == 0xe0)
		n = 3, c = p[0] & 0x0f;
	else if ((p[0] & 0xf8) == 0xf0)
		n = 4, c = p[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	/* No overlong forms, no surrogates, nothing above U+10FFFF. */
	if ((n == 2 && c < 0x80) || (n == 3 && c < 0x800) || (n == 4 && c < 0x10000) ||
	    (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	return n;
}

static void raw_str(struct json *j, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', j->f);
	while (*p) {
		int n = utf8_len(p);

		if (*p == '"' || *p == '\\')
			fprintf(j->f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", j->f);
		else if (*p == '\t')
			fputs("\\t", j->f);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(j->f, "\\u%04x", *p);
		else if (!n)
			fputs("\\ufffd", j->f);
		else
			fwrite(p, 1, n, j->f);
		p += n ? n : 1;
	}
	fputc('"', j->f);
}

void json_key(struct json *j, const char *key)
{
	sep(j);
	raw_str(j, key);
	fputc(':', j->f);
	j->key_pending = true;
}

static void open_(struct json *j, char c)
{
	sep(j);
	fputc(c, j->f);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->first[j->depth] = true;
}

static void close_(struct json *j, char c)
{
	if (j->depth)
		j->depth--;
	fputc(c, j->f);
}

void json_obj_begin(struct json *j)
{
	open_(j, '{');
}

void json_obj_end(struct json *j)
{
	close_(j, '}');
}

void json_arr_begin(struct json *j)
{
	open_(j, '[');
}

void json_arr_end(struct json *j)
{
	close_(j, ']');
}

void json_str(struct json *j, const char *s)
{
	if (!s) {
		json_null(j);
		return;
	}
	sep(j);
	raw_str(j, s);
}

void json_u64(struct json *j, uint64_t v)
{
	sep(j);
	fprintf(j->f, "%" PRIu64, v);
}

void json_i64(struct json *j, int64_t v)
{
	sep(j);
	fprintf(j->f, "%" PRId64, v);
}

/* The shortest %.Ng (N = 15..17) that reads back as @v. */
static const char *shortest(double v, char *buf, size_t len)
{
	int prec;

	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return buf;
	}
	snprintf(buf, len, "%.17g", v);
	return buf;
}

void json_double(struct json *j, double v)
{
	char buf[32];

	sep(j);
	if (!isfinite(v))
		fputs("null", j->f);
	else if (v == trunc(v) && fabs(v) < 9007199254740992.0)
		fprintf(j->f, "%" PRId64, (int64_t)v);	/* exact, no exponent */
	else
		fputs(shortest(v, buf, sizeof(buf)), j->f);
}

void json_seed(struct json *j, uint64_t seed)
{
	sep(j);
	fprintf(j->f, "\"%" PRIu64 "\"", seed);
}

void json_bool(struct json *j, bool v)
{
	sep(j);
	fputs(v ? "true" : "false", j->f);
}

void json_null(struct json *j)
{
	sep(j);
	fputs("null", j->f);
}

void json_kstr(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_str(j, s);
}

void json_ku64(struct json *j, const char *key, uint64_t v)
{
	json_key(j, key);
	json_u64(j, v);
}

void json_ki64(struct json *j, const char *key, int64_t v)
{
	json_key(j, key);
	json_i64(j, v);
}

void json_kdouble(struct json *j, const char *key, double v)
{
	json_key(j, key);
	json_double(j, v);
}

void json_kseed(struct json *j, const char *key, uint64_t seed)
{
	json_key(j, key);
	json_seed(j, seed);
}

void json_kbool(struct json *j, const char *key, bool v)
{
	json_key(j, key);
	json_bool(j, v);
}

void json_kobj_begin(struct json *j, const char *key)
{
	json_key(j, key);
	json_obj_begin(j);
}

void json_karr_begin(struct json *j, const char *key)
{
	json_key(j, key);
	json_arr_begin(j);
}
