// SPDX-License-Identifier: MIT
/* hostcfg.c: the [host NAME] sections of a lab config and the hosts' [lab] keys (ssh_config,
 * clock_limit): parsed and checked for labcfg.c, which reports with file:line (hosts.h). */
#include "lab/hosts.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/argv_quote.h"
#include "lab/labcfg.h"
#include "merge/merge.h"
#include "lib/base.h"
#include "lib/units.h"

const char *const lab_host_keys = "ssh, fslab, os, workdir, image_dir, db_dev, log_dev, "
				  "db_size, log_size";

void lab_hosts_init(struct lab_hosts *h)
{
	memset(h, 0, sizeof(*h));
	h->clock_limit_s = HOSTS_CLOCK_LIMIT_S;
}

void lab_hosts_release(struct lab_hosts *h)
{
	for (size_t i = 0; i < h->n; i++) {
		struct lab_host *x = &h->v[i];

		free(x->name);
		free(x->ssh);
		free(x->fslab);
		free(x->workdir);
		free(x->image_dir);
		free(x->db_dev);
		free(x->log_dev);
	}
	free(h->v);
	free(h->ssh_config);
	memset(h, 0, sizeof(*h));
}

const struct lab_system *lab_host_sys(const struct lab_host *h)
{
	return h->sys ? h->sys : lab_systems[0];
}

bool lab_host_local(const struct lab_host *h)
{
	return h->ssh && !strcmp(h->ssh, "local");
}

const char *lab_host_fslab(const struct lab_host *h)
{
	return h->fslab ? h->fslab : lab_host_sys(h)->fslab;
}

static struct lab_host *find(struct lab_hosts *h, const char *name)
{
	for (size_t i = 0; i < h->n; i++)
		if (!strcmp(h->v[i].name, name))
			return &h->v[i];
	return NULL;
}

int lab_hosts_section(struct lab_hosts *h, const char *name, int line, struct strbuf *err)
{
	const char *why = merge_name_problem(name);

	if (why) {
		strbuf_addf(err, "[host %s]: %s; give the host a name of at most 32 letters, digits, "
			    "'.', '_', '+' or '-' (it names result files), e.g. [host node1]", name, why);
		return -EINVAL;
	}
	if (find(h, name))
		return 0;
	if (h->n == HOSTS_MAX) {
		strbuf_addf(err, "more than %d [host ...] sections", HOSTS_MAX);
		return -EINVAL;
	}
	h->v = xrealloc(h->v, (h->n + 1) * sizeof(*h->v));
	memset(&h->v[h->n], 0, sizeof(h->v[h->n]));
	h->v[h->n].name = xstrdup(name);
	h->v[h->n].line = line;
	h->n++;
	return 0;
}

static bool has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

static void set(char **dst, const char *v)
{
	free(*dst);
	*dst = xstrdup(v);
}

int lab_hosts_key(struct lab_hosts *h, const char *name, const char *key, const char *value,
		  struct strbuf *err)
{
	struct lab_host *x = find(h, name);

