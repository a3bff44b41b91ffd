// SPDX-License-Identifier: MIT
/* opt.c: parsing a subcommand's argv with its option table (opt.h): the getopt_long arrays
 * made from the table, each value stored or handed to the command, the common errors. */
#include "lib/opt.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "lib/msg.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"

/* getopt_long's value of a long option without a short one: OPT_VAL + its index */
#define OPT_VAL 1000

/* One option as the parser sees it: its entry, its table's command and ctx. */
struct opt_ent {
	const struct opt_def *o;
	const struct opt_cmd *cmd;
	void *ctx;
};

/* -h, --help of a table that does not list it */
static const struct opt_def help_def = { .name = "help", .short_name = 'h' };

struct opt_state {
	const struct opt_cmd *cmd;
	struct opt_ent *ent;
	struct option *lo;
	size_t n;
	struct strbuf shorts;
};

static size_t table_len(const struct opt_def *opts)
{
	size_t n = 0;

	while (opts && opts[n].name)
		n++;
	return n;
}

static bool has_name(const struct opt_state *st, const char *name)
{
	for (size_t i = 0; i < st->n; i++)
		if (!strcmp(st->ent[i].o->name, name))
			return true;
	return false;
}

/* The entries of cmd's table into st (a name already there is left out: the first table's
 * own option wins). */
static void add_table(struct opt_state *st, const struct opt_cmd *cmd, void *ctx)
{
	for (const struct opt_def *o = opt_table(cmd); o && o->name; o++) {
		if (has_name(st, o->name))
			continue;
		st->ent[st->n] = (struct opt_ent){ o, cmd, ctx };
		st->lo[st->n] = (struct option){
			o->name, o->arg == OPT_NONE ? no_argument : required_argument, NULL,
			o->short_name ? o->short_name : OPT_VAL + (int)st->n };
		if (o->short_name)
			strbuf_addf(&st->shorts, "%c%s", o->short_name, o->arg == OPT_NONE ? "" : ":");
		st->n++;
	}
}

static void state_init(struct opt_state *st, const struct opt_cmd *cmd, void *ctx)
{
	size_t max = table_len(opt_table(cmd)) + (cmd->also ? table_len(opt_table(cmd->also)) : 0) + 1;

	memset(st, 0, sizeof(*st));
	st->cmd = cmd;
	st->ent = xcalloc(max, sizeof(*st->ent));
	st->lo = xcalloc(max + 1, sizeof(*st->lo));
	strbuf_init(&st->shorts, 0);
	/* ':' first: a missing value is told apart from an unknown option */
	strbuf_addch(&st->shorts, ':');
	add_table(st, cmd, ctx);
	if (cmd->also)
		add_table(st, cmd->also, cmd->also_ctx ? cmd->also_ctx(ctx) : ctx);
	/* every command takes -h and --help, listed in its --help or not */
	if (!has_name(st, "help")) {
		st->ent[st->n] = (struct opt_ent){ &help_def, cmd, ctx };
		st->lo[st->n++] = (struct option){ "help", no_argument, NULL, 'h' };
		strbuf_addch(&st->shorts, 'h');
	}
}

static void state_release(struct opt_state *st)
{
	free(st->ent);
	free(st->lo);
	strbuf_release(&st->shorts);
}

/* The entry getopt_long returned c for; NULL: none. */
static const struct opt_ent *entry_of(const struct opt_state *st, int c)
{
	if (c >= OPT_VAL && c < OPT_VAL + (int)st->n)
		return &st->ent[c - OPT_VAL];
	for (size_t i = 0; i < st->n; i++)
		if (st->ent[i].o->short_name == c)
			return &st->ent[i];
	return NULL;
}

/* The long options that start with the text of arg ("--thr=8" -> "thr"), ", "-joined into
 * sb; how many. */
static size_t prefix_matches(const struct opt_state *st, const char *arg, struct strbuf *sb)
{
	size_t len = strcspn(arg + 2, "="), n = 0;

	for (size_t i = 0; i < st->n && arg[0] == '-' && arg[1] == '-'; i++)
		if (!strncmp(st->lo[i].name, arg + 2, len)) {
			strbuf_addf(sb, "%s--%s", n ? ", " : "", st->lo[i].name);
			n++;
		}
	return n;
}

/* The option of opts that arg ("name", "nam=value") names exactly or by a unique prefix. */
static const struct opt_def *find_prefix(const struct opt_def *opts, const char *arg)
{
	const struct opt_def *hit = NULL;
	size_t len = strcspn(arg, "="), n = 0;

	for (const struct opt_def *o = opts; o && o->name; o++) {
		if (strncmp(o->name, arg, len))
			continue;
		if (strlen(o->name) == len)
			return o;
		hit = o;
		n++;
	}
	return n == 1 ? hit : NULL;
}

