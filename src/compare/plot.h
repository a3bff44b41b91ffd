/* SPDX-License-Identifier: MIT */
/* plot.h: comparison charts: gnuplot data files, templates (plots/NAME.gp) filled in, gnuplot
 * run as an external program for PNG and SVG. */
#ifndef FSLAB_PLOT_H
#define FSLAB_PLOT_H

#include <stddef.h>

#include "compare/compare.h"

/* One chart drawn: charts/<name>.png and charts/<name>.svg under the output directory. */
struct chart {
	char *name;
	char *title;
};

struct plot_set {
	size_t n;
	struct chart *charts;
	char *skipped; /* why no chart (or not every chart) was drawn, or NULL */
};

/*
 * plot_templates_dir - the directory holding the *.gp templates: $FSLAB_PLOTS_DIR, else
 * <dir of /proc/self/exe>/plots, else <dir of exe>/../share/fslab/plots.  Heap string, or NULL
 * when none of them has the templates.
 */
char *plot_templates_dir(void);
/*
 * plot_all - draw every chart of c into outdir/charts (created): data files (*.dat), the filled
 * gnuplot scripts (*.gp, re-runnable with `cd charts && gnuplot NAME.gp`) and the images.
 * gnuplot or templates missing: nothing drawn, ps->skipped says why and what to install.
 * Returns 0, or -errno when a file cannot be written.  plot_set_release() ps in every case.
 */
int plot_all(const struct compare *c, const char *outdir, struct plot_set *ps)
	__attribute__((warn_unused_result));
void plot_set_release(struct plot_set *ps);

#endif
