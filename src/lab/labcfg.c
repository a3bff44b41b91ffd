// SPDX-License-Identifier: MIT
/* labcfg.c: lab config parsing with inih; every error names file:line. */
#include "lab/labcfg.h"
#include "lab/labcfgP.h"

#include <errno.h>
#ifndef FSLAB_NO_INIH
#include <ini.h>
#endif
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "fsprep/prep.h"
#include "lab/labplan.h"
#include "lib/strbuf.h"
#include "lib/base.h"
#include "lib/msg.h"
#include "lib/units.h"
#include "os/os.h"
#include "workloads/workload.h"


/* Errors named one by one; the rest of them are counted ("... and N more"). */
#define LAB_MAX_ERRORS 20
/* Largest lab config read: a config is a few KiB, anything near this size is not one. */
#define LAB_MAX_CONFIG_BYTES (1u << 20)

void lab_perr(struct parse *p, int line, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	/* the first LAB_MAX_ERRORS are named, the rest counted (a binary file has no end of them) */
	if (p->errors++ >= LAB_MAX_ERRORS)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fslab_err("%s:%d: %s", p->cfg->path, line, buf);
}

/* The count of the errors lab_perr() did not name; returns -FSLAB_EINPUT when there were any. */
static int errors_done(struct parse *p)
{
	if (p->errors > LAB_MAX_ERRORS)
		fslab_err("%s: ... and %d more errors (the first %d are shown); is this a lab config? "
			  "start from configs/template.ini", p->cfg->path, p->errors - LAB_MAX_ERRORS,
			  LAB_MAX_ERRORS);
	return p->errors ? -FSLAB_EINPUT : 0;
}

static struct lab_fs *new_fs_section(struct parse *p, const char *section);

/*
 * Longest line the lab takes, in characters without the newline: inih gets a heap buffer of
 * this size plus 3 ('\r', '\n', NUL; ini.h), so a line up to it reaches inih whole.  A longer
 * line is refused (inih would cut it and parse the tail as a new line: a comment ending in
 * "force = yes" would have become a key).
 */
#define LAB_MAX_LINE 4096

/* One whole line with its newline, NUL bytes included (no getline in Windows' C library);
 * its length, or -1 at the end of the file. */
static ssize_t read_line(struct parse *p)
{
	int c;

	strbuf_reset(&p->lb);
	while ((c = getc(p->f)) != EOF) {
		strbuf_addch(&p->lb, c);
		if (c == '\n')
			break;
	}
	return p->lb.len || c != EOF ? (ssize_t)p->lb.len : -1;
}

/* A line too long, or with a control character: said (the line is then read as empty).
 * s: the line, n: its length without the line end, len: with it. */
static bool line_problem(struct parse *p, const char *s, size_t n, ssize_t len, int num)
{
	bool header = *(s + strspn(s, " \t")) == '[';

	if (n > LAB_MAX_LINE || (int)len >= num) {
		p->content = true;
		lab_perr(p, p->line, "this line has %zu characters, more than the %d a line may have; "
		     "shorten it", n, LAB_MAX_LINE);
		p->bad_section = header;
		return true;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if ((ch < 0x20 && ch != '\t') || ch == 0x7f) {
			p->content = true;
			lab_perr(p, p->line, "%s (byte 0x%02x) in column %zu; a lab config is plain text: "
			     "remove it", ch ? "control character" : "NUL", ch, i + 1);
			p->bad_section = header;
			return true;
		}
	}
	return false;
}

