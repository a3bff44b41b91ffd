// SPDX-License-Identifier: MIT
/* args.c: the command lines of the lab's child steps (fslab prep, fslab run) for a cell. */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/labP.h"
#include "strbuf.h"

static bool is_raw(const struct lab_fs *fs)
{
	return !strcmp(fs->fs, "raw");
}


char *lab_owner(const struct lab *L)
{
	char *real = realpath(L->out, NULL), *o = xasprintf("fslab lab %s", real ? real : L->out);

	free(real);
	return o;
}

void lab_prep_args(struct lab *L, const struct cell *cell, struct strvec *a)
{
	const struct lab_cfg *c = &L->cfg;

	strvec_push(a, "prep");
	strvec_push(a, "--fs");
	strvec_push(a, cell->fs->fs);
	if (c->image_dir) {
		strvec_push(a, "--image-dir");
		strvec_push(a, c->image_dir);
		strvec_pushf(a, "--db-size=%lluM", (unsigned long long)(c->db_image_size / MiB));
		strvec_pushf(a, "--log-size=%lluM", (unsigned long long)(c->log_image_size / MiB));
	} else {
		strvec_push(a, "--db-dev");
		strvec_push(a, c->db_dev);
		strvec_push(a, "--log-dev");
		strvec_push(a, c->log_dev);
		if (c->force)
			strvec_push(a, "--force");
	}
	strvec_push(a, "--mount-root");
	strvec_push(a, L->mnt);
	{
		char *owner = lab_owner(L);

		strvec_push(a, "--owner");
		strvec_push(a, owner);
		free(owner);
	}
	if (cell->fs->cluster) {
		strvec_push(a, "--cluster");
		strvec_push(a, cell->fs->cluster);
	}
	if (cell->fs->mkfs_opts) {
		strvec_push(a, "--mkfs-opts");
		strvec_push(a, cell->fs->mkfs_opts);
	}
	if (cell->fs->mount_opts) {
		strvec_push(a, "--mount-opts");
		strvec_push(a, cell->fs->mount_opts);
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
	strvec_push(ctx, s);
}

void lab_run_args(struct lab *L, const struct cell *cell, struct strvec *a)
{
	const struct lab_cfg *c = &L->cfg;

	strvec_push(a, "run");
	if (is_raw(cell->fs)) {
		/* known once prep attached them; the dry run shows placeholders */
		char *db = raw_device(L, "db"), *lg = raw_device(L, "log");

		strvec_pushf(a, "--db=%s", db ? db : "<db device from prep.json>");
		strvec_pushf(a, "--log=%s", lg ? lg : "<log device from prep.json>");
		if (c->force)
			strvec_push(a, "--force");
		free(db);
		free(lg);
	} else {
		strvec_pushf(a, "--db=%s/db", L->mnt);
		strvec_pushf(a, "--log=%s/log", L->mnt);
	}
	strvec_pushf(a, "--threads=%u", cell->threads);
	/* every [workload] key given, its value as written: fslab run checks it with the same
	 * table (run/options.c) the config was checked with; the others are its defaults */
	run_params_argv(&c->run, add_arg, a);
	strvec_pushf(a, "--label=%s", cell->label);
	strvec_pushf(a, "--output=%s", cell->result);
	/* where it stands in the lab: compare blocks by round, the Method says what happened */
	strvec_pushf(a, "--lab-id=%s", L->lab_id ? L->lab_id : "<the new lab's id>");
	strvec_pushf(a, "--lab-cell=%s", cell->id);
	strvec_pushf(a, "--lab-round=%u", cell->round);
	strvec_pushf(a, "--lab-position=%u", cell->position);
	if (!is_raw(cell->fs))
		strvec_push(a, "--lab-fresh-volume"); /* prep formatted it for this cell */
	/* not --quiet: the cell's run log keeps the run's steps (creation, initialisation rate,
	 * checksum pass) and its summary; the live line needs a terminal, which it has not */
	strvec_push(a, "--progress-fd=3");
}

void lab_print_args(const struct strvec *a)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "  fslab");
	for (size_t i = 0; i < a->nr; i++) {
		strbuf_addch(&sb, ' ');
		strbuf_add_sq(&sb, a->v[i]);
	}
	puts(sb.buf);
	strbuf_release(&sb);
}

