// SPDX-License-Identifier: MIT
/* plot.c: how a comparison chart is drawn: data files, filled plots/NAME.gp templates, gnuplot
 * for PNG + SVG (the charts themselves: plot_charts.c). */
#include "compare/plot.h"
#include "compare/plotP.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "os/files.h"
#include "lib/msg.h"
#include "os/os.h"
#include "os/share.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"

/* Both terminals come with Debian's gnuplot-nox (cairo and the SVG writer). */
#define PNG_TERMINAL "pngcairo size %s noenhanced font 'sans,10'"
#define SVG_TERMINAL "svg size %s noenhanced font 'sans,10' background rgb 'white'"
#define CHART_SIZE "1100,620"

void plot_set_release(struct plot_set *ps)
{
	for (size_t i = 0; i < ps->n; i++) {
		free(ps->charts[i].name);
		free(ps->charts[i].title);
	}
	free(ps->charts);
	free(ps->skipped);
	memset(ps, 0, sizeof(*ps));
}

static bool has_templates(const char *dir)
{
	char *p = path_join(dir, "bars.gp");
	int kind;
	bool ok = !os_stat(p, &kind, NULL) && kind == OS_KIND_FILE;

	free(p);
	return ok;
}

char *plot_templates_dir(void)
{
	const char *env = getenv("FSLAB_PLOTS_DIR");

	if (env && *env)
		return has_templates(env) ? xstrdup(env) : NULL;
	return share_find("plots", "bars.gp");
}

/* ---- small writers ---- */

/* s with ' doubled, for a gnuplot single-quoted string; heap. */
char *plot_gp_escape(const char *s)
{
	size_t n = strlen(s);
	char *out = xmalloc(2 * n + 1), *o = out;

	for (; *s; s++) {
		if (*s == '\'')
			*o++ = '\'';
		*o++ = *s;
	}
	*o = 0;
	return out;
}

/* gnuplot array literal of n strings: ['a', 'b']; heap. */
char *plot_gp_str_array(const char *const *v, size_t n)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addch(&sb, '[');
	for (size_t i = 0; i < n; i++) {
		char *e = plot_gp_escape(v[i]);

		strbuf_addf(&sb, "%s'%s'", i ? ", " : "", e);
		free(e);
	}
	strbuf_addch(&sb, ']');
	return strbuf_detach(&sb, NULL);
}

/* gnuplot array literal of n numbers: [1, 2.5]; heap. */
char *plot_gp_num_array(const double *v, size_t n)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addch(&sb, '[');
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&sb, "%s%g", i ? ", " : "", v[i]);
	strbuf_addch(&sb, ']');
	return strbuf_detach(&sb, NULL);
}

void plot_put_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, " %.6g", v);
	else
		fputs(" NaN", f);
}

/*
 * Fill @NAME@ placeholders from kv (name, value pairs, NULL-terminated); comment lines are left
 * alone.  Returns the text, or NULL after a warning naming the first placeholder that has no
 * value.
 */