/* An option of cmd's sibling given to cmd: said as such; else -1. */
static int sibling_option(const struct opt_cmd *cmd, const char *arg)
{
	const struct opt_def *o;

	if (!cmd->sibling || strncmp(arg, "--", 2) || !(o = find_prefix(opt_table(cmd->sibling), arg + 2)))
		return -1;
	return input_error("%s: --%s is an option of 'fslab %s'; see 'fslab %s --help'", cmd->name,
			   o->name, cmd->sibling->name, cmd->name);
}

/* What getopt_long refused ('?' or ':'), said. */
static int refused(const struct opt_state *st, int c, char **argv)
{
	const char *cmd = st->cmd->see ? st->cmd->see : st->cmd->name, *arg = argv[optind - 1];
	const struct opt_ent *e = optopt ? entry_of(st, optopt) : NULL;
	struct strbuf sb = STRBUF_INIT;
	int ret;

	/* a flag given a value: '?' from glibc, ':' from the BSD getopt of mingw-w64 */
	if (e && e->o->arg == OPT_NONE && !strncmp(arg, "--", 2))
		return input_error("--%s takes no value ('%s'); see 'fslab %s --help'", e->o->name,
				   arg, cmd);
	if (c == ':')
		return input_error("%s needs a value; see 'fslab %s --help'", arg, cmd);
	if (optopt && optopt < OPT_VAL)
		return input_error("unknown option '-%c'; see 'fslab %s --help'", optopt, cmd);
	ret = sibling_option(st->cmd, arg);
	if (ret != -1)
		return ret;
	if (prefix_matches(st, arg, &sb) > 1)
		ret = input_error("option '%.*s' is ambiguous (%s); see 'fslab %s --help'",
				  (int)strcspn(arg, "="), arg, sb.buf, cmd);
	else
		ret = input_error("unknown option '%s'; see 'fslab %s --help'", arg, cmd);
	strbuf_release(&sb);
	return ret;
}

/* The value of e's option into its ctx. */
static int store(const struct opt_ent *e, const char *arg)
{
	const struct opt_def *o = e->o;
	char *at = (char *)e->ctx + o->off;

	switch (o->store) {
	case OPT_TRUE:
		*(bool *)at = true;
		return 0;
	case OPT_STR:
		if (o->flags & OPT_REPEAT)
			strvec_push((struct strvec *)at, arg);
		else
			*(const char **)at = arg;
		return 0;
	case OPT_CALL:
		break;
	}
	return e->cmd->set(e->ctx, o, arg);
}

/* No options: --help alone, every other argument a word. */
static int parse_words(const struct opt_cmd *cmd, int argc, char **argv, int *first)
{
	*first = 1;
	if (argc == 2 && !strcmp(argv[1], "--help")) {
		opt_usage(cmd, stdout);
		return 1;
	}
	return 0;
}

int opt_parse(const struct opt_cmd *cmd, void *ctx, int argc, char **argv, int *first)
{
	struct opt_state st;
	int c, ret = 0;

	if (cmd->flags & OPTC_WORDS)
		return parse_words(cmd, argc, argv, first);
	state_init(&st, cmd, ctx);
	optind = 0; /* a fresh start (glibc and the BSD getopt of mingw-w64 alike) */
	opterr = 0;
	while (!ret && (c = getopt_long(argc, argv, st.shorts.buf, st.lo, NULL)) != -1) {
		const struct opt_ent *e = c == '?' || c == ':' ? NULL : entry_of(&st, c);

		if (!e)
			ret = refused(&st, c, argv);
		else if (e->o == &help_def || !strcmp(e->o->name, "help"))
			ret = 1;
		else
			ret = store(e, optarg);
	}
	state_release(&st);
	if (ret == 1)
		opt_usage(cmd, stdout);
	if (ret)
		return ret;
	*first = optind;
	if (!cmd->pos && optind < argc) {
		if (cmd->no_args)
			return input_error("unexpected argument '%s'; %s", argv[optind], cmd->no_args);
		return input_error("unexpected argument '%s'; options start with --, see 'fslab %s "
				   "--help'", argv[optind], cmd->see ? cmd->see : cmd->name);
	}
	return 0;
}

const struct opt_def *opt_named(const struct opt_cmd *cmd, unsigned int flag, int argc,
				char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		size_t len = strcspn(argv[i], "=");

		for (const struct opt_def *o = opt_table(cmd); o->name; o++)
			if ((o->flags & flag) && !strncmp(argv[i], "--", 2) && len == strlen(o->name) + 2 &&
			    !strncmp(argv[i] + 2, o->name, len - 2))
				return o;
	}
	return NULL;
}

const struct opt_def *opt_find(const struct opt_cmd *cmd, const char *name)
{
	for (const struct opt_def *o = opt_table(cmd); o && o->name; o++)
		if (!strcmp(o->name, name))
			return o;
	return NULL;
}

const struct opt_def *opt_by_ini(const struct opt_cmd *cmd, const char *key)
{
	for (const struct opt_def *o = opt_table(cmd); o && o->name; o++)
		if (o->ini && !strcmp(o->ini, key))
			return o;
	return NULL;
}
