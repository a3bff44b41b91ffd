/* SPDX-License-Identifier: MIT */
/* plotP.h: what plot.c (drawing a chart: templates, gnuplot) gives plot_charts.c (each chart's
 * data and placeholders, plot_all()). */
#ifndef FSLAB_PLOTP_H
#define FSLAB_PLOTP_H

#include <stdio.h>

#include "compare/plot.h"

/* Everything a chart needs: where to write, where the templates are. */
struct plot_ctx {
	const struct compare *c;
	char *dir;   /* outdir/charts */
	char *tdir;  /* templates */
	char *labels; /* gnuplot array literal of the group labels */
	struct plot_set *ps;
};

/* s with ' doubled, for a gnuplot single-quoted string; heap. */
char *plot_gp_escape(const char *s);
/* gnuplot array literals of n strings (['a', 'b']) or numbers ([1, 2.5]); heap. */
char *plot_gp_str_array(const char *const *v, size_t n);
char *plot_gp_num_array(const double *v, size_t n);
/* " v" into a data file, " NaN" when v is not finite */
void plot_put_num(FILE *f, double v);
/*
 * plot_draw_sized - chart name (title) from template tmpl at size ("1100,620") with the data
 * in data/len and the placeholders kv (name, value pairs, NULL-terminated): NAME.dat, NAME.gp,
 * NAME.png and NAME.svg in the charts directory, the chart recorded in x->ps.  A template that
 * cannot be filled or a gnuplot failure is a warning (the chart is left out); an error only
 * when a file cannot be written (-errno).  plot_draw: at the charts' usual size.
 */
int plot_draw_sized(struct plot_ctx *x, const char *name, const char *title, const char *tmpl,
		    const char *size, const char *data, size_t len, const char *const *kv);
int plot_draw(struct plot_ctx *x, const char *name, const char *title, const char *tmpl,
	      const char *data, size_t len, const char *const *kv);

/* plot_forest.c: the answer's chart "headline": each claim's difference with its interval, the
 * equivalence margin, the outcome (nothing drawn when no label is compared). */
int plot_forest(struct plot_ctx *x);

/* plot_tuning.c: the chart of the tuned labels' steps (--threads auto), when there are any. */
int plot_tuning(struct plot_ctx *x);

#endif
