// SPDX-License-Identifier: MIT
/* args.c: the command lines of the lab's child steps (fslab prep, run, teardown) for a cell,
 * on Linux or Windows (the step target's system), on the lab's volumes or the user's. */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/argv_quote.h"
#include "lab/labP.h"
#include "lib/strbuf.h"

static bool is_raw(const struct lab_fs *fs)
{
	return !strcmp(fs->fs, "raw");
}


char *lab_owner(const struct lab *L)
{
	char *real = os_realpath(L->out), *o = xasprintf("fslab lab %s", real ? real : L->out);

	free(real);
	return o;
}

char *lab_mount_root(const struct lab *L)
{
	return L->target.sys->mount_root(L->out);
}

const char *lab_devices_words(const struct lab *L)
{
	return L->target.sys->devices_words(&L->cfg);
}

void lab_where_local(struct lab *L, struct lab_where *w)
{
	const struct lab_cfg *c = &L->cfg;

	memset(w, 0, sizeof(*w));
	w->sys = L->target.sys;
	w->mnt = L->mnt;
	if (w->sys->flags & SYS_OWNER)
		w->owner = lab_owner(L);
	w->image_dir = c->image_dir;
	w->db_dev = c->db_dev;
	w->log_dev = c->log_dev;
	w->db_image_size = c->db_image_size;
	w->log_image_size = c->log_image_size;
	w->db_disk = c->db_disk;
	w->log_disk = c->log_disk;
}

void lab_where_release(struct lab_where *w)
{
	free(w->owner);
	memset(w, 0, sizeof(*w));
}

void lab_where_prep_args(struct lab *L, const struct lab_where *w, const struct cell *cell,
			 struct strvec *a)
{
	/* the prep backend of the system the step runs on */
	w->sys->prep_args(w, cell->fs, L->cfg.force, a);
}

void lab_prep_args(struct lab *L, const struct cell *cell, struct strvec *a)
{
	struct lab_where w;

	lab_where_local(L, &w);
	lab_where_prep_args(L, &w, cell, a);
	lab_where_release(&w);
}

/* Raw cell: the device prep recorded for role in prep.json (heap), or NULL. */
static char *raw_device(const char *prep_json, const char *role)
{
	json_t *j = json_load_file(prep_json, 0, NULL);
	const char *dev = json_string_value(json_object_get(
		json_object_get(json_object_get(j, "volumes"), role), "device"));
	char *out = dev ? xstrdup(dev) : NULL;

	json_decref(j);
	return out;
}

static void add_arg(const char *s, void *ctx)
{
	strvec_push(ctx, s);
}

static void add_arg_but_duration(const char *s, void *ctx)
{
	if (strncmp(s, "--duration=", 11))
		strvec_push(ctx, s);
}

void lab_where_run_args(struct lab *L, const struct lab_where *w, const struct cell *cell,
			struct strvec *a)
{
	const struct lab_cfg *c = &L->cfg;

