// SPDX-License-Identifier: MIT
/* run.c: placeholder until implemented. */
#include "cmds.h"
#include "util.h"

int cmd_run(int argc, char **argv)
{
	(void)argc;
	fslab_err("%s: not implemented yet", argv[0]);
	return FSLAB_EXIT_FAIL;
}
