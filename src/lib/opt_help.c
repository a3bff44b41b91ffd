// SPDX-License-Identifier: MIT
/* opt_help.c: what a subcommand's option table (opt.h) shows: its --help, and its dump for the
 * bash completion (fslab __options). */
#include "lib/opt.h"

#include <string.h>

#include "lib/base.h"
#include "lib/strbuf.h"

/* When a command's table says nothing of its layout: fslab run's. */
#define HELP_COL 24
#define HELP_WIDTH 92

/* Append o's help text to sb: %C the choices, %D the default; "; default X" when the text
 * does not say it. */
static void help_text(struct strbuf *sb, const struct opt_def *o)
{
	if (o->help_fn) {
		o->help_fn(sb);
	} else {
		for (const char *t = o->help ? o->help : ""; *t; t++) {
			if (t[0] == '%' && (t[1] == 'C' || t[1] == 'D')) {
				strbuf_addstr(sb, t[1] == 'C' ? o->choices() : o->def ? o->def : "");
				t++;
			} else {
				strbuf_addch(sb, *t);
			}
		}
	}
	if (o->def && !(o->help && strstr(o->help, "%D")))
		strbuf_addf(sb, "; default %s", o->def);
}

/* "  -c, --name META" */
static void help_left(struct strbuf *sb, const struct opt_def *o)
{
	strbuf_addstr(sb, "  ");
	if (o->short_name)
		strbuf_addf(sb, "-%c, ", o->short_name);
	strbuf_addf(sb, "--%s", o->name);
	if (o->arg != OPT_NONE && o->metavar)
		strbuf_addf(sb, " %s", o->metavar);
}

/*
 * Options marked OPT_JOIN are named on the line of the next one: "  --a, --b, --c: text", the
 * text after a blank; any other option's text starts at the command's column (two blanks
 * after a name that reaches it).  Words wrap at the command's width, at its column.
 */
static void help_item(struct strbuf *sb, const struct opt_cmd *cmd, const struct opt_def *o)
{
	int col = cmd->col ? cmd->col : HELP_COL, width = cmd->width ? cmd->width : HELP_WIDTH;
	const struct opt_def *first = o;
	struct strbuf text = STRBUF_INIT;
	size_t start = sb->len;

	while (first > opt_table(cmd) && (first[-1].flags & OPT_JOIN))
		first--;
	if (first != o || (o->flags & OPT_JOIN)) {
		strbuf_addstr(sb, "  ");
		for (const struct opt_def *j = first; j <= o; j++)
			strbuf_addf(sb, "--%s%s", j->name, j < o ? ", " : ": ");
	} else {
		help_left(sb, o);
		if (sb->len - start + 2 > (size_t)col)
			strbuf_addstr(sb, "  ");
		else
			strbuf_addf(sb, "%*s", col - (int)(sb->len - start), "");
	}
	help_text(&text, o);
	strbuf_add_wrapped(sb, text.buf, sb->len - start, (size_t)col, (size_t)width);
	strbuf_addch(sb, '\n');
	strbuf_release(&text);
}

void opt_usage(const struct opt_cmd *cmd, FILE *f)
{
	struct strbuf sb = STRBUF_INIT;

	if (cmd->head)
		fputs(cmd->head, f);
	if (cmd->head_fn)
		cmd->head_fn(f);
	for (const struct opt_def *o = opt_table(cmd); o && o->name; o++) {
		if (o->flags & OPT_HIDDEN)
			continue;
		if (o->group)
			fputs(o->group, f);
		if (o->flags & OPT_JOIN)
			continue;
		strbuf_setlen(&sb, 0);
		help_item(&sb, cmd, o);
		fputs(sb.buf, f);
	}
	if (cmd->tail)
		fputs(cmd->tail, f);
	if (cmd->tail_fn)
		cmd->tail_fn(f);
	strbuf_release(&sb);
}

/* Where the item at p ends: the next ",", " or " or " and " (or the end); its length in *sep. */
static const char *item_end(const char *p, size_t *sep)
{
	for (; *p; p++) {
		*sep = *p == ',' ? 1 : !strncmp(p, " or ", 4) ? 4 : !strncmp(p, " and ", 5) ? 5 : 0;
		if (*sep)
			return p;
	}
	*sep = 0;
	return p;
}

void opt_list_words(struct strbuf *sb, const char *list)
{
	size_t n = 0, sep;

	for (const char *p = list; *p; p = item_end(p, &sep) + sep) {
		size_t len;

		p += strspn(p, " ");
		/* the name, not its gloss: "ntfs (ntfs-3g)" offers ntfs */
		len = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_-.");
		if (len)
			strbuf_addf(sb, "%s%.*s", n++ ? " " : "", (int)len, p);
	}
}

/* What a value of this kind completes to. */
static void dump_kind(FILE *f, enum opt_arg arg, const char *(*choices)(void))
{
	static const char *const kind[] = {
		[OPT_NONE] = "-", [OPT_WORD] = "word", [OPT_DIR] = "dir", [OPT_FILE] = "file",
		[OPT_INI] = "ini",
	};
	struct strbuf sb = STRBUF_INIT;

	if (arg == OPT_CHOICE) {
		opt_list_words(&sb, choices());
		fprintf(f, "=%s\n", sb.buf);
	} else {
		fprintf(f, "%s\n", kind[arg]);
	}
	strbuf_release(&sb);
}

void opt_dump(const struct opt_cmd *cmd, FILE *f)
{
	size_t n = 0;

	for (const struct opt_def *o = opt_table(cmd); o && o->name; o++) {
		if (o->flags & OPT_HIDDEN)
			continue;
		fprintf(f, "opt %s --%s ", cmd->name, o->name);
		dump_kind(f, o->arg, o->choices);
	}
	if (cmd->also)
		fprintf(f, "inherit %s %s\n", cmd->name, cmd->also->name);
	for (const struct opt_pos *p = cmd->pos; p && p->name; p++, n++) {
		/* an argument refused by name (demo's config) completes to nothing */
		if (p->arg == OPT_NONE)
			continue;
		fprintf(f, "pos %s %zu%s ", cmd->name, n + 1, p->flags & OPT_REPEAT ? "..." : "");
		dump_kind(f, p->arg, p->choices);
	}
}
