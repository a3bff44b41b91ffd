// SPDX-License-Identifier: MIT
/* cmds.c: the subcommands of fslab, one table: name, function, one-line summary, option table
 * (cmds.h).  `fslab --help` lists them, main() dispatches through it, `fslab __options` dumps
 * every command's options for the bash completion. */
#include "cmds.h"

#include <stdio.h>
#include <string.h>

#include "lib/base.h"
#include "fsprep/prep.h"
#include "lib/opt.h"
#include "run/options.h"

/* prep and teardown: the table of the backend they hand bare arguments to (this system's) */
static const struct opt_cmd *prep_opts(void)
{
	static char name[] = "prep";
	char *argv[] = { name, NULL };

	return prep_backend_for(1, argv)->prep_opts;
}

static const struct opt_cmd *teardown_opts(void)
{
	static char name[] = "teardown";
	char *argv[] = { name, NULL };

	return prep_backend_for(1, argv)->teardown_opts;
}

#define CMD(n, f, h, o) { .name = n, .fn = f, .help = h, .opts = o }
#define REMOTE(n, f, h, o) { .name = n, .fn = f, .help = h, .opts = o, .remote = true }

static const struct fslab_cmd cmds[] = {
#ifdef _WIN32
	/* fslab.exe (docs/WINDOWS.md): Windows disks through PowerShell */
	{ .name = "prep", .fn = cmd_prep,
	  .help = "format NTFS or ReFS database and log volumes on Windows disks",
	  .opts_fn = prep_opts },
	{ .name = "teardown", .fn = cmd_teardown, .help = "remove what prep made",
	  .opts_fn = teardown_opts },
#else
	{ .name = "prep", .fn = cmd_prep,
	  .help = "format and mount separate database and log volumes", .opts_fn = prep_opts },
	{ .name = "teardown", .fn = cmd_teardown, .help = "unmount and detach what prep made",
	  .opts_fn = teardown_opts },
#endif
	CMD("run", cmd_run, "drive a Jetstress-like (or simple) load, write a result file",
	  &run_opt_cmd),
	CMD("compare", cmd_compare, "tables, charts and a report from result files",
	  &compare_opt_cmd),
	CMD("sizing", cmd_sizing, "mailboxes supported from achieved IOPS", &sizing_opt_cmd),
	CMD("export", cmd_export, "the run's load as a fio job file or a DiskSpd script",
	  &export_opt_cmd),
	CMD("selftest", cmd_selftest, "check on this machine and volume what the numbers rest on",
	  &selftest_opt_cmd),
	CMD("merge", cmd_merge, "one cell's results of several hosts into one cluster result",
	  &merge_opt_cmd),
	CMD("lab", cmd_lab, "prep + run + compare for several filesystems from one config",
	  &lab_opt_cmd),
#ifdef _WIN32
	CMD("demo", cmd_demo, "the demo lab: two folders of C: compared, with an A/A copy",
	  &demo_opt_cmd),
#else
	CMD("demo", cmd_demo, "the demo lab: ext4 vs XFS on loop devices, then a report",
	  &demo_opt_cmd),
#endif
#ifndef _WIN32
	CMD("hosts", cmd_hosts, "check a lab config's [host] sections: ssh, versions, clocks",
	  &hosts_opt_cmd),
#endif
	/* what the lab's controller runs on its hosts over ssh (docs/HOSTS.md), listed apart */
	REMOTE("hello", cmd_hello, "version, system and the arguments as received (one JSON line)",
	  &hello_opt_cmd),
	REMOTE("clock", cmd_clock, "the wall clock for each line read (clock offsets)",
	  &clock_opt_cmd),
	REMOTE("cat-result", cmd_cat_result, "a result file with its size and sha256",
	  &cat_result_opt_cmd),
	{ .name = "__options", .fn = cmd_options, .hidden = true },
};

const struct fslab_cmd *fslab_cmd_at(size_t i)
{
	return i < ARRAY_SIZE(cmds) ? &cmds[i] : NULL;
}

const struct fslab_cmd *fslab_cmd_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(cmds); i++)
		if (!strcmp(cmds[i].name, name))
			return &cmds[i];
	return NULL;
}

const struct opt_cmd *fslab_cmd_opts(const struct fslab_cmd *c)
{
	return c->opts_fn ? c->opts_fn() : c->opts;
}

int cmd_options(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	for (size_t i = 0; i < ARRAY_SIZE(cmds); i++) {
		const struct opt_cmd *o = fslab_cmd_opts(&cmds[i]);

		if (cmds[i].hidden || cmds[i].remote || !o)
			continue;
		printf("cmd %s\n", cmds[i].name);
		opt_dump(o, stdout);
	}
	return fflush(stdout) ? FSLAB_EXIT_FAIL : FSLAB_EXIT_OK;
}
