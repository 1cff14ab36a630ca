// SPDX-License-Identifier: GPL-2.0
/* A streaming JSON writer: enough for the results files, always valid. */
#include <math.h>
#include "bench.h"

void json_begin(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = true;
	j->key_pending = false;
}

void json_end(struct json *j)
{
	fputc('\n', j->f);
}

/* A comma before every element but the first of its container. */
static void json_sep(struct json *j)
{
	if (j->key_pending) {
		j->key_pending = false;
		return;
	}
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = false;
}

static void json_raw_str(struct json *j, const char *s)
{
	fputc('"', j->f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(j->f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(j->f, "\\u%04x", *s);
		else
			fputc(*s, j->f);
	}
	fputc('"', j->f);
}

void json_key(struct json *j, const char *key)
{
	json_sep(j);
	json_raw_str(j, key);
	fputc(':', j->f);
	j->key_pending = true;
}

static void json_open(struct json *j, char c)
{
	json_sep(j);
	fputc(c, j->f);
	if (j->depth + 1 < sizeof(j->first))
		j->depth++;
	j->first[j->depth] = true;
}

static void json_close(struct json *j, char c)
{
	if (j->depth)
		j->depth--;
	fputc(c, j->f);
}

void json_obj_open(struct json *j)
{
	json_open(j, '{');
}

void json_obj_close(struct json *j)
{
	json_close(j, '}');
}

void json_arr_open(struct json *j)
{
	json_open(j, '[');
}

void json_arr_close(struct json *j)
{
	json_close(j, ']');
}

void json_str(struct json *j, const char *s)
{
	json_sep(j);
	json_raw_str(j, s);
}

void json_num(struct json *j, double v)
{
	json_sep(j);
	if (isfinite(v))
		fprintf(j->f, "%.6g", v);
	else
		fputs("null", j->f);
}

void json_ulong(struct json *j, unsigned long v)
{
	json_sep(j);
	fprintf(j->f, "%lu", v);
}

void json_bool(struct json *j, bool v)
{
	json_sep(j);
	fputs(v ? "true" : "false", j->f);
}

void json_null(struct json *j)
{
	json_sep(j);
	fputs("null", j->f);
}

void json_kstr(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_str(j, s);
}

void json_knum(struct json *j, const char *key, double v)
{
	json_key(j, key);
	json_num(j, v);
}

void json_kulong(struct json *j, const char *key, unsigned long v)
{
	json_key(j, key);
	json_ulong(j, v);
}

void json_kstats(struct json *j, const char *key, const double *v, unsigned int n)
{
	json_key(j, key);
	json_obj_open(j);
	json_knum(j, "median", bench_median(v, n));
	json_knum(j, "min", bench_min(v, n));
	json_knum(j, "max", bench_max(v, n));
	json_obj_close(j);
}
