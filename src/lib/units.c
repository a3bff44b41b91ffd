// SPDX-License-Identifier: MIT
/* units.c: the values users write and read: sizes, durations, numbers, times, labels. */
#include "lib/units.h"
#include "lib/base.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* Multiplier for a unit suffix, or 0 if unknown.  Binary units throughout. */
static uint64_t size_unit(const char *u)
{
	static const struct {
		const char *s;
		uint64_t mul;
	} units[] = {
		{ "", 1 }, { "b", 1 },
		{ "k", KiB }, { "kb", KiB }, { "kib", KiB },
		{ "m", MiB }, { "mb", MiB }, { "mib", MiB },
		{ "g", GiB }, { "gb", GiB }, { "gib", GiB },
		{ "t", GiB * KiB }, { "tb", GiB * KiB }, { "tib", GiB * KiB },
	};
	for (size_t i = 0; i < ARRAY_SIZE(units); i++)
		if (!strcasecmp(u, units[i].s))
			return units[i].mul;
	return 0;
}

int parse_size(const char *s, uint64_t *out)
{
	unsigned long long v;
	uint64_t mul;
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	mul = size_unit(end);
	if (!mul)
		return -EINVAL;
	if (v > UINT64_MAX / mul)
		return -EINVAL;
	*out = v * mul;
	return 0;
}

int parse_duration(const char *s, uint64_t *ns)
{
	static const struct {
		const char *s;
		uint64_t mul;
	} units[] = {
		/* longest first so "ms" is not read as "m" */
		{ "ms", NSEC_PER_MSEC }, { "us", NSEC_PER_USEC },
		{ "s", NSEC_PER_SEC }, { "m", 60 * NSEC_PER_SEC },
		{ "h", 3600 * NSEC_PER_SEC }, { "d", 86400 * NSEC_PER_SEC },
	};
	uint64_t total = 0;
	const char *p = s;
	bool any = false;

	if (!s || !*s)
		return -EINVAL;
	while (*p) {
		unsigned long long v;
		uint64_t mul = 0;
		char *end;
		size_t i;

		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		errno = 0;
		v = strtoull(p, &end, 10);
		if (errno)
			return -EINVAL;
		if (!*end) {
			if (any) /* "1h30" is ambiguous */
				return -EINVAL;
			mul = NSEC_PER_SEC;
			p = end;
		} else {
			for (i = 0; i < ARRAY_SIZE(units); i++) {
				size_t l = strlen(units[i].s);

				if (!strncmp(end, units[i].s, l) &&
				    (end[l] == 0 || isdigit((unsigned char)end[l]))) {
					mul = units[i].mul;
					p = end + l;
					break;
				}
			}
			if (!mul)
				return -EINVAL;
		}
		if (v > (UINT64_MAX - total) / mul)
			return -EINVAL;
		total += v * mul;
		any = true;
	}
	*ns = total;
	return 0;
}

int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int parse_list_u64(const char *s, uint64_t *out, int max)
{
	int n = 0;
	const char *p = s;

	if (!s || !*s)
		return -EINVAL;
	for (;;) {
		unsigned long long v;
		char *end;

		while (*p == ' ')
			p++;
		if (!isdigit((unsigned char)*p) || n >= max)
			return -EINVAL;
		errno = 0;
		v = strtoull(p, &end, 10);
		if (errno)
			return -EINVAL;
		out[n++] = v;
		p = end;
		while (*p == ' ')
			p++;
		if (!*p)
			return n;
		if (*p++ != ',')
			return -EINVAL;
	}
}

char *fmt_size(char *buf, size_t len, uint64_t b)
{
	static const char *const u[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)b;
	int i = 0;

	while (v >= 1024 && i < (int)ARRAY_SIZE(u) - 1) {
		v /= 1024;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%llu B", (unsigned long long)b);
	else if (v == (double)(uint64_t)v)
		snprintf(buf, len, "%llu %s", (unsigned long long)v, u[i]);
	else
		snprintf(buf, len, "%.1f %s", v, u[i]);
	return buf;
}

char *fmt_duration(char *buf, size_t len, uint64_t ns)
{
	uint64_t s = ns / NSEC_PER_SEC;

	if (ns < NSEC_PER_SEC)
		snprintf(buf, len, "%llums", (unsigned long long)(ns / NSEC_PER_MSEC));
	else if (s < 60 && ns % NSEC_PER_SEC)
		snprintf(buf, len, "%.1fs", (double)ns / NSEC_PER_SEC);
	else if (s < 3600)
		snprintf(buf, len, s % 60 && s >= 60 ? "%llum%02llus" : (s >= 60 ? "%llum" : "%llus"),
			 (unsigned long long)(s >= 60 ? s / 60 : s), (unsigned long long)(s % 60));
	else if (s % 3600 == 0)
		snprintf(buf, len, "%lluh", (unsigned long long)(s / 3600));
	else
		snprintf(buf, len, "%lluh%02llum", (unsigned long long)(s / 3600),
			 (unsigned long long)(s % 3600 / 60));
	return buf;
}

char *fmt_hms(char *buf, size_t len, double secs)
{
	unsigned int s = secs > 0 ? (unsigned int)MIN(secs + 0.5, 359999.0) : 0;

	snprintf(buf, len, "%02u:%02u:%02u", s / 3600 % 100, s / 60 % 60, s % 60);
	return buf;
}

char *iso8601_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
}

const char *label_problem(const char *label)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
				  "._+-";
	size_t n = strnlen(label, 65);

	if (!n)
		return "a label cannot be empty";
	if (n > 64)
		return "a label has at most 64 characters";
	if (strspn(label, set) != n)
		return "a label has only letters, digits, '.', '_', '+' and '-'";
	if (!isalnum((unsigned char)label[0]))
		return "a label starts with a letter or a digit";
	return NULL;
}

