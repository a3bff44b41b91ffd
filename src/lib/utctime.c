// SPDX-License-Identifier: MIT
/* utctime.c: UTC times as text both ways (utctime.h); the calendar arithmetic is Howard
 * Hinnant's days_from_civil/civil_from_days (proleptic Gregorian, no time zone database). */
#include "lib/utctime.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/base.h"

/* days since 1970-01-01 of y-m-d */
static int64_t days_from_civil(int64_t y, unsigned int m, unsigned int d)
{
	int64_t era;
	unsigned int yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned int)(y - era * 400);
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

static void civil_from_days(int64_t z, int64_t *y, unsigned int *m, unsigned int *d)
{
	int64_t era;
	unsigned int doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = (unsigned int)(z - era * 146097);
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = (int64_t)yoe + era * 400 + (*m <= 2);
}

/* exactly n digits at *p into *v; advances p */
static int digits(const char **p, int n, unsigned int *v)
{
	*v = 0;
	for (int i = 0; i < n; i++) {
		if ((*p)[i] < '0' || (*p)[i] > '9')
			return -EINVAL;
		*v = *v * 10 + (unsigned int)((*p)[i] - '0');
	}
	*p += n;
	return 0;
}

/* ".123" (1 to 9 digits) into ns; nothing there is 0 */
static int fraction(const char **p, int64_t *ns)
{
	int64_t scale = (int64_t)NSEC_PER_SEC;
	int n = 0;

	*ns = 0;
	if (**p != '.' && **p != ',')
		return 0;
	(*p)++;
	while (**p >= '0' && **p <= '9') {
		if (++n > 9)
			return -EINVAL;
		scale /= 10;
		*ns += (**p - '0') * scale;
		(*p)++;
	}
	return n ? 0 : -EINVAL;
}

static int epoch_seconds(const char *s, int64_t *ns)
{
	const char *p = s;
	int64_t sec = 0, frac;

	while (*p >= '0' && *p <= '9') {
		if (sec > (INT64_MAX / (int64_t)NSEC_PER_SEC) / 10)
			return -EINVAL;
		sec = sec * 10 + (*p++ - '0');
	}
	if (p == s || fraction(&p, &frac) || *p)
		return -EINVAL;
	/* before 2200-01-01, as the ISO form (nanoseconds in 64 bits end in 2262) */
	if (sec >= 7258118400LL)
		return -EINVAL;
	*ns = sec * (int64_t)NSEC_PER_SEC + frac;
	return 0;
}

int utc_parse(const char *s, int64_t *ns)
{
	static const unsigned char mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	unsigned int y, mo, d, h, mi, sec = 0, zh = 0, zm = 0;
	const char *p = s;
	int64_t frac = 0, t;
	int zsign = 0;

	if (!s || !*s)
		return -EINVAL;
	if (strspn(s, "0123456789.,") == strlen(s))
		return epoch_seconds(s, ns);
	if (digits(&p, 4, &y) || *p++ != '-' || digits(&p, 2, &mo) || *p++ != '-' ||
	    digits(&p, 2, &d) || (*p != 'T' && *p != 't' && *p != ' '))
		return -EINVAL;
	p++;
	if (digits(&p, 2, &h) || *p++ != ':' || digits(&p, 2, &mi))
		return -EINVAL;
	if (*p == ':') {
		p++;
		if (digits(&p, 2, &sec) || fraction(&p, &frac))
			return -EINVAL;
	}
	if (*p == 'Z' || *p == 'z') {
		p++;
	} else if (*p == '+' || *p == '-') {
		zsign = *p++ == '+' ? 1 : -1;
		if (digits(&p, 2, &zh))
			return -EINVAL;
		if (*p == ':')
			p++;
		if (*p && digits(&p, 2, &zm))
			return -EINVAL;
		if (zh > 23 || zm > 59)
			return -EINVAL;
	} else {
		return -EINVAL; /* no zone: refused */
	}
	if (*p || y < 1970 || y > 2199 || mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] ||
	    (mo == 2 && d == 29 && !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0))) || h > 23 ||
	    mi > 59 || sec > 60)
		return -EINVAL;
	/* a leap second (:60) reads as the next second's start, as POSIX time does */
	t = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec;
	t -= zsign * (int64_t)(zh * 3600 + zm * 60);
	if (t < 0)
		return -EINVAL;
	*ns = t * (int64_t)NSEC_PER_SEC + frac;
	return 0;
}

char *utc_format(char *buf, size_t len, int64_t ns)
{
	int64_t sec = ns >= 0 ? ns / (int64_t)NSEC_PER_SEC : -((-ns + 999999999) / 1000000000);
	int64_t sub = ns - sec * (int64_t)NSEC_PER_SEC, days = sec >= 0 ? sec / 86400
								    : -((-sec + 86399) / 86400);
	int64_t rem = sec - days * 86400, y;
	unsigned int m, d;

	civil_from_days(days, &y, &m, &d);
	snprintf(buf, len, "%04lld-%02u-%02uT%02u:%02u:%02u.%06uZ", (long long)y, m, d,
		 (unsigned int)(rem / 3600), (unsigned int)(rem / 60 % 60), (unsigned int)(rem % 60),
		 (unsigned int)(sub / 1000));
	return buf;
}
