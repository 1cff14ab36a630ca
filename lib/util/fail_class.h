/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The failure classes, spelled here once for every report: the verdict
 * line's class=, JSON's "class", the tests' "# class=" diagnostics and
 * the per-class counts of the closing "# Totals:" line
 * (docs/spec/stress.md#stress-report).
 */
#ifndef _UTIL_FAIL_CLASS_H
#define _UTIL_FAIL_CLASS_H

enum fail_class {
	/* A result differs from the precise truth on a reachable state. */
	FAIL_WRONG_ANSWER,
	/* The documented under/over promise broken only at an edge no settled counter reaches. */
	FAIL_CONTRACT,
	/* Signal, sanitizer, hang. */
	FAIL_CRASH,
	NR_FAIL_CLASSES
};

static inline const char *fail_class_name(unsigned int cls)
{
	static const char *const names[NR_FAIL_CLASSES] = {
		[FAIL_WRONG_ANSWER] = "wrong-answer",
		[FAIL_CONTRACT] = "contract",
		[FAIL_CRASH] = "crash",
	};

	return cls < NR_FAIL_CLASSES ? names[cls] : "?";
}

/* The closing totals' counts, in this order: contract, wrong-answer, crash. */
#define FAIL_CLASS_TOTALS " contract:%lu wrong-answer:%lu crash:%lu"
#define FAIL_CLASS_TOTALS_ARGS(by) \
	(unsigned long)(by)[FAIL_CONTRACT], (unsigned long)(by)[FAIL_WRONG_ANSWER], \
	(unsigned long)(by)[FAIL_CRASH]

#endif
