// SPDX-License-Identifier: MIT
/*
 * import.c: the table of importers, reading a file, labels, and what every importer shares.
 * A new format: one file src/compare/import_<format>.c defining a struct importer
 * import_<format>, and its name in IMPORTERS below (docs/INTEROP.md, "Adding a format").
 */
#include "compare/import.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/base.h"
#include "os/files.h"
#include "lib/msg.h"
#include "os/os.h"
#include "lib/strbuf.h"
#include "lib/units.h"

/* In sniffing order; fslab's own format last: it takes whatever the others do not claim
 * (so a damaged fslab file still gets result_read()'s messages).  Help texts and messages
 * list the formats from here (import_formats()). */
#define IMPORTERS(X) X(fio) X(diskspd) X(diskspd_text) X(jetstress) X(fslab)

#define IMPORT_DECLARE(n) extern const struct importer import_##n;
#define IMPORT_ENTRY(n) &import_##n,
IMPORTERS(IMPORT_DECLARE)
static const struct importer *const importers[] = { IMPORTERS(IMPORT_ENTRY) };

char *import_formats(unsigned int how, const char *sep, const char *last)
{
	const size_t own = ARRAY_SIZE(importers) - 1; /* the catch-all: fslab's own */
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0, total = own + !!(how & IMPORT_OWN);

	for (size_t k = 0; k <= own; k++) {
		/* fslab's own first when asked for, then the others in table order */
		size_t i = how & IMPORT_OWN ? (k + own) % (own + 1) : k;
		const struct importer *imp = importers[i];

		if (i == own && !(how & IMPORT_OWN))
			continue;
		if (n++)
			strbuf_addstr(&sb, n == total ? last : sep);
		strbuf_addstr(&sb, how & IMPORT_FORMAT ? imp->format : imp->name);
	}
	return strbuf_detach(&sb, NULL);
}

/* A new zeroed result at the end of l with its suffix (copied; NULL: none): the one place the
 * list grows. */
static struct fslab_result *list_push(struct import_list *l, const char *suffix)
{
	if (l->n == l->alloc) {
		l->alloc = l->alloc ? 2 * l->alloc : 4;
		l->r = xrealloc(l->r, l->alloc * sizeof(*l->r));
		l->suffix = xrealloc(l->suffix, l->alloc * sizeof(*l->suffix));
	}
	memset(&l->r[l->n], 0, sizeof(*l->r));
	l->suffix[l->n] = suffix ? xstrdup(suffix) : NULL;
	return &l->r[l->n++];
}

/* ---- fslab's own result files ---- */

static bool fslab_sniff(const char *buf, size_t len)
{
	(void)buf;
	(void)len;
	return true;
}

static int fslab_parse(const char *buf, size_t len, const char *file, struct import_list *out)
{
	struct fslab_result *r;
	json_error_t err;
	json_t *root;
	int ret;

	root = json_loadb(buf, len, 0, &err);
	if (!root) {
		char *others = import_formats(0, ", ", " or ");

		ret = input_error("%s: not valid JSON at line %d column %d (%s) and not another "
				  "format fslab imports (%s); the file is truncated or not a result, "
				  "re-run the tool", file, err.line, err.column, err.text, others);
		free(others);
		return ret;
	}
	r = list_push(out, NULL);
	ret = result_from_json(root, file, r);
	json_decref(root);
	return ret;
}

const struct importer import_fslab = {
	.tool = "fslab",
	.name = "fslab results",
	.format = "fslab result (" RESULT_SCHEMA ")",
	.sniff = fslab_sniff,
	.parse = fslab_parse,
};

/* ---- helpers for the importers ---- */

void import_lat_na(struct class_result *c)
{
	c->lat_us = (struct lat_summary){ NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN };
}

struct fslab_result *import_add(struct import_list *l, const char *suffix, const char *tool,
				const char *version, const char *format, const char *file,
				const char *host)
{
	struct fslab_result *r = list_push(l, suffix);

	result_init(r);
	r->schema = xstrdup(RESULT_SCHEMA);
	r->src.tool = xstrdup(tool);
	r->src.version = version ? xstrdup(version) : NULL;
	r->src.format = format ? xstrdup(format) : NULL;
	r->src.file = xstrdup(file);
	r->src.host = host ? xstrdup(host) : NULL;
	r->config.na = ~UINT64_C(0);
	for (int i = 0; i < CLS_NR; i++) {
		struct class_result *c = &r->classes[i];

		c->iops = c->mbps = c->avg_bytes = NAN;
		import_lat_na(c);
	}
	r->transactional_iops = NAN;
	r->transactions_per_s = NAN;
	r->duration_s = NAN;
	r->host.cpu_pct_avg = r->host.cpu_pct_max = NAN;
	r->host.cpu_user_pct = r->host.cpu_sys_pct = r->host.cpu_iowait_pct = NAN;
	return r;
}

void import_finish(struct fslab_result *r)
{
	const struct class_result *rd = &r->classes[CLS_DB_READ], *wr = &r->classes[CLS_DB_WRITE];
	json_t *src = json_object();

	if (isnan(r->transactional_iops) && !(isnan(rd->iops) && isnan(wr->iops)))
		r->transactional_iops = (isnan(rd->iops) ? 0 : rd->iops) +
					(isnan(wr->iops) ? 0 : wr->iops);
	if (!r->config.workload)
		r->config.workload = xstrdup("unknown");
	json_decref(r->environment);
	r->environment = json_object();
	if (r->src.host)
		json_object_set_new(r->environment, "hostname", json_string(r->src.host));
	json_object_set_new(src, "tool", json_string(r->src.tool));
	if (r->src.version)
		json_object_set_new(src, "version", json_string(r->src.version));
	if (r->src.format)
		json_object_set_new(src, "format", json_string(r->src.format));
	json_object_set_new(src, "file", json_string(r->src.file));
	json_object_set_new(r->environment, "source", src);
}