/* A section header, [NAME] at t (inside str, the line inih gets): noted, or said. */
static void section_header(struct parse *p, char *str, char *t)
{
	char name[128], *end;
	size_t n;

	/* inih ends a header at ']' or at an inline comment: the same test here */
	for (end = t + 1; *end && *end != ']'; end++)
		if ((*end == ';' || *end == '#') && (end[-1] == ' ' || end[-1] == '\t'))
			break;
	if (*end != ']') {
		lab_perr(p, p->line, "section header without ']'; write it as [lab], [devices], "
		     "[workload] or [fs NAME]");
		/* the keys below belong to no section: ignored, not added to the one before */
		p->bad_section = true;
		str[0] = 0;
		return;
	}
	p->bad_section = false;
	p->section_line = p->line;
	t++;
	while (*t == ' ' || *t == '\t')
		t++;
	n = MIN((size_t)(end - t), sizeof(name) - 1);
	memcpy(name, t, n);
	while (n && (name[n - 1] == ' ' || name[n - 1] == '\t'))
		n--;
	name[n] = 0;
	if (!strcmp(name, "devices") && !p->seen_devices) {
		p->cfg->devices_line = p->line;
		p->seen_devices = true;
	} else if (!strcmp(name, "workload") && !p->seen_workload) {
		p->cfg->workload_line = p->line;
		p->seen_workload = true;
	} else if (!strcmp(name, "lab")) {
		p->seen_lab = true;
	} else if (!strncmp(name, "fs ", 3)) {
		new_fs_section(p, name);
	} else if (!strncmp(name, "host ", 5)) {
		struct strbuf err = STRBUF_INIT;

		if (lab_hosts_section(&p->cfg->hosts, name + 5 + strspn(name + 5, " "), p->line,
				      &err))
			lab_perr(p, p->line, "%s", err.buf);
		strbuf_release(&err);
	} else if (strcmp(name, "devices") && strcmp(name, "workload")) {
		lab_perr(p, p->line, "unknown section [%s]; sections are [lab], [devices], [workload], "
		     "[fs NAME] and [host NAME]", name);
	}
}

/*
 * inih's reader (fgets-like).  It reads one whole line itself and hands inih either that line
 * or, for a line it refused, an empty one: so inih's line count stays the file's, and nothing
 * of a refused line is parsed.  Refused, each with file:line: lines longer than LAB_MAX_LINE,
 * NUL and other control characters (all but tab, and CR before the newline), a section header
 * without ']'.  A UTF-8 BOM at the start of the file is dropped here (inih would drop it too,
 * but the section bookkeeping must see the same text).  It also sees section headers
 * as inih will (trimmed text between [ and ]), so that a section without keys still exists.
 */
static char *reader(char *str, int num, void *stream)
{
	struct parse *p = stream;
	ssize_t len = read_line(p);
	char *s, *t;
	size_t n;

	if (len < 0)
		return NULL;
	p->line++;
	s = p->lb.buf;
	if (p->line == 1 && len >= 3 && !memcmp(s, "\xef\xbb\xbf", 3)) {
		s += 3;
		len -= 3;
	}
	n = (size_t)len;
	if (n && s[n - 1] == '\n')
		n--;
	if (n && s[n - 1] == '\r')
		n--;
	str[0] = 0;
	if (line_problem(p, s, n, len, num))
		return str;
	memcpy(str, s, (size_t)len);
	str[len] = 0;
	for (t = str; *t == ' ' || *t == '\t'; t++)
		;
	if (*t && !strchr(";#\r\n", *t))
		p->content = true;
	if (*t == '[') {
		section_header(p, str, t);
	} else if (*t && !strchr(LAB_INI_COMMENT_PREFIXES, *t)) {
		char *why;

		free(p->quoted);
		p->quoted = NULL;
		switch (lab_ini_value(t, &p->quoted, &why)) {
		case 1:
			p->quoted_line = p->line;
			break;
		case -1:
			lab_perr(p, p->line, "%s", why);
			free(why);
			str[0] = 0; /* nothing of it is read */
			break;
		}
	}
	return str;
}

/* [lab] order = NAME */
static const char *const order_names[] = {
	[LAB_ORDER_SHUFFLED] = "shuffled",
	[LAB_ORDER_INTERLEAVED] = "interleaved",
	[LAB_ORDER_SEQUENTIAL] = "sequential",
};

const char *lab_order_name(enum lab_order o)
{
	return (unsigned int)o < ARRAY_SIZE(order_names) ? order_names[o] : "?";
}

int lab_order_parse(const char *s, enum lab_order *o)
{
	for (size_t i = 0; i < ARRAY_SIZE(order_names); i++)
		if (!strcmp(s, order_names[i])) {
			*o = (enum lab_order)i;
			return 0;
		}
	return -EINVAL;
}

static void set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = xstrdup(v);
}

struct lab_fs *lab_fs_section(struct parse *p, const char *name)
{
	struct lab_cfg *c = p->cfg;

	for (int i = 0; i < c->nfs; i++)
		if (!strcmp(c->fs[i].name, name))
			return &c->fs[i];
	return NULL;
}

static const char *const lab_keys = "title, output, baseline, repeats, raw_baseline, order, "
				    "order_seed, aa_check, precision, stop, equivalence, budget, "
				    "min_rounds, max_rounds, qualify, ssh_config, clock_limit";

