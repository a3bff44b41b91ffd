// SPDX-License-Identifier: MIT
/*
 * demo.c: `fslab demo`: the demo lab from any directory, installed or not.  It is `fslab lab`
 * with the demo config shipped with fslab (configs/demo.ini; fslab.exe: configs/windows-demo.ini),
 * found beside the binary or in ../share/fslab (share.h): /usr/share/fslab/configs/ for the
 * Debian package, whose examples under /usr/share/doc may be left out by dpkg's path-exclude.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "cmds.h"
#include "lab/labP.h"
#include "lib/msg.h"
#include "lib/opt.h"
#include "os/share.h"

#ifdef _WIN32
#define DEMO_CONFIG "configs/windows-demo.ini"
#define DEMO_WHAT "two folders of C: compared, no disk formatted"
#else
#define DEMO_CONFIG "configs/demo.ini"
#define DEMO_WHAT "ext4 against XFS on loop devices (as root)"
#endif

/* none taken, but each one refused by name (a config: the shipped one runs) */
static const struct opt_pos demo_pos[] = {
	{ .name = "CONFIG", .arg = OPT_NONE },
	{ NULL },
};

/* fslab lab's options: the demo hands them on */
const struct opt_cmd demo_opt_cmd = {
	.name = "demo",
	.opts = lab_opts,
	.pos = demo_pos,
	.head =
"usage: fslab demo [--output DIR] [--resume] [--dry-run]\n"
"\n"
"Run the demo lab shipped with fslab: " DEMO_WHAT ".\n"
"The same as 'fslab lab " DEMO_CONFIG "', from any directory: the config is found next\n"
"to the fslab binary or in ../share/fslab/ from its directory (installed:\n"
"/usr/share/fslab/" DEMO_CONFIG "); its comments say what it runs and why.  The report\n"
"lands in DIR/report/ (report.html, report.md).\n"
"\n",
	.tail = "\n"
"Exit status: as fslab lab: 0 ok, 1 failure or interrupted, 2 bad input.\n",
	.col = 17,
	.width = 87,
};

/* --help, or an argument (a config: refused); the options themselves are fslab lab's to
 * take.  -1 to go on, else the exit status. */
static int demo_args(int argc, char **argv)
{
	struct lab_args a = { 0 };
	char **av = xcalloc((size_t)argc + 1, sizeof(char *));
	int first, ret;

	/* getopt_long reorders what it parses: fslab lab gets them as given */
	memcpy(av, argv, (size_t)argc * sizeof(char *));
	ret = opt_parse(&demo_opt_cmd, &a, argc, av, &first);
	if (!ret && first < argc) {
		fslab_err("fslab demo takes no config ('%s'): it runs the shipped one; run "
			  "your own with 'fslab lab %s'", av[first], av[first]);
		ret = -FSLAB_EINPUT;
	}
	free(av);
	return ret == 1 ? FSLAB_EXIT_OK : ret ? FSLAB_EXIT_USAGE : -1;
}

int cmd_demo(int argc, char **argv)
{
	char *config, **lab_argv;
	int ret = demo_args(argc, argv);

	if (ret >= 0)
		return ret;
	config = share_find(DEMO_CONFIG, NULL);
	if (!config) {
		fslab_err("the demo config (%s) was not found " SHARE_PLACES ": reinstall fslab (the "
			  "Debian package puts it in /usr/share/fslab/), or run a config of your own "
			  "with 'fslab lab CONFIG'", DEMO_CONFIG);
		return FSLAB_EXIT_FAIL;
	}
	fslab_info("demo: fslab lab %s", config);
	lab_argv = xcalloc((size_t)argc + 2, sizeof(*lab_argv));
	lab_argv[0] = argv[0];
	lab_argv[1] = config;
	for (int i = 1; i < argc; i++)
		lab_argv[i + 1] = argv[i];
	ret = cmd_lab(argc + 1, lab_argv);
	free(lab_argv);
	free(config);
	return ret;
}
