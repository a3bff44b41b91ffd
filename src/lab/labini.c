// SPDX-License-Identifier: MIT
/*
 * labini.c: a lab config's "key = value" line as the lab means it, seen before inih reads it
 * (labcfg.c's reader): inline comments as inih takes them (';' or '#' after a blank, ini.c
 * ini_find_chars_or_comment() with INI_ALLOW_INLINE_COMMENTS), a value in double quotes that
 * may hold them, and a value refused where a comment would cut it without a word
 * ("db_dir = /srv/lun #2/fslab" measured /srv/lun).
 */
#include "lab/labcfg.h"

#include <stdlib.h>
#include <string.h>

#include "lib/base.h"

/* A blank, or the line's end (the reader hands the line with it) */
static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The first inline comment in s (a prefix after a blank, the first character counting as
 * after none), or the first of chars, whichever comes first; the end of s when neither. */
static char *comment_or(char *s, const char *chars)
{
	bool was_blank = false;

	for (; *s; s++) {
		if (chars && strchr(chars, *s))
			break;
		if (was_blank && strchr(LAB_INI_COMMENT_PREFIXES, *s))
			break;
		was_blank = blank(*s);
	}
	return s;
}

int lab_ini_value(char *line, char **value, char **why)
{
	char *eq = comment_or(line, "=:"), *v, *q, *c;

	*value = *why = NULL;
	if (*eq != '=' && *eq != ':')
		return 0; /* no key = value: inih says so */
	for (v = eq + 1; blank(*v); v++)
		;
	if (*v == '"') {
		q = strchr(v + 1, '"');
		if (!q) {
			*why = xstrdup("a value that starts with '\"' is quoted, but its closing '\"' "
				       "is missing; close the quotes (a quoted value cannot hold '\"')");
			return -1;
		}
		for (c = q + 1; blank(*c); c++)
			;
		if (*c && !(c > q + 1 && strchr(LAB_INI_COMMENT_PREFIXES, *c))) {
			*why = xasprintf("'%.*s' follows the quoted value; only a comment (a blank, "
					 "then ; or #) may follow the closing '\"'",
					 (int)strcspn(c, "\r\n"), c);
			return -1;
		}
		*value = xasprintf("%.*s", (int)(q - v - 1), v + 1);
		eq[1] = 0; /* inih gets the key with an empty value; the lab takes *value */
		return 1;
	}
	c = comment_or(eq + 1, NULL);
	if (*c && c[1] && !blank(c[1]) && !strchr(LAB_INI_COMMENT_PREFIXES, c[1])) {
		*why = xasprintf("'%.*s' reads as a comment (%c after a blank starts one) and would "
				 "be cut from the value: if it belongs to the value, put the value in "
				 "double quotes (key = \"...\"); if it is a comment, put a blank after "
				 "the %c", (int)strcspn(c, "\r\n"), c, *c, *c);
		return -1;
	}
	return 0;
}