/* "10%", "10 %" or "10": a percentage in (0, 1000] (1000 %: an elevenfold ratio, loose
 * enough for a smoke test to stop at min_rounds). */
static int parse_pct(const char *v, double *out)
{
	char *end;
	double d = strtod(v, &end);

	while (*end == ' ')
		end++;
	if (*end == '%')
		end++;
	if (end == v || *end || !(d > 0) || d > 1000)
		return -EINVAL;
	*out = d;
	return 0;
}
static const char *const dev_keys = "image_dir, db_size, log_size, db_dev, log_dev, force "
				    "(Linux); db_disk, log_disk, force, disk_info (Windows)";
static const char *const fs_keys = "fs, mkfs_opts, mount_opts, cluster; db_dir, log_dir, "
				   "allow_foreign_files (volumes you prepared)";

/* A [lab] key of the rounds (precision, stop, equivalence, qualify, budget, min_rounds,
 * max_rounds): true when k is one of them. */
static bool key_lab_rounds(struct parse *p, const char *k, const char *v)
{
	struct lab_cfg *c = p->cfg;
	uint64_t n;

	if (!strcmp(k, "precision")) {
		if (parse_pct(v, &c->precision))
			lab_perr(p, p->line, "precision = '%s': give the minimum detectable difference "
			     "wanted for every claim, a percentage such as 10%% (more than 0, at "
			     "most 1000%%)", v);
		c->precision_line = p->line;
	} else if (!strcmp(k, "stop")) {
		if (!strcmp(v, "decided") || !strcmp(v, "precision"))
			c->stop = v[0] == 'd' ? LAB_STOP_DECIDED : LAB_STOP_PRECISION;
		else
			lab_perr(p, p->line, "stop = '%s': give decided (until every claim is different, "
			     "equivalent or negligible) or precision (until every claim's MDE is at "
			     "most [lab] precision)", v);
		c->stop_line = p->line;
	} else if (!strcmp(k, "equivalence")) {
		if (!strcmp(v, "none"))
			c->equivalence = -1;
		else if (parse_pct(v, &c->equivalence) || c->equivalence > 100)
			lab_perr(p, p->line, "equivalence = '%s': give the margin within which two labels "
			     "count as equivalent, a percentage such as 5%% (more than 0, at most "
			     "100%%), or none", v);
		c->equivalence_line = p->line;
	} else if (!strcmp(k, "qualify")) {
		if (parse_duration(v, &c->qualify_ns) || c->qualify_ns < NSEC_PER_SEC ||
		    c->qualify_ns > 30ULL * 86400 * NSEC_PER_SEC)
			lab_perr(p, p->line, "qualify = '%s': give the length of the qualification run "
			     "per filesystem, such as 2h (Jetstress's), from 1s to 30d", v);
		c->qualify_line = p->line;
	} else if (!strcmp(k, "budget")) {
		if (parse_duration(v, &c->budget_ns) || c->budget_ns < 60 * NSEC_PER_SEC)
			lab_perr(p, p->line, "budget = '%s': give the wall clock the whole lab may take, "
			     "at least 1m, such as 10m or 2h", v);
		c->budget_line = p->line;
	} else if (!strcmp(k, "min_rounds") || !strcmp(k, "max_rounds")) {
		bool mn = !strcmp(k, "min_rounds");

		if (parse_u64(v, 2, LAB_ROUNDS_MAX, &n))
			lab_perr(p, p->line, "%s = '%s': give 2 to %d rounds", k, v, LAB_ROUNDS_MAX);
		else if (mn)
			c->min_rounds = (unsigned int)n;
		else
			c->max_rounds = (unsigned int)n;
		*(mn ? &c->min_rounds_line : &c->max_rounds_line) = p->line;
	} else {
		return false;
	}
	return true;
}

