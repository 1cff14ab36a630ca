/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The suite's one JSON writer (./stress reports, --describe, hpcc-bench
 * results): streaming, always well-formed, commas and nesting tracked.
 *
 * Numbers: integers are written exactly (json_u64/json_i64: every digit,
 * no float conversion). A double that holds an integer below 2^53 is
 * written as that integer; any other double with 17 significant digits,
 * which reads back to the same double; NaN and infinities as null.
 * Seeds are uint64 and are written as decimal STRINGS (json_seed): jq 1.6
 * (Debian 12) and JavaScript read every JSON number as a double and would
 * round a seed above 2^53 (docs/stress.md, "JSON report").
 * Strings: UTF-8 passes through, control characters are escaped, a byte
 * that is not valid UTF-8 becomes U+FFFD: the document always parses.
 */
#ifndef _UTIL_JSON_H
#define _UTIL_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH	32

struct json {
	FILE *f;
	unsigned int depth;
	bool first[JSON_MAX_DEPTH];
	bool key_pending;
};

void json_init(struct json *j, FILE *f);
/* Members (or elements) of a container opened elsewhere, after its first one. */
void json_init_inside(struct json *j, FILE *f);
/* After the top-level value: a newline. */
void json_finish(struct json *j);
/*
 * A value another writer wrote in @j's place (a forked child's copy of @j,
 * on the same file): the next one gets its comma.
 */
void json_value_written(struct json *j);

void json_obj_begin(struct json *j);
void json_obj_end(struct json *j);
void json_arr_begin(struct json *j);
void json_arr_end(struct json *j);
void json_key(struct json *j, const char *key);

void json_str(struct json *j, const char *s);	/* NULL: null */
void json_u64(struct json *j, uint64_t v);
void json_i64(struct json *j, int64_t v);
void json_double(struct json *j, double v);
void json_seed(struct json *j, uint64_t seed);	/* "12345678901234567890" */
void json_bool(struct json *j, bool v);
void json_null(struct json *j);

/* Member forms: json_key() then the value. */
void json_kstr(struct json *j, const char *key, const char *s);
void json_ku64(struct json *j, const char *key, uint64_t v);
void json_ki64(struct json *j, const char *key, int64_t v);
void json_kdouble(struct json *j, const char *key, double v);
void json_kseed(struct json *j, const char *key, uint64_t seed);
void json_kbool(struct json *j, const char *key, bool v);
void json_kobj_begin(struct json *j, const char *key);
void json_karr_begin(struct json *j, const char *key);

#endif /* _UTIL_JSON_H */
