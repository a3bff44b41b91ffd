/* SPDX-License-Identifier: MIT */
/* msg.h: messages for the user on stderr: errors, warnings, information (docs/DESIGN.md). */
#ifndef FSLAB_MSG_H
#define FSLAB_MSG_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/base.h"

/*
 * Messages go to stderr as one line each, prefixed "fslab: error: " / "fslab: warning: " /
 * "fslab: ", written at once so that concurrent messages do not interleave mid-line.
 */
void fslab_err(const char *fmt, ...) __printf(1, 2);
void fslab_warn(const char *fmt, ...) __printf(1, 2);
void fslab_info(const char *fmt, ...) __printf(1, 2);
/* Prints like fslab_err() and returns -FSLAB_EINPUT, for "return input_error(...)". */
int input_error(const char *fmt, ...) __printf(1, 2);
/*
 * The message functions above show what a terminal would act on escaped (str_escape()), so
 * input quoted in a message (file names, fields of results and reports) never reaches the
 * terminal as control sequences; a newline in an argument is escaped too, unless the format
 * itself has one (a message that quotes a tool's output whole, lines kept).
 */
/* Silences fslab_info() (fslab_err/fslab_warn always print). */
void fslab_set_quiet(bool quiet);

/*
 * utf8_len - length (1-4) of the valid UTF-8 sequence at s, or 0 when none starts there (a
 * stray continuation byte, an overlong form, a surrogate, beyond U+10FFFF, cut short).
 */
size_t utf8_len(const char *s);
/*
 * str_escape - s for a message or a comment line: C0 controls and DEL as \n, \r, \t or \xNN,
 * C1 controls (U+0080..U+009F: CSI, OSC, ...) and bytes that are not UTF-8 as \xNN per byte;
 * all else as it is (valid UTF-8 included; a backslash is not doubled: this is for people).
 * Heap, caller frees.
 */
char *str_escape(const char *s);

#endif