static void key_lab(struct parse *p, const char *k, const char *v)
{
	struct lab_cfg *c = p->cfg;
	uint64_t n;

	if (key_lab_rounds(p, k, v))
		return;
	if (!strcmp(k, "title"))
		set_str(&c->title, v);
	else if (!strcmp(k, "output"))
		set_str(&c->output, v);
	else if (!strcmp(k, "baseline")) {
		set_str(&c->baseline, v);
		c->baseline_line = p->line;
	}
	else if (!strcmp(k, "repeats")) {
		if (parse_u64(v, 1, LAB_ROUNDS_MAX, &n))
			lab_perr(p, p->line, "repeats = '%s': give 1 to 100 runs per configuration", v);
		else
			c->repeats = (unsigned int)n;
		c->repeats_line = p->line;
	} else if (!strcmp(k, "raw_baseline")) {
		if (!run_parse_bool(v, &c->raw_baseline))
			lab_perr(p, p->line, "raw_baseline = '%s': give yes or no", v);
	} else if (!strcmp(k, "order")) {
		if (lab_order_parse(v, &c->order))
			lab_perr(p, p->line, "order = '%s': give shuffled (rounds, each in random order), "
			     "interleaved (rounds in config order) or sequential (all repeats of a "
			     "filesystem back to back)", v);
	} else if (!strcmp(k, "order_seed")) {
		if (parse_u64(v, 0, LAB_SEED_MAX, &c->order_seed))
			lab_perr(p, p->line, "order_seed = '%s': give a whole number 0 to %llu, or leave it "
			     "out for a seed from the clock", v, (unsigned long long)LAB_SEED_MAX);
		else
			c->order_seed_set = true;
	} else if (!strcmp(k, "aa_check")) {
		if (!run_parse_bool(v, &c->aa_check))
			lab_perr(p, p->line, "aa_check = '%s': give yes or no", v);
		c->aa_check_line = p->line;
	} else {
		struct strbuf err = STRBUF_INIT;
		int r = lab_hosts_lab_key(&c->hosts, k, v, p->line, &err);

		if (r < 0)
			lab_perr(p, p->line, "%s", err.buf);
		else if (!r)
			lab_perr(p, p->line, "unknown key '%s' in [lab]; known keys: %s", k, lab_keys);
		strbuf_release(&err);
	}
}

static void key_devices(struct parse *p, const char *k, const char *v)
{
	struct lab_cfg *c = p->cfg;

	if (!strcmp(k, "image_dir")) {
		set_str(&c->image_dir, v);
		c->image_dir_line = p->line;
	} else if (!strcmp(k, "db_dev")) {
		set_str(&c->db_dev, v);
		c->db_dev_line = p->line;
	} else if (!strcmp(k, "log_dev")) {
		set_str(&c->log_dev, v);
		c->log_dev_line = p->line;
	} else if (!strcmp(k, "db_size")) {
		if (parse_size(v, &c->db_image_size) || c->db_image_size < 64 * MiB)
			lab_perr(p, p->line, "db_size = '%s': give the database image size, at least 64M, "
			     "e.g. 3G", v);
	} else if (!strcmp(k, "log_size")) {
		if (parse_size(v, &c->log_image_size) || c->log_image_size < 64 * MiB)
			lab_perr(p, p->line, "log_size = '%s': give the log image size, at least 64M, "
			     "e.g. 1G", v);
	} else if (!strcmp(k, "force")) {
		if (!run_parse_bool(v, &c->force))
			lab_perr(p, p->line, "force = '%s': give yes or no", v);
	} else if (!strcmp(k, "db_disk") || !strcmp(k, "log_disk")) {
		bool db = k[0] == 'd';
		uint64_t n;

		if (parse_u64(v, 0, 9999, &n))
			lab_perr(p, p->line, "%s = '%s': give the disk number as Get-Disk lists it (0-9999)",
			     k, v);
		else if (db)
			c->db_disk = (int)n;
		else
			c->log_disk = (int)n;
		*(db ? &c->db_disk_line : &c->log_disk_line) = p->line;
	} else if (!strcmp(k, "disk_info")) {
		set_str(&c->disk_info, v);
		c->disk_info_line = p->line;
	} else
		lab_perr(p, p->line, "unknown key '%s' in [devices]; known keys: %s", k, dev_keys);
}

/* Does v hold the word auto, in any case (strcasestr is not on every system)? */
static bool has_word_auto(const char *v)
{
	for (; *v; v++)
		if (!strncasecmp(v, "auto", 4))
			return true;
	return false;
}

/*
 * A [workload] key: an option of fslab run (run/options.h) under its config name, its value
 * checked by the same table; threads may be a list (one cell per thread count).
 */