/* ---- labels ---- */

char *import_label_from_file(const char *file)
{
	const char *base = strrchr(file, '/');
	char *l = xstrdup(base ? base + 1 : file), *dot = strrchr(l, '.');
	size_t n;

	if (dot && dot != l)
		*dot = 0;
	/* a trailing repeat number: "-2", "_2", "-r2", ".2" */
	n = strlen(l);
	if (n && isdigit((unsigned char)l[n - 1])) {
		size_t k = n;

		while (k && isdigit((unsigned char)l[k - 1]))
			k--;
		if (k >= 2 && l[k - 1] == 'r' && strchr("-_.", l[k - 2]))
			k--;
		if (k >= 2 && strchr("-_.", l[k - 1]))
			l[k - 1] = 0;
	}
	if (!*l) {
		free(l);
		return NULL;
	}
	return l;
}

/* Characters outside the label set become '_' (host names, ports). */
static void label_sanitize(char *s)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._+-", *s))
			*s = '_';
}

static int apply_labels(const char *file, const char *label, const struct importer *imp,
			struct import_list *out)
{
	char *base = NULL;

	if (label)
		base = xstrdup(label);
	else if (imp != &import_fslab)
		base = import_label_from_file(file);
	if (!label && imp != &import_fslab && (!base || label_problem(base))) {
		int ret = input_error("%s: its file name gives the label '%s', which cannot be used "
				      "(%s); name the label with --label %s=NAME", file,
				      base ? base : "", base ? label_problem(base)
							     : "a label cannot be empty", file);

		free(base);
		return ret;
	}
	for (size_t i = 0; base && i < out->n; i++) {
		struct fslab_result *r = &out->r[i];

		free(r->label);
		if (out->suffix[i]) {
			r->label = xasprintf("%s-%s", base, out->suffix[i]);
			label_sanitize(r->label);
			if (strlen(r->label) > 64)
				r->label[64] = 0;
		} else {
			r->label = xstrdup(base);
		}
	}
	free(base);
	return 0;
}

/* ---- reading ---- */

void import_list_release(struct import_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		result_release(&l->r[i]);
		free(l->suffix[i]);
	}
	free(l->r);
	free(l->suffix);
	memset(l, 0, sizeof(*l));
}

/* from_path: file names the file buf was read from (fslab results then go through
 * result_from_buffer(), with result_read()'s messages). */
static int import_any(const char *buf, size_t len, const char *file, const char *label,
		      struct import_list *out, bool from_path)
{
	const struct importer *imp = NULL;
	char *conv = NULL;
	int ret;

	memset(out, 0, sizeof(*out));
	if (len >= 2 && (unsigned char)buf[0] == 0xff && (unsigned char)buf[1] == 0xfe) {
		/* UTF-16LE with a byte order mark: what PowerShell's '>' writes */
		conv = os_utf16le_to_utf8(buf + 2, len - 2, &len);
		if (!conv)
			return input_error("%s: starts as UTF-16 text but does not convert to UTF-8; "
					   "save it again as UTF-8 (or UTF-16 without damage)", file);
		buf = conv;
	}
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3)) {
		buf += 3;
		len -= 3;
	}
	if (memchr(buf, 0, len)) {
		char *all = import_formats(IMPORT_OWN, ", ", " or ");

		free(conv);
		ret = input_error("%s: contains NUL bytes: not a text format fslab imports (%s)",
				  file, all);
		free(all);
		return ret;
	}
	for (size_t i = 0; i < ARRAY_SIZE(importers) && !imp; i++)
		if (importers[i]->sniff(buf, len))
			imp = importers[i];
	if (imp == &import_fslab && from_path) {
		ret = result_from_buffer(buf, len, file, list_push(out, NULL));
	} else {
		ret = imp->parse(buf, len, file, out);
	}
	if (!ret && !out->n)
		ret = input_error("%s: %s without any result in it; name a complete file", file,
				  imp->format);
	if (!ret)
		ret = apply_labels(file, label, imp, out);
	for (size_t i = 0; !ret && i < out->n; i++)
		if (!out->r[i].src.tool)
			out->r[i].src.file = xstrdup(file);
	free(conv);
	return ret;
}

int import_buffer(const char *buf, size_t len, const char *file, const char *label,
		  struct import_list *out)
{
	return import_any(buf, len, file, label, out, false);
}

int import_file(const char *path, const char *label, struct import_list *out)
{
	struct stat st;
	size_t len;
	char *buf;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!stat(path, &st) && S_ISREG(st.st_mode) && st.st_size > (off_t)IMPORT_MAX_BYTES)
		return input_error("%s: %lld bytes is larger than any result fslab imports (at most "
				   "%u MiB); name the result file itself", path,
				   (long long)st.st_size, IMPORT_MAX_BYTES >> 20);
	ret = read_file(path, &buf, &len);
	if (ret) {
		/* result_read() names a missing or unreadable file as before */
		ret = result_read(path, list_push(out, NULL));
		if (!ret)
			ret = input_error("%s: cannot be read; check the path", path);
		return ret;
	}
	ret = import_any(buf, len, path, label, out, true);
	free(buf);
	return ret;
}
