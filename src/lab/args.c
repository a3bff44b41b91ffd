// SPDX-License-Identifier: MIT
/* args.c: the command lines of the lab's child steps (fslab prep, fslab run) for a cell. */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/labP.h"

static bool is_raw(const struct lab_fs *fs)
{
	return !strcmp(fs->fs, "raw");
}


void argv_add(struct argv *a, const char *s)
{
	if (a->n < ARRAY_SIZE(a->v) - 1)
		a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

void argv_addf(struct argv *a, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = xstrdup("");
	va_end(ap);
	if (a->nown < ARRAY_SIZE(a->own))
		a->own[a->nown++] = s;
	argv_add(a, s);
}

void argv_free(struct argv *a)
{
	for (size_t i = 0; i < a->nown; i++)
		free(a->own[i]);
	memset(a, 0, sizeof(*a));
}

void lab_prep_args(struct lab *L, const struct cell *cell, struct argv *a)
{
	const struct lab_cfg *c = &L->cfg;

	argv_add(a, "prep");
	argv_add(a, "--fs");
	argv_add(a, cell->fs->fs);
	if (c->image_dir) {
		argv_add(a, "--image-dir");
		argv_add(a, c->image_dir);
		argv_addf(a, "--db-size=%lluM", (unsigned long long)(c->db_image_size / MiB));
		argv_addf(a, "--log-size=%lluM", (unsigned long long)(c->log_image_size / MiB));
	} else {
		argv_add(a, "--db-dev");
		argv_add(a, c->db_dev);
		argv_add(a, "--log-dev");
		argv_add(a, c->log_dev);
		if (c->force)
			argv_add(a, "--force");
	}
	argv_add(a, "--mount-root");
	argv_add(a, L->mnt);
	if (cell->fs->cluster) {
		argv_add(a, "--cluster");
		argv_add(a, cell->fs->cluster);
	}
	if (cell->fs->mkfs_opts) {
		argv_add(a, "--mkfs-opts");
		argv_add(a, cell->fs->mkfs_opts);
	}
	if (cell->fs->mount_opts) {
		argv_add(a, "--mount-opts");
		argv_add(a, cell->fs->mount_opts);
	}
}

/* Raw cell: the device prep recorded for role in MNT/prep.json (heap), or NULL. */
static char *raw_device(struct lab *L, const char *role)
{
	char *path = path_join(L->mnt, "prep.json");
	json_t *j = json_load_file(path, 0, NULL);
	const char *dev = json_string_value(json_object_get(
		json_object_get(json_object_get(j, "volumes"), role), "device"));
	char *out = dev ? xstrdup(dev) : NULL;

	json_decref(j);
	free(path);
	return out;
}

static void add_arg(const char *s, void *ctx)
{
	argv_addf(ctx, "%s", s);
}

void lab_run_args(struct lab *L, const struct cell *cell, struct argv *a)
{
	const struct lab_cfg *c = &L->cfg;

	argv_add(a, "run");
	if (is_raw(cell->fs)) {
		/* known once prep attached them; the dry run shows placeholders */
		char *db = raw_device(L, "db"), *lg = raw_device(L, "log");

		argv_addf(a, "--db=%s", db ? db : "<db device from prep.json>");
		argv_addf(a, "--log=%s", lg ? lg : "<log device from prep.json>");
		if (c->force)
			argv_add(a, "--force");
		free(db);
		free(lg);
	} else {
		argv_addf(a, "--db=%s/db", L->mnt);
		argv_addf(a, "--log=%s/log", L->mnt);
	}
	argv_addf(a, "--threads=%u", cell->threads);
	/* every [workload] key given, its value as written: fslab run checks it with the same
	 * table (run/options.c) the config was checked with; the others are its defaults */
	run_params_argv(&c->run, add_arg, a);
	argv_addf(a, "--label=%s", cell->label);
	argv_addf(a, "--output=%s", cell->result);
	/* where it stands in the lab: compare blocks by round, the Method says what happened */
	argv_addf(a, "--lab-id=%s", L->lab_id ? L->lab_id : "<the new lab's id>");
	argv_addf(a, "--lab-cell=%s", cell->id);
	argv_addf(a, "--lab-round=%u", cell->round);
	argv_addf(a, "--lab-position=%u", cell->position);
	if (!is_raw(cell->fs))
		argv_add(a, "--lab-fresh-volume"); /* prep formatted it for this cell */
	/* not --quiet: the cell's run log keeps the run's steps (creation, initialisation rate,
	 * checksum pass) and its summary; the live line needs a terminal, which it has not */
	argv_add(a, "--progress-fd=3");
}

void argv_print(const struct argv *a)
{
	printf("  fslab");
	for (size_t i = 0; i < a->n; i++)
		printf(strchr(a->v[i], ' ') ? " '%s'" : " %s", a->v[i]);
	printf("\n");
}

