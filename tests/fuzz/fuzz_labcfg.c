// SPDX-License-Identifier: MIT
/* fuzz_labcfg.c: libFuzzer target: any bytes as a lab config (lab_cfg_load, inih): refused
 * with file:line or loaded, never a crash or a leak. */
#include "tests/fuzz/fuzz.h"

#include "lab/labcfg.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lab_cfg cfg;
	char path[64];
	int fd = fuzz_file(data, size, path, sizeof(path));

	if (fd < 0)
		return 0;
	if (!lab_cfg_load(&cfg, path))
		(void)lab_cfg_ncells(&cfg);
	lab_cfg_release(&cfg);
	close(fd);
	return 0;
}