	strvec_push(a, "run");
	if (is_raw(cell->fs)) {
		/* known once prep attached them; the dry run shows placeholders */
		char *pj = w->prep_json ? xstrdup(w->prep_json) : path_join(w->mnt, "prep.json");
		char *db = raw_device(pj, "db"), *lg = raw_device(pj, "log");

		strvec_pushf(a, "--db=%s", db ? db : "<db device from prep.json>");
		strvec_pushf(a, "--log=%s", lg ? lg : "<log device from prep.json>");
		if (c->force)
			strvec_push(a, "--force");
		free(db);
		free(lg);
		free(pj);
	} else if (cell->fs->prepared) {
		/* volumes the user prepared: the run deletes and re-creates its own files there
		 * and refuses (or, allowed, leaves alone) anything else */
		for (size_t i = 0; i < cell->fs->db_dirs.nr; i++)
			strvec_pushf(a, "--db=%s", cell->fs->db_dirs.v[i]);
		for (size_t i = 0; i < cell->fs->log_dirs.nr; i++)
			strvec_pushf(a, "--log=%s", cell->fs->log_dirs.v[i]);
		strvec_push(a, "--fresh");
		if (cell->fs->allow_foreign_files)
			strvec_push(a, "--allow-foreign-files");
	} else {
		strvec_pushf(a, "--db=%s%cdb", w->mnt, w->sys->sep);
		strvec_pushf(a, "--log=%s%clog", w->mnt, w->sys->sep);
	}
	if (cell->threads)
		strvec_pushf(a, "--threads=%u", cell->threads);
	else
		strvec_push(a, "--threads=auto"); /* threads = auto: the run's tuner finds it */
	/* every [workload] key given, its value as written: fslab run checks it with the same
	 * table (run/options.c) the config was checked with; the others are its defaults */
	/* the qualification run: [lab] qualify long, the rest as the rounds' cells */
	run_params_argv(&c->run, cell->qualify ? add_arg_but_duration : add_arg, a);
	if (cell->qualify)
		strvec_pushf(a, "--duration=%llus",
			     (unsigned long long)(c->qualify_ns / NSEC_PER_SEC));
	strvec_pushf(a, "--label=%s", cell->label);
	strvec_pushf(a, "--output=%s", w->output ? w->output : cell->result);
	/* where it stands in the lab: compare blocks by round, the Method says what happened */
	strvec_pushf(a, "--lab-id=%s", L->lab_id ? L->lab_id : "<the new lab's id>");
	strvec_pushf(a, "--lab-cell=%s", cell->id);
	strvec_pushf(a, "--lab-round=%u", cell->round);
	strvec_pushf(a, "--lab-position=%u", cell->position);
	/* prep formatted it for this cell; volumes the user prepared are not reformatted (the
	 * result records volume_formatted = false, and the run's --fresh note says why) */
	if (!is_raw(cell->fs) && !cell->fs->prepared)
		strvec_push(a, "--lab-fresh-volume");
	/* every host starts its load at the same instant (docs/HOSTS.md "Starting together") */
	if (w->start_at)
		strvec_pushf(a, "--start-at=%s", w->start_at);
	/* not --quiet: the cell's run log keeps the run's steps (creation, initialisation rate,
	 * checksum pass) and its summary; the live line needs a terminal, which it has not.
	 * Progress lines on stdout: the one channel every kind of step target has (step.h) */
	strvec_push(a, "--progress-fd=1");
}

void lab_run_args(struct lab *L, const struct cell *cell, struct strvec *a)
{
	struct lab_where w;

	lab_where_local(L, &w);
	lab_where_run_args(L, &w, cell, a);
	lab_where_release(&w);
}

void lab_where_teardown_args(const struct lab_where *w, struct strvec *a)
{
	strvec_pushl(a, "teardown", "--mount-root", w->mnt, NULL);
	/* only what this lab's own preps made, never a user's prep on OUT/mnt (SYS_OWNER); a
	 * system without owners records its prep in OUT\mnt\prep.json, which is the lab's */
	if (w->sys->flags & SYS_OWNER)
		strvec_pushl(a, "--owner", w->owner, NULL);
}

void lab_teardown_args(struct lab *L, struct strvec *a)
{
	struct lab_where w;

	lab_where_local(L, &w);
	lab_where_teardown_args(&w, a);
	lab_where_release(&w);
}

/*
 * The cell error of a failed prep: its exit status and the first error it printed with what
 * follows (Windows prep: PowerShell's own message), so that lab.log and lab-state.json say
 * why without opening the log.
 */
char *lab_prep_failure(struct lab *L, int rc, const char *log)
{
	char *text = NULL, *at, *why;
	struct strbuf sb = STRBUF_INIT;
	size_t len;

	(void)L;
	if (rc < 0)
		return xasprintf("prep could not be started: %s (see %s)", strerror(-rc), log);
	if (read_file(log, &text, &len) || !(at = strstr(text, "fslab: error: "))) {
		free(text);
		return xasprintf("prep exited %d (see %s)", rc, log);
	}
	/* that line and, for a script's failure, up to three lines of its output */
	for (int lines = 0; *at && lines < 4; at++) {
		if (*at == '\r')
			continue;
		if (*at == '\n') {
			lines++;
			if (sb.len && sb.buf[sb.len - 1] != ' ')
				strbuf_addch(&sb, ' ');
			continue;
		}
		strbuf_addch(&sb, *at);
	}
	while (sb.len && sb.buf[sb.len - 1] == ' ')
		strbuf_setlen(&sb, sb.len - 1);
	why = xasprintf("prep exited %d: %s (see %s)", rc, sb.buf + strlen("fslab: error: "), log);
	strbuf_release(&sb);
	free(text);
	return why;
}

void lab_quote_arg(struct strbuf *sb, const char *arg)
{
#ifdef _WIN32
	argv_quote_win_arg(sb, arg, false); /* as cmd.exe and PowerShell pass it on */
#else
	strbuf_add_sq(sb, arg);
#endif
}

void lab_print_args(const struct strvec *a)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "  " LAB_FSLAB);
	for (size_t i = 0; i < a->nr; i++) {
		strbuf_addch(&sb, ' ');
		lab_quote_arg(&sb, a->v[i]);
	}
	puts(sb.buf);
	strbuf_release(&sb);
}

