// SPDX-License-Identifier: MIT
/* main.c: the fslab binary: dispatch to subcommands. */
#include <stdio.h>
#include <string.h>

#include "cmds.h"
#include "util.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} cmds[] = {
	{ "prep", cmd_prep, "format and mount separate database and log volumes" },
	{ "teardown", cmd_teardown, "unmount and detach what prep made" },
	{ "run", cmd_run, "drive a Jetstress-like (or simple) load, write a result file" },
	{ "compare", cmd_compare, "tables, charts and a report from result files" },
	{ "sizing", cmd_sizing, "mailboxes supported from achieved IOPS" },
	{ "export", cmd_export, "the run's load as a fio job file or a DiskSpd script" },
	{ "lab", cmd_lab, "prep + run + compare for several filesystems from one config" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: fslab <command> [options]   (fslab <command> --help for details)\n\n");
	for (size_t i = 0; i < ARRAY_SIZE(cmds); i++)
		fprintf(f, "  %-9s %s\n", cmds[i].name, cmds[i].help);
	fprintf(f, "\n  version   print the version\n"
		   "\nExit status: 0 ok, 1 failure or aborted, 2 bad input (nothing changed),\n"
		   "3 run completed but the Jetstress-style verdict is FAIL.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return FSLAB_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return FSLAB_EXIT_OK;
	}
	if (!strcmp(argv[1], "version") || !strcmp(argv[1], "--version")) {
		printf("fslab %s (%s)\n", FSLAB_VERSION, FSLAB_GIT);
		return FSLAB_EXIT_OK;
	}
	for (size_t i = 0; i < ARRAY_SIZE(cmds); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	fslab_err("unknown command '%s'; run 'fslab --help' for the list", argv[1]);
	return FSLAB_EXIT_USAGE;
}
