/* SPDX-License-Identifier: MIT */
/* utctime.h: UTC times as text both ways (ISO 8601 or epoch seconds), to the nanosecond, for
 * start times several hosts share (fslab run --start-at, fslab merge, the lab's hosts). */
#ifndef FSLAB_UTCTIME_H
#define FSLAB_UTCTIME_H

#include <stddef.h>
#include <stdint.h>

/*
 * utc_parse - s as nanoseconds since 1970-01-01 UTC into *ns.  Takes ISO 8601 with a zone
 * ("2026-12-03T14:05:00Z", "2026-12-03T14:05:00.25Z", "2026-12-03 15:05:00+01:00", "+0100",
 * minutes "14:05Z") or epoch seconds ("1796306700", "1796306700.5"); at most 9 decimals.  A
 * time without a zone is refused (local time would differ from host to host).  Years 1970 to
 * 2199 (nanoseconds since 1970 fit 64 bits until 2262).  0, or -EINVAL.
 */
int utc_parse(const char *s, int64_t *ns);
/* utc_format - ns as "2026-12-03T14:05:00.123456Z" (microseconds) into buf (>= 32 bytes);
 * returns buf. */
char *utc_format(char *buf, size_t len, int64_t ns);

#endif
