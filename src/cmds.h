/* SPDX-License-Identifier: MIT */
/* cmds.h: the fslab subcommands.  Each parses its own argv (argv[0] is the subcommand name)
 * and returns the process exit status (FSLAB_EXIT_*); only main() exits. */
#ifndef FSLAB_CMDS_H
#define FSLAB_CMDS_H

#include <stdbool.h>
#include <stddef.h>

struct opt_cmd;

/* fsprep/backend.c, both systems: hand the arguments to the prep backend they ask for
 * (fsprep/prep.h) */
int cmd_prep(int argc, char **argv);
int cmd_teardown(int argc, char **argv);
/* the backends' own: Linux devices (fsprep/prep_cli.c), Windows disks (the storage backend,
 * fsprep/win/winprep_cli.c; fslab.exe calls these) */
int cmd_linuxprep(int argc, char **argv);
int cmd_linuxteardown(int argc, char **argv);
int cmd_winprep(int argc, char **argv);
int cmd_winteardown(int argc, char **argv);
int cmd_run(int argc, char **argv);      /* src/run/run.c */
int cmd_compare(int argc, char **argv);  /* src/compare/compare_cli.c */
int cmd_sizing(int argc, char **argv);   /* src/compare/compare_cli.c */
int cmd_export(int argc, char **argv);   /* src/export/export.c */
int cmd_lab(int argc, char **argv);      /* src/lab/lab.c */
int cmd_demo(int argc, char **argv);     /* src/lab/demo.c: fslab lab with the demo config */
int cmd_selftest(int argc, char **argv); /* src/selftest/selftest.c */
int cmd_merge(int argc, char **argv);    /* src/merge/merge_cli.c */
/* run on a host by the lab's controller over ssh (src/remote/remote.c, both systems) */
int cmd_hello(int argc, char **argv);
int cmd_clock(int argc, char **argv);
int cmd_cat_result(int argc, char **argv);
int cmd_hosts(int argc, char **argv);    /* src/lab/hosts_cli.c */
/* fslab __options (hidden): every command's options, as the bash completion needs them
 * (scripts/mkcompletion.sh; opt_dump()'s lines, each command's after "cmd NAME") */
int cmd_options(int argc, char **argv);  /* src/cmds.c */

/* The commands' option tables (opt.h), beside their cmd_X; prep's and teardown's are their
 * backends' (fsprep/prep.h). */
extern const struct opt_cmd compare_opt_cmd, sizing_opt_cmd, export_opt_cmd, selftest_opt_cmd,
	merge_opt_cmd, lab_opt_cmd, demo_opt_cmd, hosts_opt_cmd, hello_opt_cmd, clock_opt_cmd,
	cat_result_opt_cmd;

/* One subcommand (src/cmds.c, in `fslab --help` order). */
struct fslab_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;                   /* its line in fslab --help */
	const struct opt_cmd *opts;         /* its option table */
	const struct opt_cmd *(*opts_fn)(void); /* or the one it picks (prep, teardown) */
	bool remote;  /* run on a lab's hosts by its controller: listed apart */
	bool hidden;  /* not listed */
};

/* The i-th command, NULL past the last; the one called name, or NULL. */
const struct fslab_cmd *fslab_cmd_at(size_t i);
const struct fslab_cmd *fslab_cmd_find(const char *name);
/* Its option table (NULL: none). */
const struct opt_cmd *fslab_cmd_opts(const struct fslab_cmd *c);

#endif
