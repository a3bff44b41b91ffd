// SPDX-License-Identifier: MIT
/* main.c: the fslab binary: dispatch to subcommands. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "about.h"
#include "lib/base.h"
#include "cmds.h"
#include "lib/msg.h"

static void usage(FILE *f)
{
	const struct fslab_cmd *c;

	fprintf(f, "usage: fslab <command> [options]   (fslab <command> --help for details)\n\n");
	for (size_t i = 0; (c = fslab_cmd_at(i)); i++)
		if (!c->remote && !c->hidden)
			fprintf(f, "  %-9s %s\n", c->name, c->help);
	fprintf(f, "\nRun on a lab's hosts by its controller over ssh:\n");
	for (size_t i = 0; (c = fslab_cmd_at(i)); i++)
		if (c->remote && !c->hidden)
			fprintf(f, "  %-10s %s\n", c->name, c->help);
	fprintf(f, "\n  version   the version, git description, back ends, libraries and system\n"
		   "            (also --version, and fslab <command> --version)\n"
		   "\nExit status: 0 ok, 1 failure or aborted, 2 bad input (nothing changed),\n"
		   "3 run completed but the Jetstress-style verdict is FAIL.\n");
}

static bool version_asked(int argc, char **argv)
{
	return argc == 3 && !strcmp(argv[2], "--version");
}

static int fslab_main(int argc, char **argv)
{
	const struct fslab_cmd *cmd;

	if (argc < 2) {
		usage(stderr);
		return FSLAB_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return FSLAB_EXIT_OK;
	}
	if (!strcmp(argv[1], "version") || !strcmp(argv[1], "--version"))
		return fslab_print_version(stdout) ? FSLAB_EXIT_FAIL : FSLAB_EXIT_OK;
	/* fslab CMD --version: --version alone, as the commands' --help is alone for the
	 * lab's remote commands (among other arguments it may be an option's value) */
	cmd = fslab_cmd_find(argv[1]);
	if (cmd)
		return version_asked(argc, argv) ? fslab_print_version(stdout) != 0
						 : cmd->fn(argc - 1, argv + 1);
	fslab_err("unknown command '%s'; run 'fslab --help' for the list", argv[1]);
	return FSLAB_EXIT_USAGE;
}

#ifdef _WIN32
#include <windows.h>

/*
 * Windows hands the command line over in UTF-16: argv becomes UTF-8 here, as every path in
 * fslab is (the platform layer widens them again), and the console shows UTF-8.
 */
int wmain(int argc, wchar_t **wargv);
int wmain(int argc, wchar_t **wargv)
{
	char **argv = xcalloc((size_t)argc + 1, sizeof(char *));

	SetConsoleOutputCP(CP_UTF8);
	for (int i = 0; i < argc; i++) {
		int n = WideCharToMultiByte(CP_UTF8, 0, wargv[i], -1, NULL, 0, NULL, NULL);

		argv[i] = xmalloc(n > 0 ? (size_t)n : 1);
		argv[i][0] = 0;
		WideCharToMultiByte(CP_UTF8, 0, wargv[i], -1, argv[i], n, NULL, NULL);
	}
	return fslab_main(argc, argv);
}
#else
int main(int argc, char **argv)
{
	return fslab_main(argc, argv);
}
#endif
