/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output.c: checked output to stdout and to files replaced whole.
 */
#ifndef _STRESS_OUTPUT_H
#define _STRESS_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include "config.h"

/*
 * output.c: checked output. Each failure prints "stress: cannot write
 * PATH: strerror" once; the process then exits 3 (stress_out_finish).
 */
bool stress_out_check(FILE *f, const char *path);	/* fflush + ferror: false on failure */
void stress_out_flush(FILE *f);		/* fflush; checked for stdout */
int stress_out_write(FILE *f, const char *path, const void *buf, size_t len);	/* 0 or -1 */
int stress_out_close(FILE *f, const char *path);	/* check + fclose: 0 or -1 */
/*
 * An output file (output.c): prepare before the run (0, or -1 after one
 * line: exit 2), then begin / write / commit once or more (-1 after one
 * line: exit 3), release at the end.
 */
struct stress_out {
	const char *path;	/* as given, for messages */
	char *target;		/* regular or new: replaced by rename; NULL: in place */
	int fd;			/* in place: opened before the run */
	mode_t mode;		/* of the file replaced */
	uid_t uid;		/* its owner and group, kept too */
	gid_t gid;
	bool keep_mode;
	FILE *f;
};
int stress_out_prepare(struct stress_out *o, const char *path);
FILE *stress_out_begin(struct stress_out *o);
int stress_out_commit(struct stress_out *o);
int stress_out_save(struct stress_out *o, const void *buf, size_t len);	/* begin+write+commit */
void stress_out_release(struct stress_out *o);
/* --json FILE and --replay-out FILE prepared into @cfg: 0, or -1 after one line (exit 2). */
int stress_outputs_prepare(struct stress_config *cfg);
bool stress_out_failed(void);
int stress_out_finish(int status);	/* close stdout: @status, or 3 after any failure */

#endif /* _STRESS_OUTPUT_H */
