// SPDX-License-Identifier: MIT
/* test_compare_charts.c: every chart drawn from the fixtures is a valid, non-empty PNG and SVG;
 * a thread sweep adds the sweep chart; gnuplot or its templates missing only skip the charts;
 * report.html inlines the SVGs and needs no other file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/base.h"
#include "compare/compare.h"
#include "compare/plot.h"
#include "compare/report.h"
#include "os/files.h"
#include "lib/msg.h"
#include "os/os.h"

static const char *const charts_two[] = {
	"headline", "means", "iops", "latency-avg", "latency-p99", "throughput", "write-amplification",
	"timeline-iops", "timeline-db-read-latency", "timeline-log-write-latency", "percentiles",
};

static char top[4096];

static int setup(void **state)
{
	const char *t = getenv("FSLAB_TOP");

	(void)state;
	if (!realpath(t ? t : ".", top))
		return -1;
	if (!os_have_program("gnuplot"))
		return 0;
	{
		char *plots = xasprintf("%s/plots", top);

		setenv("FSLAB_PLOTS_DIR", plots, 1);
		free(plots);
	}
	fslab_set_quiet(true);
	return 0;
}

static void build(struct compare *c, const char *const *names, size_t n)
{
	struct compare_opts o = { 0 };
	char *files[8];

	for (size_t i = 0; i < n; i++)
		files[i] = xasprintf("%s/tests/fixtures/%s", top, names[i]);
	assert_int_equal(compare_build(c, files, n, &o), 0);
	for (size_t i = 0; i < n; i++)
		free(files[i]);
}

static char *tmpdir(void)
{
	char tmpl[] = "/tmp/fslab-charts.XXXXXX";

	assert_non_null(mkdtemp(tmpl));
	return xstrdup(tmpl);
}

static void rm_rf(const char *dir)
{
	const char *argv[] = { "rm", "-rf", dir, NULL };

	assert_int_equal(os_run(argv, NULL), 0);
}

/* The PNG signature and non-empty; an SVG document. */
static void check_chart(const char *dir, const char *name)
{
	static const unsigned char png_sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	char *png = xasprintf("%s/charts/%s.png", dir, name);
	char *svg = xasprintf("%s/charts/%s.svg", dir, name), *text;
	size_t len;

	assert_int_equal(read_file(png, &text, &len), 0);
	assert_true(len > 1000);
	assert_memory_equal(text, png_sig, sizeof(png_sig));
	free(text);
	assert_int_equal(read_file(svg, &text, &len), 0);
	assert_true(len > 1000);
	assert_non_null(strstr(text, "<svg"));
	assert_non_null(strstr(text, "</svg>"));
	free(text);
	free(png);
	free(svg);
}

/* Build the model of files and draw its charts into a new temporary directory (returned). */
static char *draw(struct compare *c, struct plot_set *ps, const char *const *files, size_t n)
{
	char *dir = tmpdir();

	build(c, files, n);
	assert_int_equal(plot_all(c, dir, ps), 0);
	assert_null(ps->skipped);
	return dir;
}

static void cleanup(struct compare *c, struct plot_set *ps, char *dir)
{
	plot_set_release(ps);
	compare_release(c);
	rm_rf(dir);
	free(dir);
}

static bool has_chart(const struct plot_set *ps, const char *name)
{
	for (size_t i = 0; i < ps->n; i++)
		if (!strcmp(ps->charts[i].name, name))
			return true;
	return false;
}

static void test_two_labels(void **state)
{
	static const char *const files[] = { "ext4-1.json", "ext4-2.json", "xfs-1.json",
					     "xfs-2.json" };
	struct report_opts ro = { .generated = -1 };
	struct plot_set ps;
	struct compare c;
	char *dir, *html = NULL, *p;
	size_t len = 0, nsvg = 0;
	FILE *m;

	(void)state;
	if (!os_have_program("gnuplot"))
		skip();
	dir = draw(&c, &ps, files, ARRAY_SIZE(files));
	assert_int_equal(ps.n, ARRAY_SIZE(charts_two));
	for (size_t i = 0; i < ARRAY_SIZE(charts_two); i++) {
		assert_true(has_chart(&ps, charts_two[i]));
		check_chart(dir, charts_two[i]);
	}
	assert_false(has_chart(&ps, "sweep"));

	/* report.html: the SVGs inlined, nothing to fetch, no script */
	ro.charts = &ps;
	ro.out_dir = dir;
	m = open_memstream(&html, &len);
	report_article(m, DOC_HTML, &c, &ro);
	fclose(m);
	for (p = html; (p = strstr(p, "<svg")); p++)
		nsvg++;
	assert_int_equal(nsvg, ps.n);
	assert_null(strstr(html, "<script"));
	assert_null(strstr(html, "<img"));
	assert_null(strstr(html, "<?xml"));
	assert_non_null(strstr(html, "id=\"c1-gnuplot_canvas\""));
	/* the answer and its key table first, then the chart of what was decided (each claim's
	 * difference, the margin, the outcomes), the others after, the means first of them */
	p = strstr(html, "<figure>");
	assert_non_null(p);
	assert_true(strstr(html, "<h2>The answer</h2>") < p);
	assert_true(strstr(html, "<table>") < p);
	assert_non_null(strstr(p, "<figcaption>What was decided: each claim's difference with "
			       "its 95 % interval</figcaption>"));
	assert_true(strstr(html, "<h2>Charts</h2>") <
		    strstr(p, "<figcaption>Transactional IOPS per label (mean of the runs, "
			   "95 % CI)</figcaption>"));
	assert_true(strstr(p, "<figcaption>Transactional IOPS per label") <
		    strstr(p, "<figcaption>IOPS per class"));
	{
		/* the forest's rows: the four claims of xfs vs ext4, their outcomes */
		char *dat = xasprintf("%s/charts/headline.dat", dir), *text;
		size_t n;

		assert_int_equal(read_file(dat, &text, &n), 0);
		assert_non_null(strstr(text, "1 \"xfs vs ext4: transactional IOPS\" 1.11"));
		assert_non_null(strstr(text, "\"different: better\""));
		assert_non_null(strstr(text, "3 \"xfs vs ext4: log write latency\""));
		assert_non_null(strstr(text, "\"equivalent\""));
		free(text);
		free(dat);
	}
	free(html);
	cleanup(&c, &ps, dir);
}

