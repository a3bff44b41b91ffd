/* SPDX-License-Identifier: MIT */
/*
 * opt.h: one option parser for every subcommand, driven by a table per command (fio's
 * fio_options[] shape, git's parse-options): each option's long and short name, what its value
 * is and how --help names it, its --help text and group, its flags and the lab config key that
 * sets it.  From the table come the getopt_long(3) arrays, the errors every command words the
 * same (an unknown option, a missing value, a flag given one, an argument where none is taken),
 * the --help text (man pages are made from it: scripts/mkman.sh) and the bash completion's
 * view of the command (fslab __options: scripts/mkcompletion.sh).
 *
 * Parsing is getopt_long's, as before the tables: `--name value`, `--name=value`, a unique
 * prefix of a long name (--out for --output), short options bundled (-0), arguments in any
 * order around the options, and `--` ending the options.
 */
#ifndef FSLAB_OPT_H
#define FSLAB_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct strbuf;

/* What an option's value (or a positional argument) is: what the completion offers for it. */
enum opt_arg {
	OPT_NONE,   /* a flag: no value */
	OPT_WORD,   /* typed by hand: a name, a number, a size or time with its unit */
	OPT_CHOICE, /* one of choices() */
	OPT_DIR,    /* a directory (or a device) */
	OPT_FILE,   /* a file */
	OPT_INI,    /* a lab config, CONFIG.ini */
};

/* Where the parser puts a value. */
enum opt_store {
	OPT_CALL, /* the command's set() takes it, told which option by .id */
	OPT_TRUE, /* a flag: the bool at .off becomes true */
	OPT_STR,  /* the const char * at .off points at the value (in argv: not copied); with
		     OPT_REPEAT the value is appended to the struct strvec at .off instead */
};

enum {
	OPT_REPEAT = 1 << 0, /* may be given again, each value kept (OPT_STR: a strvec; OPT_CALL:
				set() keeps them); without it the last one given counts */
	OPT_HIDDEN = 1 << 1, /* taken, but neither in --help nor offered by the completion */
	OPT_JOIN = 1 << 2,   /* --help: named on the next option's line, "--a, --b: its text" */
	OPT_CLAIM = 1 << 3,  /* given, it picks the command's backend (opt_named(): the Windows
				prep's --db-disk) */
};

struct opt_def {
	const char *name;     /* --name; NULL ends a table */
	int short_name;       /* -c as well, or 0 */
	enum opt_arg arg;
	const char *metavar;  /* the value in --help, with its unit: DIR, SIZE, "fio|diskspd" */
	const char *(*choices)(void); /* OPT_CHOICE: "a, b or c", from the names' own table */
	const char *help;     /* --help text: %C the choices, %D the default; '\n' a new line */
	void (*help_fn)(struct strbuf *sb); /* or the text made when asked (from another table) */
	const char *def;      /* the default as --help says it: %D, or "; default X" appended */
	const char *group;    /* printed before the option: the heading of the options after it */
	unsigned int flags;   /* OPT_REPEAT, OPT_HIDDEN, OPT_JOIN */
	const char *ini;      /* the lab config key that sets it, "section.key" ("devices.db_dev",
				 "fs.cluster": in each [fs NAME]), or NULL */
	enum opt_store store;
	size_t off;           /* OPT_TRUE, OPT_STR: offsetof() in the command's struct */
	int id;               /* OPT_CALL: what set() is told (the command's enum) */
};

/* A positional argument, for --help's checks and the completion. */
struct opt_pos {
	const char *name;     /* as the usage line names it: RESULT, CONFIG.ini, ACTION */
	enum opt_arg arg;
	const char *(*choices)(void); /* OPT_CHOICE */
	unsigned int flags;   /* OPT_REPEAT: this one and every later argument */
};

enum {
	OPTC_WORDS = 1 << 0, /* no options: every argument is a word, --help only alone */
};

struct opt_cmd {
	const char *name;            /* the subcommand: errors say "see 'fslab NAME --help'" */
	const struct opt_def *opts;  /* in --help order, ended by { .name = NULL } */
	void (*prepare)(void);       /* fills opts before it is first read: a table made from
					another (fslab run's, from its run_options[]) */
	const struct opt_pos *pos;   /* positional arguments, ended by { NULL }; NULL: none */
	/* OPT_CALL: 0, or -FSLAB_EINPUT with the problem said (as "--name 'value': fix") */
	int (*set)(void *ctx, const struct opt_def *o, const char *arg);
	const struct opt_cmd *also;  /* whose options it takes too, after its own (export: run's) */
	void *(*also_ctx)(void *ctx); /* the ctx those are parsed into */
	const struct opt_cmd *sibling; /* its options given here are named as the sibling's */
	/* --help: the synopsis and description before the options, the notes after them */
	const char *head, *tail;
	void (*head_fn)(FILE *f), (*tail_fn)(FILE *f); /* or made when asked */
	int col, width;              /* where option texts start, where lines end at the latest */
	unsigned int flags;          /* OPTC_* */
	const char *no_args;         /* after "unexpected argument 'X'; " (default: "options start
					with --, see 'fslab NAME --help'") */
	const char *see;             /* errors say "see 'fslab SEE --help'" (default: NAME; the
					Windows prep's options are not bare prep's on Linux) */
};

/* The table of cmd, prepared. */
static inline const struct opt_def *opt_table(const struct opt_cmd *cmd)
{
	if (cmd->prepare)
		cmd->prepare();
	return cmd->opts;
}

/*
 * opt_parse - cmd's options in argv (argv[0] the subcommand, as main() hands it over) into ctx,
 * in the order given: OPT_TRUE and OPT_STR stored, the others handed to cmd->set(), those of
 * cmd->also into also_ctx(ctx).  The positional arguments end up in argv[*first..argc) in the
 * order given (argv is reordered as getopt_long does).  Returns 0; 1 when -h or --help printed
 * the help on stdout; -FSLAB_EINPUT with one error said (and nothing else parsed after it).
 */
int opt_parse(const struct opt_cmd *cmd, void *ctx, int argc, char **argv, int *first)
	__attribute__((warn_unused_result));

/* opt_usage - cmd's --help: its head, every option not hidden (with its group), its tail. */
void opt_usage(const struct opt_cmd *cmd, FILE *f);

/*
 * opt_named - the first option of cmd's table marked flag that argv (argv[0] the subcommand)
 * names as --name or --name=VALUE before any --; NULL when none.  For a look at the arguments
 * before they are parsed (which prep backend takes them).
 */
const struct opt_def *opt_named(const struct opt_cmd *cmd, unsigned int flag, int argc,
				char **argv);

/* The option of cmd (not of its also) called --name, exactly; NULL when none. */
const struct opt_def *opt_find(const struct opt_cmd *cmd, const char *name);
/* The option of cmd whose lab config key is key ("devices.db_dev"); NULL when none. */
const struct opt_def *opt_by_ini(const struct opt_cmd *cmd, const char *key);

/*
 * opt_dump - what the completion needs of cmd, lines "opt CMD --NAME KIND", "pos CMD N KIND"
 * ("N..." for a repeated one), "inherit CMD OTHER"; KIND is - (no value), dir, file, ini,
 * word (nothing offered) or =WORD WORD... (those).  Hidden options are left out.
 */
void opt_dump(const struct opt_cmd *cmd, FILE *f);

/* The words of a list as the tables make them ("a, b or c", "x, y and z"), blank-separated
 * into sb: what the completion offers. */
void opt_list_words(struct strbuf *sb, const char *list);

#endif
