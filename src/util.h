/* SPDX-License-Identifier: MIT */
/*
 * util.h: transitional: the headers util.c was split into (issue 19), all at once, for src/lab/
 * only (another branch is rewriting it; it goes when src/lab/ includes what it uses).  Every
 * other file, the tests included, includes what it uses: base.h (error convention, macros,
 * allocation), msg.h, units.h, files.h, random.h, crc32c.h, os/os.h.
 */
#ifndef FSLAB_UTIL_H
#define FSLAB_UTIL_H

#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <sys/types.h>

#include "lib/base.h"
#include "lib/crc32c.h"
#include "lib/files.h"
#include "lib/msg.h"
#include "os/os.h"
#include "lib/random.h"
#include "lib/units.h"

/* os_run() and os_have_program() under their former names (src/lab/ still calls them so) */
static inline __must_check int run_cmd(const char *const argv[], char **out)
{
	return os_run(argv, out);
}

static inline bool have_program(const char *name)
{
	return os_have_program(name);
}

#endif
