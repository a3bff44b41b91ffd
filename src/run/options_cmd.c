// SPDX-License-Identifier: MIT
/* options_cmd.c: fslab run's option table as every command's parser reads it (src/lib/opt.h):
 * argv's parsing, --help and the completion from run_options[]; a run's options back into
 * argv (what the lab sends a step). */
#include "run/options.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "lib/msg.h"
#include "lib/opt.h"

static struct opt_def run_defs[RO_NR + 1];

static const char run_head[] =
	"usage: fslab run --db DIR [--db DIR2 ...] --log DIR [--log DIR2 ...] [options]\n"
	"\n"
	"Drive a seeded, Jetstress-like Exchange database load (or a simple calibration pattern)\n"
	"against the database and log directories for a fixed time and write one result file.\n\n";

static const char run_tail[] =
	"  Database page fault stalls (a session waiting for a free cache page because the lazy\n"
	"  writer is behind) fail the verdict above 1 per second on average.\n"
	"\n"
	"In a lab config (fslab lab), the [workload] section takes the options not set by the lab\n"
	"as keys with '_' for '-' (name for --workload; threads may be a list: one cell each).\n"
	"\n"
	"Exit status: 0 ok, 1 failure or interrupted (the result is still written, marked\n"
	"aborted), 2 bad input (nothing created), 3 completed but the verdict is FAIL.\n";

/* What a value of each type is, for the completion. */
static enum opt_arg arg_of(const struct run_option *o)
{
	switch (o->type) {
	case ROT_DIRS: return OPT_DIR;
	case ROT_CHOICE: return OPT_CHOICE;
	case ROT_FLAG: return OPT_NONE;
	case ROT_STR: return !strcmp(o->metavar, "FILE") ? OPT_FILE : OPT_WORD;
	default: return OPT_WORD;
	}
}

/* run_defs[] from run_options[]: once, before the table is first read. */
static void run_defs_fill(void)
{
	if (run_defs[0].name)
		return;
	for (size_t i = 0; i < RO_NR; i++) {
		const struct run_option *o = &run_options[i];

		run_defs[i] = (struct opt_def){
			.name = o->name, .arg = arg_of(o), .metavar = o->metavar,
			.choices = o->choices, .help = o->help, .group = o->group,
			.def = o->def_help ? o->def_help : o->def,
			.flags = o->type == ROT_DIRS ? OPT_REPEAT : 0, .store = OPT_CALL,
			.id = (int)i,
		};
	}
}

/* A value into the run's config, checked by the table: "--name 'value': fix" when refused. */
static int run_set(void *ctx, const struct opt_def *d, const char *v)
{
	const struct run_option *o = &run_options[d->id];
	const char *fix;

	if (run_option_parse(ctx, o, v, &fix))
		return input_error("--%s '%s': %s", o->name, v, fix);
	return 0;
}

const struct opt_cmd run_opt_cmd = {
	.name = "run",
	.opts = run_defs,
	.prepare = run_defs_fill,
	.set = run_set,
	.head = run_head,
	.tail = run_tail,
	.col = 24,
	.width = 92,
};

int run_params_parse_argv(struct run_params *p, int argc, char **argv)
{
	int first;

	return opt_parse(&run_opt_cmd, p, argc, argv, &first);
}

void run_params_argv(const struct run_params *p, void (*add)(const char *arg, void *ctx),
		     void *ctx)
{
	for (size_t i = 0; i < RO_NR; i++) {
		const struct run_option *o = &run_options[i];
		char *s;

		if (!o->ini || (o->flags & ROF_SWEEP) || !run_params_given(p, (enum run_opt_id)i))
			continue;
		if (o->type == ROT_FLAG) {
			if (*(const bool *)run_option_value(o, p->c))
				s = xasprintf("--%s", o->name);
			else
				continue;
		} else {
			s = xasprintf("--%s=%s", o->name, p->text[i]);
		}
		add(s, ctx);
		free(s);
	}
}

void run_usage(FILE *f)
{
	opt_usage(&run_opt_cmd, f);
}