static void key_workload(struct parse *p, const char *k, const char *v)
{
	struct lab_cfg *c = p->cfg;
	const struct run_option *o = run_option_by_ini(k);
	const char *fix;

	if (!o) {
		lab_perr(p, p->line, "unknown key '%s' in [workload]; known keys: %s", k,
		     run_option_ini_keys());
		return;
	}
	c->wl_line[o - run_options] = p->line;
	/* threads = auto: one cell per label, its count the tuner's (thread count 0) */
	if ((o->flags & ROF_SWEEP) && (o->flags & ROF_AUTO) && has_word_auto(v)) {
		if (strcasecmp(v, "auto"))
			lab_perr(p, p->line, "%s = '%s': auto stands alone (the tuner finds one count per "
			     "cell); give auto or a list of counts", k, v);
		c->threads[0] = 0;
		c->nthreads = 1;
		c->wl.threads_auto = true;
		return;
	}
	if (o->flags & ROF_SWEEP) {
		int cnt = parse_list_u64(v, c->threads, LAB_MAX_THREADS);

		if (cnt < 0) {
			lab_perr(p, p->line, "%s = '%s': give a thread count or a list such as 4,8,12 "
			     "(at most %d entries)", k, v, LAB_MAX_THREADS);
			return;
		}
		for (int i = 0; i < cnt; i++)
			if (c->threads[i] < o->lo || c->threads[i] > o->hi) {
				lab_perr(p, p->line, "%s = '%s': %llu is not a valid thread count; each "
				     "must be %llu to %llu", k, v, (unsigned long long)c->threads[i],
				     (unsigned long long)o->lo, (unsigned long long)o->hi);
				return;
			}
		c->nthreads = cnt;
		return;
	}
	if (run_option_parse(&c->run, o, v, &fix))
		lab_perr(p, p->line, "%s = '%s': %s", k, v, fix);
}

static void key_fs(struct parse *p, struct lab_fs *f, const char *k, const char *v)
{
	if (!strcmp(k, "fs")) {
		set_str(&f->fs, v);
		f->fs_given = true;
		f->fs_line = p->line;
	} else if (!strcmp(k, "mkfs_opts")) {
		set_str(&f->mkfs_opts, v);
		f->format_line = p->line;
	} else if (!strcmp(k, "mount_opts")) {
		set_str(&f->mount_opts, v);
		f->format_line = p->line;
	} else if (!strcmp(k, "cluster")) {
		uint64_t sz;

		f->format_line = p->line;
		if (parse_size(v, &sz) || !sz)
			lab_perr(p, p->line, "cluster = '%s': give a size such as 4K or 64K", v);
		else
			set_str(&f->cluster, v);
	} else if (!strcmp(k, "db_dir") || !strcmp(k, "log_dir")) {
		/* one directory per line, repeated for several (as --db and --log are): a path
		 * may hold commas */
		bool db = k[0] == 'd';

		if (!*v)
			lab_perr(p, p->line, "%s is empty; give a directory on a volume you prepared", k);
		else
			strvec_push(db ? &f->db_dirs : &f->log_dirs, v);
		if (!*(db ? &f->db_dir_line : &f->log_dir_line))
			*(db ? &f->db_dir_line : &f->log_dir_line) = p->line;
		f->prepared = true;
	} else if (!strcmp(k, "allow_foreign_files")) {
		if (!run_parse_bool(v, &f->allow_foreign_files))
			lab_perr(p, p->line, "allow_foreign_files = '%s': give yes or no", v);
	} else
		lab_perr(p, p->line, "unknown key '%s' in [fs %s]; known keys: %s", k, f->name, fs_keys);
}

/* "[fs NAME]" with a valid label-like NAME. */
static struct lab_fs *new_fs_section(struct parse *p, const char *section)
{
	struct lab_cfg *c = p->cfg;
	const char *name = section + 3;
	struct lab_fs *f;
	size_t n;

	while (*name == ' ')
		name++;
	n = strlen(name);
	/* the name is the label (NAME-256t-aa at most: 48 + 8 <= 64), so the label rule */
	if (n > 48 || label_problem(name)) {
		lab_perr(p, p->section_line, "[%s]: give the filesystem a name of at most 48 letters, "
		     "digits, '.', '_', '+' or '-', starting with a letter or a digit, e.g. [fs ext4] "
		     "or [fs xfs-nobarrier]", section);
		return NULL;
	}
	f = lab_fs_section(p, name);
	if (f)
		return f;
	if (c->nfs == LAB_MAX_FS) {
		lab_perr(p, p->section_line, "more than %d [fs ...] sections", LAB_MAX_FS);
		return NULL;
	}
	f = &c->fs[c->nfs++];
	f->name = xstrdup(name);
	f->line = p->section_line;
	strvec_init(&f->db_dirs);
	strvec_init(&f->log_dirs);
	return f;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct parse *p = user;

