// SPDX-License-Identifier: MIT
/* fuzz_import_jetstress.c: libFuzzer target: any bytes through the Jetstress HTML (libxml2's HTML parser) importer, then compare and
 * its renderers: refused (one line, -FSLAB_EINPUT) or read, never a crash, undefined behaviour
 * or a leak. */
#include "tests/fuzz/fuzz_import.h"

/* the importer under test (src/compare/import_jetstress.c; import.c lists it) */
extern const struct importer import_jetstress;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_import(&import_jetstress, data, size);
}
