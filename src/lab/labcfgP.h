/* SPDX-License-Identifier: MIT */
/* labcfgP.h: the lab config's reader (labcfg.c) and its checks after the whole file
 * (labcheck.c) share the parse state; not used elsewhere. */
#ifndef FSLAB_LAB_LABCFGP_H
#define FSLAB_LAB_LABCFGP_H

#include <stdbool.h>
#include <stdio.h>

#include "lib/base.h"
#include "lab/labcfg.h"
#include "lib/strbuf.h"

struct parse {
	struct lab_cfg *cfg;
	FILE *f;
	int line;         /* line just read by the reader */
	int section_line; /* line of the current section header */
	char section[128];
	int errors;
	bool seen_lab, seen_devices, seen_workload;
	bool bad_section; /* after a refused section header: its keys are ignored */
	bool content;     /* a section or key was seen (an empty file is one error) */
	struct strbuf lb; /* the line being read */
	char *quoted;     /* the quoted value of line quoted_line (lab_ini_value()) */
	int quoted_line;
};

/* A problem at line of the file, "PATH:LINE: text" (the first LAB_MAX_ERRORS named, the rest
 * counted). */
void lab_perr(struct parse *p, int line, const char *fmt, ...) __printf(3, 4);
/* The [fs NAME] section of that name, or NULL. */
struct lab_fs *lab_fs_section(struct parse *p, const char *name);
/* labcheck.c: what can be checked only after the whole file (required sections, rules per
 * system, hosts, workload keys that go together). */
void lab_cfg_check(struct parse *p);

#endif
