/* SPDX-License-Identifier: MIT */
/* msg.h: messages for the user on stderr: errors, warnings, information (docs/DESIGN.md). */
#ifndef FSLAB_MSG_H
#define FSLAB_MSG_H

#include <stdbool.h>

#include "base.h"

/*
 * Messages go to stderr as one line each, prefixed "fslab: error: " / "fslab: warning: " /
 * "fslab: ", written at once so that concurrent messages do not interleave mid-line.
 */
void fslab_err(const char *fmt, ...) __printf(1, 2);
void fslab_warn(const char *fmt, ...) __printf(1, 2);
void fslab_info(const char *fmt, ...) __printf(1, 2);
/* Prints like fslab_err() and returns -FSLAB_EINPUT, for "return input_error(...)". */
int input_error(const char *fmt, ...) __printf(1, 2);
/* Silences fslab_info() (fslab_err/fslab_warn always print). */
void fslab_set_quiet(bool quiet);

#endif
