// SPDX-License-Identifier: MIT
/* fuzz_import_fio.c: libFuzzer target: any bytes through the fio JSON (json, json+, client/server, text before the JSON) importer, then compare and
 * its renderers: refused (one line, -FSLAB_EINPUT) or read, never a crash, undefined behaviour
 * or a leak. */
#include "tests/fuzz/fuzz_import.h"

/* the importer under test (src/compare/import_fio.c; import.c lists it) */
extern const struct importer import_fio;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_import(&import_fio, data, size);
}
