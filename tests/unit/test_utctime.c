// SPDX-License-Identifier: MIT
/* test_utctime.c: UTC times in and out (fslab run --start-at, the merge's start times):
 * ISO 8601 forms with zones, epoch seconds, refusals, and text -> ns -> text round trips. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "lib/utctime.h"

static void test_parse(void **state)
{
	static const struct {
		const char *s;
		int64_t ns;
	} ok[] = {
		{ "1970-01-01T00:00:00Z", 0 },
		{ "2026-12-03T14:05:00Z", 1796306700LL * 1000000000 },
		{ "2026-12-03t14:05z", 1796306700LL * 1000000000 },
		{ "2026-12-03 14:05:00.25Z", 1796306700LL * 1000000000 + 250000000 },
		{ "2026-12-03T15:05:00+01:00", 1796306700LL * 1000000000 },
		{ "2026-12-03T09:35:00-0430", 1796306700LL * 1000000000 },
		{ "2026-12-03T14:05:00.123456789Z", 1796306700LL * 1000000000 + 123456789 },
		{ "2024-02-29T00:00:00Z", 1709164800LL * 1000000000 },
		{ "2000-03-01T00:00:00Z", 951868800LL * 1000000000 },
		{ "1796306700", 1796306700LL * 1000000000 },
		{ "1796306700.5", 1796306700LL * 1000000000 + 500000000 },
		{ "2199-12-31T23:59:59Z", 7258118399LL * 1000000000 },
	};
	static const char *const bad[] = {
		"", "now", "2026-12-03T14:05:00", /* no zone: local time would differ per host */
		"2026-12-03", "2026-13-01T00:00Z", "2026-02-29T00:00Z", "2100-02-29T00:00Z",
		"2026-12-32T00:00Z", "2026-12-03T24:00Z", "2026-12-03T14:60Z", "1969-12-31T23:59:59Z",
		"2026-12-03T14:05:00.Z", "2026-12-03T14:05:00.1234567890Z", "2026-12-03T14:05:00Zx",
		"2026-12-03T14:05:00+25:00", "1796306700.", "17963.06.700", "-5", "1e9",
		"99999999999999999999", "7258118400", "2200-01-01T00:00:00Z",
	};
	int64_t ns;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		ns = -1;
		assert_int_equal(utc_parse(ok[i].s, &ns), 0);
		if (ns != ok[i].ns)
			fail_msg("%s: %lld, expected %lld", ok[i].s, (long long)ns, (long long)ok[i].ns);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		if (utc_parse(bad[i], &ns) == 0)
			fail_msg("'%s' was accepted", bad[i]);
}

static void test_format_round_trip(void **state)
{
	char buf[40];
	int64_t ns;

	(void)state;
	assert_string_equal(utc_format(buf, sizeof(buf), 0), "1970-01-01T00:00:00.000000Z");
	assert_string_equal(utc_format(buf, sizeof(buf), 1796306700LL * 1000000000 + 250000999),
			    "2026-12-03T14:05:00.250000Z");
	/* every day boundary of four years, and odd microseconds */
	for (int64_t s = 1704067200; s < 1704067200 + 4 * 366 * 86400LL; s += 86400 - 7) {
		int64_t t = s * 1000000000LL + (s % 1000000) * 1000;

		utc_format(buf, sizeof(buf), t);
		assert_int_equal(utc_parse(buf, &ns), 0);
		assert_true(ns == t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_format_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
