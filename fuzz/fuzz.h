/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libFuzzer targets (docs/fuzz.md). Each target file defines
 * LLVMFuzzerTestOneInput(); it is linked with libFuzzer's main under
 * clang (make fuzz) or with fuzz/standalone.c, which runs files given on
 * the command line once each (make check: the seed corpus, any compiler).
 * A broken property is a crash (fuzz_assert), which both report.
 */
#ifndef _STRESS_FUZZ_H
#define _STRESS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* Set by each target: did the parser accept the last input? (standalone.c prints it) */
extern int fuzz_accepted;

#define fuzz_assert(cond, ...)						\
do {									\
	if (!(cond)) {							\
		fprintf(stderr, "fuzz: %s:%d: %s: ", __FILE__, __LINE__, #cond); \
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
		abort();						\
	}								\
} while (0)

#endif /* _STRESS_FUZZ_H */
