/* SPDX-License-Identifier: MIT */
/*
 * util.h: transitional: the headers util.c was split into (issue 19), all at once, for the
 * files other branches are rewriting now (src/lab/, src/os/win32.c, src/compare/report.c,
 * words.c, doc.c, setup.c, plot.c).  Every other file includes what it uses: base.h (error
 * convention, macros, allocation), msg.h, units.h, files.h, random.h, crc32c.h, os/os.h.
 * Removed once those files include what they use.
 */
#ifndef FSLAB_UTIL_H
#define FSLAB_UTIL_H

#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <sys/types.h>

#include "base.h"
#include "crc32c.h"
#include "files.h"
#include "msg.h"
#include "os/os.h"
#include "random.h"
#include "units.h"

/* os_run() and os_have_program() under their former names */
static inline __must_check int run_cmd(const char *const argv[], char **out)
{
	return os_run(argv, out);
}

static inline bool have_program(const char *name)
{
	return os_have_program(name);
}

#endif
