// SPDX-License-Identifier: MIT
/* fuzz_result.c: libFuzzer target: any bytes through the result reader (result_read: JSON,
 * schema, every field), then back to JSON.  It must refuse or read, never crash or leak. */
#include "tests/fuzz/fuzz.h"

#include "result/result.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fslab_result r;
	char path[64];
	int fd = fuzz_file(data, size, path, sizeof(path));

	if (fd < 0)
		return 0;
	if (!result_read(path, &r)) {
		json_t *j = result_to_json(&r);

		json_decref(j);
	}
	result_release(&r);
	close(fd);
	return 0;
}