	if (p->bad_section)
		return 1;
	/* a quoted value: its text, which may hold what inih would take as a comment */
	if (p->quoted && p->quoted_line == p->line)
		value = p->quoted;
	if (!strcmp(section, "lab")) {
		key_lab(p, name, value);
	} else if (!strcmp(section, "devices")) {
		key_devices(p, name, value);
	} else if (!strcmp(section, "workload")) {
		key_workload(p, name, value);
	} else if (!strncmp(section, "fs ", 3)) {
		struct lab_fs *f = lab_fs_section(p, section + 3 + strspn(section + 3, " "));

		if (f) /* NULL: the reader already reported a bad name */
			key_fs(p, f, name, value);
	} else if (!strncmp(section, "host ", 5)) {
		struct strbuf err = STRBUF_INIT;

		if (lab_hosts_key(&p->cfg->hosts, section + 5 + strspn(section + 5, " "), name,
				  value, &err))
			lab_perr(p, p->line, "%s", err.buf);
		strbuf_release(&err);
	} else if (!*section) {
		lab_perr(p, p->line, "'%s' is outside any section; put it under [lab], [devices], "
		     "[workload], [fs NAME] or [host NAME]", name);
	}
	/* keys of an unknown section: the reader reported the section once */
	return 1; /* keep going: report every problem */
}

/* The config file opened into p->f: a regular file of a config's size.  0, or
 * -FSLAB_EINPUT after the message. */
static int open_config(struct parse *p, const char *path)
{
	struct stat st;
	int ret, kind;

	/* a regular file only: a FIFO would block the open, a device (/dev/urandom) never end */
	ret = os_fopen_regular(path, &p->f, &kind);
	if (ret == -EINVAL)
		return input_error("%s: not a regular file (%s); name the lab config file (see "
				   "configs/template.ini)", path, os_kind_name(kind));
	if (ret)
		return input_error("%s: cannot open the lab config (%s)", path, strerror(-ret));
	if (!fstat(fileno(p->f), &st) && st.st_size > (off_t)LAB_MAX_CONFIG_BYTES) {
		fclose(p->f);
		return input_error("%s: %lld bytes, more than a lab config may have (%u KiB); name "
				   "the lab config file (see configs/template.ini)", path,
				   (long long)st.st_size, LAB_MAX_CONFIG_BYTES >> 10);
	}
	return 0;
}

/* inih's options, where they are run-time globals. */
static void inih_options(void)
{
	/*
	 * Debian's inih has its compile-time options as globals: a heap line buffer of
	 * LAB_MAX_LINE + 3 that never grows (the reader refuses longer lines itself).  fslab.exe
	 * links an inih built with these same values as its compile-time options
	 * (scripts/win-sysroot.sh), so it parses alike.
	 */
#if !defined(FSLAB_NO_INIH) && !defined(FSLAB_INIH_FIXED_OPTIONS)
	ini_allow_multiline = false;
	ini_allow_inline_comments = true;
	ini_inline_comment_prefixes = (char *)LAB_INI_COMMENT_PREFIXES;
	ini_allow_bom = true;
	ini_use_stack = false;
	ini_allow_realloc = false;
	ini_max_line = LAB_MAX_LINE + 3;
	ini_initial_alloc = LAB_MAX_LINE + 3;
	ini_stop_on_first_error = false;
#endif
}

int lab_cfg_load(struct lab_cfg *cfg, const char *path)
{
	return lab_cfg_load_for(cfg, path, lab_system_here());
}

