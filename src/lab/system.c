// SPDX-License-Identifier: MIT
/* system.c: the table of systems a lab's steps run on (system.h) and the rules that read it. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lab/system.h"
#include "lib/base.h"

/* One line per system; a new kind of host is its system_<name>.c and a line here. */
extern const struct lab_system lab_system_linux, lab_system_windows;
const struct lab_system *const lab_systems[] = {
	&lab_system_linux,
	&lab_system_windows,
	NULL,
};

const struct lab_system *lab_system_find(const char *name)
{
	for (size_t i = 0; lab_systems[i]; i++)
		if (!strcmp(lab_systems[i]->name, name))
			return lab_systems[i];
	return NULL;
}

const struct lab_system *lab_system_here(void)
{
	for (size_t i = 0; lab_systems[i]; i++)
		if (lab_systems[i]->prep == prep_sys_here())
			return lab_systems[i];
	return lab_systems[0];
}

const struct lab_system *lab_system_making(const struct lab_system *sys,
					   const struct fs_desc *fs)
{
	for (size_t i = 0; lab_systems[i]; i++)
		if (lab_systems[i] != sys && fs_makes(fs, lab_systems[i]->prep, false))
			return lab_systems[i];
	return NULL;
}

char *lab_system_names(void)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; lab_systems[i]; i++)
		strbuf_addf(&sb, "%s%s", !i ? "" : lab_systems[i + 1] ? ", " : " or ",
			    lab_systems[i]->name);
	return strbuf_detach(&sb, NULL);
}

bool lab_system_killable(const struct lab_system *sys, const struct strvec *args)
{
	return !((sys->flags & SYS_PREP_UNKILLABLE) && args->nr &&
		 (!strcmp(args->v[0], "prep") || !strcmp(args->v[0], "teardown")));
}

void lab_system_vproblem(void (*problem)(void *ctx, int line, const char *text), void *ctx,
			 int line, const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_vaddf(&sb, fmt, ap);
	problem(ctx, line, sb.buf);
	strbuf_release(&sb);
}

void lab_system_problem(void (*problem)(void *ctx, int line, const char *text), void *ctx,
			int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lab_system_vproblem(problem, ctx, line, fmt, ap);
	va_end(ap);
}
