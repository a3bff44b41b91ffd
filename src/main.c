// SPDX-License-Identifier: MIT
/* main.c: the fslab binary: dispatch to subcommands. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "about.h"
#include "base.h"
#include "cmds.h"
#include "msg.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} cmds[] = {
#ifdef _WIN32
	/* fslab.exe (docs/WINDOWS.md): Windows disks through PowerShell */
	{ "prep", cmd_prep, "format NTFS or ReFS database and log volumes on Windows disks" },
	{ "teardown", cmd_teardown, "remove what prep made" },
#else
	{ "prep", cmd_prep, "format and mount separate database and log volumes" },
	{ "teardown", cmd_teardown, "unmount and detach what prep made" },
#endif
	{ "run", cmd_run, "drive a Jetstress-like (or simple) load, write a result file" },
	{ "compare", cmd_compare, "tables, charts and a report from result files" },
	{ "sizing", cmd_sizing, "mailboxes supported from achieved IOPS" },
	{ "export", cmd_export, "the run's load as a fio job file or a DiskSpd script" },
	{ "selftest", cmd_selftest, "check on this machine and volume what the numbers rest on" },
	{ "merge", cmd_merge, "one cell's results of several hosts into one cluster result" },
	{ "lab", cmd_lab, "prep + run + compare for several filesystems from one config" },
#ifdef _WIN32
	{ "demo", cmd_demo, "the demo lab: two folders of C: compared, with an A/A copy" },
#else
	{ "demo", cmd_demo, "the demo lab: ext4 vs XFS on loop devices, then a report" },
#endif
#ifndef _WIN32
	{ "hosts", cmd_hosts, "check a lab config's [host] sections: ssh, versions, clocks" },
#endif
};

/* What the lab's controller runs on its hosts over ssh (docs/HOSTS.md), listed apart. */
static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} remote_cmds[] = {
	{ "hello", cmd_hello, "version, system and the arguments as received (one JSON line)" },
	{ "clock", cmd_clock, "the wall clock for each line read (clock offsets)" },
	{ "cat-result", cmd_cat_result, "a result file with its size and sha256" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: fslab <command> [options]   (fslab <command> --help for details)\n\n");
	for (size_t i = 0; i < ARRAY_SIZE(cmds); i++)
		fprintf(f, "  %-9s %s\n", cmds[i].name, cmds[i].help);
	fprintf(f, "\nRun on a lab's hosts by its controller over ssh:\n");
	for (size_t i = 0; i < ARRAY_SIZE(remote_cmds); i++)
		fprintf(f, "  %-10s %s\n", remote_cmds[i].name, remote_cmds[i].help);
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
	for (size_t i = 0; i < ARRAY_SIZE(cmds); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return version_asked(argc, argv) ? fslab_print_version(stdout) != 0
							 : cmds[i].fn(argc - 1, argv + 1);
	for (size_t i = 0; i < ARRAY_SIZE(remote_cmds); i++)
		if (!strcmp(argv[1], remote_cmds[i].name))
			return version_asked(argc, argv) ? fslab_print_version(stdout) != 0
							 : remote_cmds[i].fn(argc - 1, argv + 1);
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