static void test_sweep(void **state)
{
	static const char *const files[] = { "ext4-4t.json", "ext4-8t.json", "ext4-12t.json" };
	struct plot_set ps;
	struct compare c;
	char *dir;

	(void)state;
	if (!os_have_program("gnuplot"))
		skip();
	dir = draw(&c, &ps, files, ARRAY_SIZE(files));
	assert_int_equal(ps.n, ARRAY_SIZE(charts_two) + 1);
	assert_true(has_chart(&ps, "sweep"));
	check_chart(dir, "sweep");
	cleanup(&c, &ps, dir);
}

/* Tuned loads (--threads auto): the tuning chart, its data one block per label, a row per
 * thread count tried (slow: 1, 2, 4, 5, 6, 8; fast: 1, 2, 4, 6, 7, 8). */
static void test_tuning(void **state)
{
	static const char *const files[] = { "slow-auto-r1.json", "slow-auto-r2.json",
					     "fast-auto-r1.json", "fast-auto-r2.json" };
	struct plot_set ps;
	struct compare c;
	char *dir, *dat, *text;
	size_t len, rows = 0;

	(void)state;
	if (!os_have_program("gnuplot"))
		skip();
	dir = draw(&c, &ps, files, ARRAY_SIZE(files));
	assert_int_equal(ps.n, ARRAY_SIZE(charts_two) + 1);
	assert_true(has_chart(&ps, "tuning"));
	check_chart(dir, "tuning");
	dat = xasprintf("%s/charts/tuning.dat", dir);
	assert_int_equal(read_file(dat, &text, &len), 0);
	assert_non_null(strstr(text, "# slow: threads"));
	assert_non_null(strstr(text, "# fast: threads"));
	for (char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		rows += *l >= '0' && *l <= '9';
	assert_int_equal(rows, 12);
	free(text);
	free(dat);
	cleanup(&c, &ps, dir);
}

static void test_missing(void **state)
{
	static const char *const files[] = { "ext4-1.json", "xfs-1.json" };
	char *path = xstrdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	char *plots = xstrdup(getenv("FSLAB_PLOTS_DIR") ? getenv("FSLAB_PLOTS_DIR") : "");
	struct plot_set ps;
	struct compare c;
	char *dir = tmpdir(), *charts = xasprintf("%s/charts", dir);

	(void)state;
	build(&c, files, ARRAY_SIZE(files));
	/* no gnuplot in PATH: nothing drawn, one line names the package */
	setenv("PATH", "/nonexistent", 1);
	assert_int_equal(plot_all(&c, dir, &ps), 0);
	setenv("PATH", path, 1);
	assert_int_equal(ps.n, 0);
	assert_non_null(ps.skipped);
	assert_non_null(strstr(ps.skipped, "gnuplot not found"));
	assert_non_null(strstr(ps.skipped, "gnuplot-nox"));
	assert_int_equal(access(charts, F_OK), -1);
	plot_set_release(&ps);
	/* templates not found */
	if (os_have_program("gnuplot")) {
		setenv("FSLAB_PLOTS_DIR", "/nonexistent", 1);
		assert_int_equal(plot_all(&c, dir, &ps), 0);
		assert_int_equal(ps.n, 0);
		assert_non_null(strstr(ps.skipped, "FSLAB_PLOTS_DIR"));
		plot_set_release(&ps);
		setenv("FSLAB_PLOTS_DIR", plots, 1);
	}
	compare_release(&c);
	rm_rf(dir);
	free(dir);
	free(charts);
	free(path);
	free(plots);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_labels),
		cmocka_unit_test(test_sweep),
		cmocka_unit_test(test_tuning),
		cmocka_unit_test(test_missing),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
