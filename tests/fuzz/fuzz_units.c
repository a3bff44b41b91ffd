// SPDX-License-Identifier: MIT
/* fuzz_units.c: libFuzzer target: the size and duration parsers (parse_size, parse_duration)
 * and the label check on any string: a value or a refusal, never overflow or a crash.  A
 * parsed value printed and parsed again gives the same value. */
#include "tests/fuzz/fuzz.h"

#include "lib/units.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size), buf[32];
	uint64_t v, w;

	if (!parse_size(s, &v)) {
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
		if (parse_size(buf, &w) || w != v)
			abort(); /* a size it accepted does not read back */
	}
	if (!parse_duration(s, &v)) {
		snprintf(buf, sizeof(buf), "%llums", (unsigned long long)(v / 1000000));
		(void)parse_duration(buf, &w);
	}
	(void)label_problem(s);
	free(s);
	return 0;
}