static char *fill(const char *tmpl, const char *name, const char *const *kv)
{
	char *buf = NULL;
	size_t len = 0;
	struct os_memstream ms;
	FILE *m = os_memstream_open(&ms, &buf, &len);
	const char *p = tmpl;
	bool bad = false;

	while (*p) {
		const char *end = *p == '@' ? p + 1 : NULL;
		size_t klen;

		/* comment lines document the placeholders: copied as they are */
		if (*p == '#' && (p == tmpl || p[-1] == '\n')) {
			const char *nl = strchr(p, '\n');
			size_t n = nl ? (size_t)(nl - p + 1) : strlen(p);

			fwrite(p, 1, n, m);
			p += n;
			continue;
		}

		while (end && *end && ((*end >= 'A' && *end <= 'Z') || *end == '_'))
			end++;
		if (!end || *end != '@' || end == p + 1) {
			fputc(*p++, m);
			continue;
		}
		klen = end - p - 1;
		for (size_t i = 0; kv[i]; i += 2) {
			if (strlen(kv[i]) == klen && !strncmp(kv[i], p + 1, klen)) {
				fputs(kv[i + 1], m);
				goto next;
			}
		}
		fslab_warn("plots/%s: no value for placeholder %.*s; chart skipped", name,
			   (int)klen + 2, p);
		bad = true;
		break;
next:
		p = end + 1;
	}
	os_memstream_done(&ms);
	if (bad) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int write_mem(const char *dir, const char *name, const char *ext, const char *data,
		     size_t len)
{
	char *file = xasprintf("%s/%s.%s", dir, name, ext);
	int ret = write_file_atomic(file, data, len);

	if (ret && ret != -FSLAB_EINPUT)
		fslab_err("%s: cannot write (%s)", file, strerror(-ret));
	free(file);
	return ret;
}

/* Did gnuplot write anything into the temporary file behind f (through its own open)? */
static bool nonempty(FILE *f)
{
	return !fseek(f, 0, SEEK_END) && ftell(f) > 0 && !fseek(f, 0, SEEK_SET);
}

/* A chart gnuplot failed on: no half-written image is left behind. */
static void remove_images(const char *dir, const char *name)
{
	static const char *const ext[] = { "png", "svg" };

	for (size_t i = 0; i < ARRAY_SIZE(ext); i++) {
		char *file = xasprintf("%s/%s.%s", dir, name, ext[i]);

		os_unlink(file);
		free(file);
	}
}

/*
 * NAME.dat (data, len bytes) and NAME.gp: template tmpl filled from kv (DATA added here),
 * drawn at size as PNG and as SVG into png_output and svg_output.  *ok false (after a warning)
 * when the template cannot be read or filled: the chart is left out.
 */
static int chart_script(struct plot_ctx *x, const char *name, const char *tmpl,
			const char *size, const char *data, size_t len, const char *const *kv,
			bool *ok)
{
	struct strvec all = STRVEC_INIT;
	char *tpath = xasprintf("%s/%s.gp", x->tdir, tmpl), *text = NULL, *body = NULL;
	char *script = NULL, *datafile = xasprintf("%s.dat", name);
	int ret;

	*ok = false;
	strvec_pushl(&all, "DATA", datafile, NULL);
	strvec_pushv(&all, kv);
	ret = write_mem(x->dir, name, "dat", data, len);
	if (ret)
		goto out;
	if (read_file(tpath, &text, NULL)) {
		fslab_warn("%s: cannot read the gnuplot template; chart %s skipped", tpath, name);
		goto out;
	}
	body = fill(text, tmpl, all.v);
	if (!body)
		goto out;
	/* the variables cannot carry a quote: png_output and svg_output are set by fslab */
	script = xasprintf("# %s: generated by fslab compare from plots/%s.gp; redraw with "
			   "`gnuplot %s.gp` in this directory\n"
			   "if (!exists(\"png_output\")) png_output = '%s.png'\n"
			   "if (!exists(\"svg_output\")) svg_output = '%s.svg'\n"
			   "set terminal " PNG_TERMINAL "\nset output png_output\n%s\nunset output\n"
			   "reset\nset terminal " SVG_TERMINAL "\nset output svg_output\n%s\n"
			   "unset output\n", name, tmpl, name, name, name, size, body, size, body);
	ret = write_mem(x->dir, name, "gp", script, strlen(script));
	*ok = !ret;
out:
	strvec_clear(&all);
	free(tpath);
	free(text);
	free(body);
	free(script);
	free(datafile);
	return ret;
}

/*
 * gnuplot on charts/NAME.gp for NAME.png and NAME.svg, the chart recorded in x->ps under
 * title.  A gnuplot failure is a warning (the chart is left out), not an error.
 *
 * gnuplot's `set output NAME` opens the name itself (fopen "w": it follows a symbolic link
 * planted there), so fslab gives it the images as files it created exclusively
 * (atomic_open(): an unnamed file reached as /proc/PID/fd/N) through png_output and
 * svg_output, and renames them into place when gnuplot succeeded.  NAME.gp sets both to
 * NAME.png and NAME.svg when they are not given, so it still redraws alone.
 */
static int run_gnuplot(struct plot_ctx *x, const char *name, const char *title)
{
	char *esc = plot_gp_escape(x->dir), *gp = xasprintf("%s.gp", name), *epng, *esvg;
	char *png = xasprintf("%s/%s.png", x->dir, name), *svg = xasprintf("%s/%s.svg", x->dir, name);
	char *cd = NULL, *out = NULL;
	const char *argv[] = { "gnuplot", "-e", NULL, gp, NULL };
	struct atomic_file apng, asvg;
	int st, ret;

	ret = atomic_open(&apng, png);
	if (ret) {
		if (ret != -FSLAB_EINPUT)
			fslab_err("%s: cannot create (%s)", png, strerror(-ret));
		goto out;
	}
	ret = atomic_open(&asvg, svg);
	if (ret) {
		if (ret != -FSLAB_EINPUT)
			fslab_err("%s: cannot create (%s)", svg, strerror(-ret));
		atomic_abort(&apng);
		goto out;
	}
	epng = plot_gp_escape(atomic_name(&apng));
	esvg = plot_gp_escape(atomic_name(&asvg));
	cd = xasprintf("cd '%s'; png_output = '%s'; svg_output = '%s'", esc, epng, esvg);
	free(epng);
	free(esvg);
	argv[2] = cd;
	st = os_run(argv, &out);
	if (st || !nonempty(apng.f) || !nonempty(asvg.f)) {
		char *nl = out ? strchr(out, '\n') : NULL;

		if (nl)
			*nl = 0;
		fslab_warn("chart %s: gnuplot failed (status %d%s%s); left out", name, st,
			   out && *out ? ": " : "", out ? out : "");
		atomic_abort(&apng);
		atomic_abort(&asvg);
		remove_images(x->dir, name);
	} else if ((ret = atomic_commit(&apng)) ? (atomic_abort(&asvg), ret)
						: (ret = atomic_commit(&asvg))) {
		if (ret != -FSLAB_EINPUT)
			fslab_err("chart %s: cannot write its images in %s (%s)", name, x->dir,
				  strerror(-ret));
	} else {
		struct plot_set *ps = x->ps;

		ps->charts = xrealloc(ps->charts, (ps->n + 1) * sizeof(*ps->charts));
		ps->charts[ps->n].name = xstrdup(name);
		ps->charts[ps->n].title = xstrdup(title);
		ps->n++;
	}
out:
	free(esc);
	free(gp);
	free(png);
	free(svg);
	free(cd);
	free(out);
	return ret;
}

/* Chart name (title) from template tmpl at size with the data in data/len and the
 * placeholders kv: NAME.dat, NAME.gp, NAME.png and NAME.svg in the charts directory. */
int plot_draw_sized(struct plot_ctx *x, const char *name, const char *title, const char *tmpl,
		    const char *size, const char *data, size_t len, const char *const *kv)
{
	bool ok;
	int ret = chart_script(x, name, tmpl, size, data, len, kv, &ok);

	return ret || !ok ? ret : run_gnuplot(x, name, title);
}

int plot_draw(struct plot_ctx *x, const char *name, const char *title, const char *tmpl,
	      const char *data, size_t len, const char *const *kv)
{
	return plot_draw_sized(x, name, title, tmpl, CHART_SIZE, data, len, kv);
}