int lab_cfg_load_for(struct lab_cfg *cfg, const char *path, const struct lab_system *sys)
{
	struct parse p = { .cfg = cfg, .lb = STRBUF_INIT };
	int ret;

	memset(cfg, 0, sizeof(*cfg));
	lab_hosts_init(&cfg->hosts);
	cfg->path = xstrdup(path);
	cfg->sys = sys;
	cfg->db_disk = cfg->log_disk = -1;
	cfg->repeats = 1;
	run_params_init(&cfg->run, &cfg->wl); /* fslab run's defaults: the same table */
	cfg->threads[0] = cfg->wl.threads;
	cfg->nthreads = 1;

#ifdef FSLAB_NO_INIH
	/* built where inih's source could not be had (scripts/win-sysroot.sh, docs/WINDOWS.md) */
	(void)p;
	(void)ret;
	(void)reader;
	(void)handler;
	(void)open_config;
	(void)inih_options;
	(void)errors_done;
	return input_error("%s: this fslab.exe was built without inih, the INI reader of lab "
			   "configs (its Debian source was not on the build machine's mirror): "
			   "rebuild it with FSLAB_INIH_SRC=DIR pointing at an inih r55 release "
			   "(docs/WINDOWS.md), or run each cell with fslab.exe prep, run and "
			   "teardown", path);
#else
	ret = open_config(&p, path);
	if (ret)
		return ret;
	inih_options();
	ret = ini_parse_stream(reader, &p, handler, &p);
	if (ferror(p.f))
		ret = -1;
	fclose(p.f);
	strbuf_release(&p.lb);
	free(p.quoted);
	/* inih names its first error only; the reader already named the lines it refused */
	if (ret > 0)
		lab_perr(&p, ret, "cannot parse this line; lines are [section], key = value, or ; comments");
	if (ret < 0) {
		errors_done(&p);
		return input_error("%s: cannot read the lab config", path);
	}
	if (!p.content && !p.errors) {
		fslab_err("%s: the lab config is empty (no section, no key); start from "
			  "configs/template.ini", path);
		return -FSLAB_EINPUT;
	}
	/*
	 * Default database image: twice the databases plus room.  btrfs's copy-on-write keeps a
	 * partially overwritten extent whole until every block of it was rewritten, so a
	 * database rewritten in place in 32 KiB pages grows towards twice its size (measured:
	 * ENOSPC on a 2 GiB btrfs holding a 1 GiB database after 40 s).  Every filesystem gets
	 * the same (sparse) image, so the comparison stays fair.
	 */
	if (!cfg->db_image_size)
		cfg->db_image_size = MAX(sat_add(sat_mul(cfg->wl.databases, cfg->wl.db_size) / 10 * 22,
						 512 * MiB), 1 * GiB);
	if (!cfg->log_image_size)
		cfg->log_image_size = MAX(cfg->wl.databases * 64 * MiB + 256 * MiB, 512 * MiB);
	lab_cfg_check(&p);
	return errors_done(&p);
#endif
}

void lab_cfg_release(struct lab_cfg *c)
{
	free(c->path);
	free(c->title);
	free(c->output);
	free(c->baseline);
	free(c->image_dir);
	free(c->db_dev);
	free(c->log_dev);
	free(c->disk_info);
	run_params_release(&c->run);
	lab_hosts_release(&c->hosts);
	run_config_release(&c->wl);
	for (int i = 0; i < c->nfs; i++) {
		free(c->fs[i].name);
		free(c->fs[i].fs);
		free(c->fs[i].mkfs_opts);
		free(c->fs[i].mount_opts);
		free(c->fs[i].cluster);
		strvec_clear(&c->fs[i].db_dirs);
		strvec_clear(&c->fs[i].log_dirs);
	}
	memset(c, 0, sizeof(*c));
}

bool lab_cfg_has_prepped(const struct lab_cfg *c)
{
	bool any = c->raw_baseline;

	for (int i = 0; i < c->nfs; i++)
		any = any || !c->fs[i].prepared;
	return any;
}

unsigned int lab_cfg_ncells(const struct lab_cfg *c)
{
	return (unsigned int)(c->nfs + c->raw_baseline + c->aa_check) * (unsigned int)c->nthreads *
	       c->repeats;
}

/* label is "NAME-<digits>t" */
static bool sweep_label_of(const char *label, const char *name)
{
	size_t n = strlen(name), d;

	if (strncmp(label, name, n) || label[n] != '-')
		return false;
	d = strspn(label + n + 1, "0123456789");
	return d && !strcmp(label + n + 1 + d, "t");
}

int lab_cfg_baseline_fs(const struct lab_cfg *c)
{
	const char *b = c->baseline;

	if (!b)
		return 0;
	for (int i = 0; i < c->nfs; i++)
		if (!strcmp(c->fs[i].name, b))
			return i;
	if (c->raw_baseline && (!strcmp(b, "raw") || sweep_label_of(b, "raw")))
		return -1;
	for (int i = 0; i < c->nfs; i++)
		if (sweep_label_of(b, c->fs[i].name))
			return i;
	return 0;
}
