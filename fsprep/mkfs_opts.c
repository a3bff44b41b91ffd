// SPDX-License-Identifier: MIT
/*
 * mkfs_opts.c: refuse --mkfs-opts words that name another device or file (pure, unit-tested).
 * prep checks the two devices it formats (safety.c); an option such as XFS `-l logdev=DEV`,
 * ext4 `-J device=DEV` or an extra device argument to mkfs.btrfs would have the tool write a
 * device nobody checked, and one --mkfs-opts goes to both volumes, so one external log would
 * even be formatted twice.  The words are scanned the way each tool's getopt(3) reads them
 * (the tool's option string, long options with unique-prefix abbreviations, key=value
 * suboption lists), from the tools' own sources: e2fsprogs misc/mke2fs.c, xfsprogs
 * mkfs/xfs_mkfs.c, btrfs-progs mkfs/main.c, ntfs-3g ntfsprogs/mkntfs.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "fsprep/prepP.h"

static bool in_list(const char *const *list, const char *s, size_t n)
{
	for (; list && *list; list++)
		if (strlen(*list) == n && !strncmp(*list, s, n))
			return true;
	return false;
}

/* The long option @name (@n chars, maybe abbreviated) as getopt_long resolves it: exact, else
 * the only option it is a prefix of.  NULL when unknown or ambiguous (the tool refuses it). */
static const char *long_match(const struct mkfs_syntax *sx, const char *name, size_t n,
			      bool *has_arg)
{
	const char *const *lists[2] = { sx->long_arg, sx->long_flag };
	const char *found = NULL;
	int hits = 0;

	for (int l = 0; l < 2; l++)
		for (const char *const *o = lists[l]; o && *o; o++) {
			if (strncmp(*o, name, n))
				continue;
			if (strlen(*o) == n) {
				*has_arg = l == 0;
				return *o;
			}
			if (!found || strcmp(found, *o)) {
				hits++;
				found = *o;
				*has_arg = l == 0;
			}
		}
	return hits == 1 ? found : NULL;
}

/*
 * A suboption list ("size=64m,logdev=/dev/sdc") of short option @opt: does one of its keys
 * name a device or file ("l:logdev" in sx->subopt_paths)?
 */
static bool subopt_names_path(const struct mkfs_syntax *sx, char opt, const char *list)
{
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ",="), len = strcspn(p, ",");

		for (const char *const *s = sx->subopt_paths; s && *s; s++)
			if ((*s)[0] == opt && (*s)[1] == ':' && strlen(*s + 2) == n &&
			    !strncmp(*s + 2, p, n))
				return true;
		p += len;
		if (*p == ',')
			p++;
	}
	return false;
}

/* "-l logdev=X" as the user wrote it: @word, and @next when the argument was separate. */
static char *shown(const char *word, const char *next)
{
	return next ? xasprintf("%s %s", word, next) : xstrdup(word);
}

char *mkfs_opts_problem(const struct mkfs_syntax *sx, const char *tool, const char *extra)
{
	char *copy = xstrdup(extra ? extra : ""), *save = NULL, *problem = NULL;
	char *words[256];
	size_t nw = 0;
	bool opts_done = false;
	const char *shortopts = sx ? sx->shortopts : "";

	/* a leading '-' or '+' only changes how getopt orders arguments */
	while (*shortopts == '-' || *shortopts == '+')
		shortopts++;
	for (char *w = strtok_r(copy, " \t\n", &save); w && nw < ARRAY_SIZE(words);
	     w = strtok_r(NULL, " \t\n", &save))
		words[nw++] = w;
	if (nw == ARRAY_SIZE(words)) {
		problem = xasprintf("more than %zu words", ARRAY_SIZE(words) - 1);
		goto out;
	}
	for (size_t i = 0; i < nw && !problem; i++) {
		const char *w = words[i];

		if (opts_done || w[0] != '-' || !w[1]) {
			/* getopt permutes: a non-option word anywhere is an operand, which every one
			 * of these tools takes as a device (or a size after it) */
			problem = xasprintf("'%s' is not an option (%s would take it as a device to format)",
					    w, tool);
		} else if (!strcmp(w, "--")) {
			opts_done = true;
		} else if (w[1] == '-') {
			const char *name = w + 2, *eq = strchr(name, '='), *opt, *arg = NULL;
			size_t n = eq ? (size_t)(eq - name) : strlen(name);
			bool has_arg = false;

			opt = sx ? long_match(sx, name, n, &has_arg) : NULL;
			if (!opt)
				continue; /* unknown: the tool refuses it */
			if (has_arg && eq)
				arg = eq + 1;
			else if (has_arg && i + 1 < nw)
				arg = words[++i];
			if (arg && in_list(sx->long_paths, opt, strlen(opt))) {
				char *s = shown(w, eq ? NULL : arg);

				problem = xasprintf("%s names another device or file",
						    s);
				free(s);
			}
		} else {
			for (const char *c = w + 1; *c; c++) {
				const char *spec = strchr(shortopts, *c);
				const char *arg, *next = NULL;

				if (*c == ':' || !spec || spec[1] != ':')
					continue; /* a flag, or unknown (the tool refuses it) */
				arg = c[1] ? c + 1 : i + 1 < nw ? (next = words[++i]) : "";
				if (strchr(sx->paths ? sx->paths : "", *c) ||
				    subopt_names_path(sx, *c, arg)) {
					char *s = shown(w, next);

					problem = xasprintf("%s names another device or file",
							    s);
					free(s);
				}
				break;
			}
		}
	}
out:
	free(copy);
	return problem;
}
