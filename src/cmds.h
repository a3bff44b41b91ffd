/* SPDX-License-Identifier: MIT */
/* cmds.h: the fslab subcommands.  Each parses its own argv (argv[0] is the subcommand name)
 * and returns the process exit status (FSLAB_EXIT_*); only main() exits. */
#ifndef FSLAB_CMDS_H
#define FSLAB_CMDS_H

#include <stdbool.h>

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
int cmd_export(int argc, char **argv);   /* src/run/export.c */
int cmd_lab(int argc, char **argv);      /* src/lab/lab.c */
int cmd_demo(int argc, char **argv);     /* src/lab/demo.c: fslab lab with the demo config */
int cmd_selftest(int argc, char **argv); /* src/selftest/selftest.c */
int cmd_merge(int argc, char **argv);    /* src/merge/merge_cli.c */
/* run on a host by the lab's controller over ssh (src/remote/remote.c, both systems) */
int cmd_hello(int argc, char **argv);
int cmd_clock(int argc, char **argv);
int cmd_cat_result(int argc, char **argv);
int cmd_hosts(int argc, char **argv);    /* src/lab/hosts_cli.c */

#endif
