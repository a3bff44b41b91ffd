// SPDX-License-Identifier: MIT
/* lab.c: placeholder until implemented. */
#include "cmds.h"
#include "util.h"

int cmd_lab(int argc, char **argv)
{
	(void)argc;
	fslab_err("%s: not implemented yet", argv[0]);
	return FSLAB_EXIT_FAIL;
}