	if (!x)
		return 0; /* the header was refused and reported */
	if (has_control(value)) {
		strbuf_addf(err, "[host %s] %s: control characters are not allowed", name, key);
		return -EINVAL;
	}
	if (!strcmp(key, "ssh")) {
		/* passed to ssh as its destination, after "--": but a name ssh would read as an
		 * option, or one with blanks, is a mistake */
		if (!*value || value[0] == '-' || strpbrk(value, " \t")) {
			strbuf_addf(err, "[host %s] ssh = '%s': give the ssh destination as you would "
				    "to ssh (node1, root@10.0.0.11, an alias of your ~/.ssh/config), or "
				    "local for this machine", name, value);
			return -EINVAL;
		}
		set(&x->ssh, value);
	} else if (!strcmp(key, "fslab")) {
		if (!*value) {
			strbuf_addf(err, "[host %s] fslab = '': give the path of fslab on that host, "
				    "e.g. /usr/local/bin/fslab or C:\\fslab\\fslab.exe", name);
			return -EINVAL;
		}
		set(&x->fslab, value);
	} else if (!strcmp(key, "os")) {
		x->sys = lab_system_find(value);
		if (!x->sys) {
			char *names = lab_system_names();

			strbuf_addf(err, "[host %s] os = '%s': give %s (fslab.exe behind Windows' "
				    "OpenSSH)", name, value, names);
			free(names);
			return -EINVAL;
		}
	} else if (!strcmp(key, "workdir")) {
		set(&x->workdir, value);
	} else if (!strcmp(key, "image_dir")) {
		set(&x->image_dir, value);
	} else if (!strcmp(key, "db_dev")) {
		set(&x->db_dev, value);
	} else if (!strcmp(key, "log_dev")) {
		set(&x->log_dev, value);
	} else if (!strcmp(key, "db_size") || !strcmp(key, "log_size")) {
		uint64_t *sz = key[0] == 'd' ? &x->db_image_size : &x->log_image_size;

		if (parse_size(value, sz) || *sz < 64 * MiB) {
			strbuf_addf(err, "[host %s] %s = '%s': give the %s image size, at least 64M, "
				    "e.g. %s", name, key, value, key[0] == 'd' ? "database" : "log",
				    key[0] == 'd' ? "3G" : "1G");
			return -EINVAL;
		}
	} else {
		strbuf_addf(err, "unknown key '%s' in [host %s]; known keys: %s", key, name,
			    lab_host_keys);
		return -EINVAL;
	}
	return 0;
}

int lab_hosts_lab_key(struct lab_hosts *h, const char *key, const char *value, int line,
		      struct strbuf *err)
{
	if (!strcmp(key, "ssh_config")) {
		set(&h->ssh_config, value);
		h->ssh_config_line = line;
		return 1;
	}
	if (!strcmp(key, "clock_limit")) {
		char *end;
		double v = strtod(value, &end);
		uint64_t ns;

		if (end == value || *end) {
			/* "500ms", "1s" */
			v = parse_duration(value, &ns) ? NAN : ns / 1e9;
		}
		if (!(v > 0) || v > 60) {
			strbuf_addf(err, "clock_limit = '%s': give the largest clock disagreement "
				    "between hosts, in seconds above 0 and at most 60, e.g. 0.5 or "
				    "200ms", value);
			return -EINVAL;
		}
		h->clock_limit_s = v;
		h->clock_limit_line = line;
		return 1;
	}
	return 0;
}

/* ---- effective devices ---- */

/* The host's own device keys replace the [devices] section's way of giving devices: an
 * image_dir of its own drops the section's db_dev/log_dev, and the other way round. */
static bool own_images(const struct lab_host *h)
{
	return h->image_dir != NULL;
}

static bool own_devs(const struct lab_host *h)
{
	return h->db_dev || h->log_dev;
}

const char *lab_host_image_dir(const struct lab_host *h, const struct lab_cfg *c)
{
	if (own_images(h))
		return h->image_dir;
	return own_devs(h) ? NULL : c->image_dir;
}

const char *lab_host_db_dev(const struct lab_host *h, const struct lab_cfg *c)
{
	if (h->db_dev)
		return h->db_dev;
	return own_images(h) ? NULL : c->db_dev;
}

const char *lab_host_log_dev(const struct lab_host *h, const struct lab_cfg *c)
{
	if (h->log_dev)
		return h->log_dev;
	return own_images(h) ? NULL : c->log_dev;
}

uint64_t lab_host_db_image_size(const struct lab_host *h, const struct lab_cfg *c)
{
	return h->db_image_size ? h->db_image_size : c->db_image_size;
}

uint64_t lab_host_log_image_size(const struct lab_host *h, const struct lab_cfg *c)
{
	return h->log_image_size ? h->log_image_size : c->log_image_size;
}

static void problemf(void (*problem)(void *, int, const char *), void *ctx, unsigned int *n,
		     int line, const char *fmt, ...) __printf(5, 6);
