// SPDX-License-Identifier: MIT
/* compare_cli.c: placeholder until implemented. */
#include "cmds.h"
#include "util.h"

int cmd_compare(int argc, char **argv)
{
	(void)argc;
	fslab_err("%s: not implemented yet", argv[0]);
	return FSLAB_EXIT_FAIL;
}

int cmd_sizing(int argc, char **argv)
{
	(void)argc;
	fslab_err("%s: not implemented yet", argv[0]);
	return FSLAB_EXIT_FAIL;
}
