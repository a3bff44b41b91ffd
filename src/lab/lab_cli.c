// SPDX-License-Identifier: MIT
/* lab_cli.c: the options of `fslab lab` (its table, opt.h) and its --help. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmds.h"
#include "fsprep/prep.h"
#include "lab/labP.h"
#include "lib/opt.h"

static void lab_head(FILE *f)
{
	char *titles = fs_list(PREP_WINDOWS, FSL_TITLES, "%s", ", ", " or ");

	fprintf(f,
"usage: fslab lab CONFIG.ini [--resume] [--dry-run] [--output DIR]\n"
"\n"
"Run the whole experiment of a lab config: for each filesystem, thread count and repeat\n"
"(a cell): prep the database and log devices, initialise the databases, drop caches, run\n"
"the identical load, keep the result, tear down; then compare all results into one report.\n"
"Cells run in rounds (round r = repeat r of every filesystem and thread count), shuffled\n"
"inside each round unless [lab] order says otherwise; lab.log and lab-plan.json record the\n"
"order and its seed.\n"
"With [lab] precision = P%% the lab is adaptive: from min_rounds on it looks after every\n"
"round and stops when every claim's minimum detectable difference is at most P, or when\n"
"the next round would not fit [lab] budget (widths only, never p-values).  With [lab]\n"
"stop = decided it stops when every claim is different, equivalent within [lab]\n"
"equivalence (default 5%%) or negligible, its tests held to group-sequential boundaries\n"
"that pay for the looks (docs/COMPARE.md, \"Deciding\").\n"
"A label with db_dir/log_dir runs on volumes you prepared: no prep, no format, no\n"
"teardown; each cell deletes and re-creates only its own databases and logs there.\n"
"fslab.exe on Windows preps [devices] db_disk/log_disk as %s for every cell.\n"
"With [host NAME] sections every cell runs on every host at once over ssh: each host's\n"
"prep, runs started together (fslab run --start-at), each result fetched with its sha256\n"
"to results/CELL.HOST.json and merged into results/CELL.json, teardown; every host is\n"
"checked first (fslab hosts CONFIG check, and its prep as a dry run there).  A host lost\n"
"mid-cell leaves a partial cluster result and stops the lab; --resume tears it down when\n"
"it is back (docs/HOSTS.md).\n"
"\n", titles);
	free(titles);
}

#define LA(f) .off = offsetof(struct lab_args, f)

const struct opt_def lab_opts[] = {
	{ .name = "output", .arg = OPT_DIR, .metavar = "DIR",
	  .help = "where results, logs, state and the report go (default: the config's [lab] "
		  "output, else ./lab-<config name>)",
	  .ini = "lab.output", .store = OPT_STR, LA(output) },
	{ .name = "resume",
	  .help = "continue an interrupted lab in DIR: finished cells are kept, the others run in "
		  "the order the lab recorded (a changed config is refused)",
	  .store = OPT_TRUE, LA(resume) },
	{ .name = "dry-run", .help = "print the plan and the preflight checks; change nothing",
	  .store = OPT_TRUE, LA(dry_run) },
	{ .name = NULL },
};

static const struct opt_pos lab_pos[] = {
	{ .name = "CONFIG.ini", .arg = OPT_INI },
	{ NULL },
};

const struct opt_cmd lab_opt_cmd = {
	.name = "lab",
	.opts = lab_opts,
	.pos = lab_pos,
	.head_fn = lab_head,
	.tail = "\n"
"Ctrl-C stops the current cell (its step's standard input is closed), unmounts and\n"
"detaches what the lab made, keeps finished results and prints how to resume (a second\n"
"Ctrl-C kills the step, still cleaning up).\n"
"SIGTERM, a closed terminal or ssh session (SIGHUP) and a gone reader of its output\n"
"(SIGPIPE) stop it the same way; lab.log and the next start say how to resume.\n"
"DIR must be new, empty, or a lab's own directory (fslab lab marks it): anything else is\n"
"refused, so that no file of yours is overwritten or removed.\n"
"See configs/template.ini for every key.\n",
	.col = 17,
	.width = 87,
};

int lab_args(struct lab *L, int argc, char **argv, const char **config, const char **out_opt)
{
	struct lab_args a = { 0 };
	int first, ret = opt_parse(&lab_opt_cmd, &a, argc, argv, &first);

	if (ret)
		return ret == 1 ? FSLAB_EXIT_OK : FSLAB_EXIT_USAGE;
	if (first != argc - 1) {
		fslab_err("give exactly one lab config, e.g. 'fslab lab configs/demo.ini'; see "
			  "'fslab lab --help'");
		return FSLAB_EXIT_USAGE;
	}
	L->resume = a.resume;
	L->dry_run = a.dry_run;
	*out_opt = a.output;
	*config = argv[first];
	return -1;
}