static void problemf(void (*problem)(void *, int, const char *), void *ctx, unsigned int *n,
		     int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lab_system_vproblem(problem, ctx, line, fmt, ap);
	va_end(ap);
	(*n)++;
}

/* One directory written two ways ("/w", "/w/", "/w//")?  As written: the host's own paths
 * are not resolved here. */
static bool same_dir(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);

	while (na > 1 && (a[na - 1] == '/' || a[na - 1] == '\\'))
		na--;
	while (nb > 1 && (b[nb - 1] == '/' || b[nb - 1] == '\\'))
		nb--;
	return na == nb && !strncmp(a, b, na);
}

unsigned int lab_hosts_check(const struct lab_hosts *h, const struct lab_cfg *c,
			     void (*problem)(void *ctx, int line, const char *text), void *ctx)
{
	unsigned int n = 0;

	if (h->ssh_config && access(h->ssh_config, R_OK))
		problemf(problem, ctx, &n, h->ssh_config_line, "ssh_config = %s: cannot read it; "
			 "give the ssh client configuration file for every ssh (ssh -F)",
			 h->ssh_config);
	for (size_t i = 0; i < h->n; i++) {
		const struct lab_host *x = &h->v[i];
		const char *img = lab_host_image_dir(x, c), *db = lab_host_db_dev(x, c);
		const char *lg = lab_host_log_dev(x, c), *why;
		const struct lab_system *xs = lab_host_sys(x);
		struct strbuf sb = STRBUF_INIT;

		if (!x->ssh) {
			problemf(problem, ctx, &n, x->line, "[host %s]: no ssh key; give ssh = "
				 "DESTINATION (as you would give it to ssh) or ssh = local",
				 x->name);
			continue;
		}
		/* the binary's path itself must reach the host's shell */
		if (xs->remote_command(&sb, (const char *[]){ lab_host_fslab(x), NULL }, &why))
			problemf(problem, ctx, &n, x->line, "[host %s] fslab = %s: %s", x->name,
				 lab_host_fslab(x), why);
		strbuf_release(&sb);
		/* ssh = local is the controller itself, whose system drives hosts */
		if (!(xs->flags & SYS_CONTROLLER) && lab_host_local(x))
			problemf(problem, ctx, &n, x->line, "[host %s]: ssh = local runs on this "
				 "machine, which is not %s: give the %s host's ssh destination",
				 x->name, xs->title, xs->title);
		if (x->workdir && !xs->absolute(x->workdir))
			problemf(problem, ctx, &n, x->line, "[host %s] workdir = %s: give an absolute "
				 "path on that host (%s)", x->name, x->workdir, xs->workdir);
		n += xs->check_host_devices(x, img, db, lg, problem, ctx);
		if (!img && db && lg && !strcmp(db, lg))
			problemf(problem, ctx, &n, x->line, "[host %s]: db_dev and log_dev are the same "
				 "device; give two devices", x->name);
		for (size_t k = 0; k < i; k++) {
			const struct lab_host *y = &h->v[k];
			const char *yimg = lab_host_image_dir(y, c), *ydb = lab_host_db_dev(y, c);

			if (!y->ssh || strcmp(x->ssh, y->ssh))
				continue;
			if ((img && yimg && !strcmp(img, yimg)) || (db && ydb && !strcmp(db, ydb)))
				problemf(problem, ctx, &n, x->line, "[host %s] and [host %s] are one "
					 "machine (ssh = %s) with the same %s: their preps would take "
					 "each other's devices; give each its own image_dir or devices",
					 y->name, x->name, x->ssh, img ? "image_dir" : "db_dev");
			/* one workdir: one mount root and one result file for two hosts */
			if (x->workdir && y->workdir && same_dir(x->workdir, y->workdir))
				problemf(problem, ctx, &n, x->line, "[host %s] and [host %s] are one "
					 "machine (ssh = %s) with the same workdir = %s: each would mount "
					 "its volumes and write its results over the other's; give each "
					 "its own workdir", y->name, x->name, x->ssh, x->workdir);
		}
	}
	return n;
}
