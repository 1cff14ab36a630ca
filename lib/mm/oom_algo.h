/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The OOM selections (docs/spec/oom.md, docs/oom.md) and their names, the
 * one list of both: lib/mm's table and the files built without lib/mm
 * (the explorer's --algo choices, the adapt build) initialise theirs from
 * OOM_ALGO_NAMES.
 */
#ifndef _MM_OOM_ALGO_H
#define _MM_OOM_ALGO_H

enum oom_algo {
	OOM_ALGO_PRECISE,	/* merged fix / mm-new: one precise pass */
	OOM_ALGO_V16,		/* v16 3/3 two-pass */
	OOM_ALGO_BOUNDED,	/* two-pass with a monotone floor */
	OOM_NR_ALGOS
};

/* An initialiser: the name of each enum oom_algo, by its value. */
#define OOM_ALGO_NAMES {				\
	[OOM_ALGO_PRECISE]	= "precise",		\
	[OOM_ALGO_V16]		= "v16",		\
	[OOM_ALGO_BOUNDED]	= "bounded",		\
}

#endif /* _MM_OOM_ALGO_H */
