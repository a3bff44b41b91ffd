/* SPDX-License-Identifier: MIT */
/* units.h: the values users write and read: sizes, durations, numbers, times, labels. */
#ifndef FSLAB_UNITS_H
#define FSLAB_UNITS_H

#include <stddef.h>
#include <stdint.h>

#include "lib/base.h"

/*
 * parse_size - "4096", "512K", "512M", "4G", "1T", "8GiB", "64k"; binary units (K = 1024).
 * Returns 0, or -EINVAL for anything else (empty, negative, fraction, trailing junk, overflow).
 */
int parse_size(const char *s, uint64_t *out) __must_check;
/*
 * parse_duration - "90", "90s", "500ms", "15m", "2h", "1h30m", "1d"; a bare number is seconds.
 * Stores nanoseconds.  Returns 0 or -EINVAL.
 */
int parse_duration(const char *s, uint64_t *ns) __must_check;
/* parse_u64 - a plain decimal in [min, max].  Returns 0, -EINVAL or -ERANGE. */
int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out) __must_check;
/* parse_list_u64 - "4,8,12" into out[] (at most max entries); returns count or -EINVAL. */
int parse_list_u64(const char *s, uint64_t *out, int max) __must_check;

/* "1.5 GiB", "512 MiB", "4 KiB", "100 B" into buf; returns buf. */
char *fmt_size(char *buf, size_t len, uint64_t bytes);
/* "2h", "1h30m", "90s", "1.5s", "250ms" into buf; returns buf. */
char *fmt_duration(char *buf, size_t len, uint64_t ns);
/* "HH:MM:SS" of secs (rounded, capped at 99:59:59) into buf; returns buf. */
char *fmt_hms(char *buf, size_t len, double secs);
/* CLOCK_REALTIME as "2026-12-02T11:52:41Z" into buf (>= 21 bytes). */
char *iso8601_now(char *buf, size_t len);

/*
 * label_problem - NULL when label is a usable result label: 1-64 characters from letters,
 * digits, '.', '_', '+' and '-', starting with a letter or digit (so it is safe as a file name,
 * in HTML, Markdown, CSV and gnuplot, and ".", ".." or "-x" cannot be one); else a static text
 * naming the rule it breaks.
 */
const char *label_problem(const char *label);

#endif
