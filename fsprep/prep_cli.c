// SPDX-License-Identifier: MIT
/* prep_cli.c: placeholder until implemented. */
#include "cmds.h"
#include "util.h"

int cmd_prep(int argc, char **argv)
{
	(void)argc;
	fslab_err("%s: not implemented yet", argv[0]);
	return FSLAB_EXIT_FAIL;
}

int cmd_teardown(int argc, char **argv)
{
	(void)argc;
	fslab_err("%s: not implemented yet", argv[0]);
	return FSLAB_EXIT_FAIL;
}
