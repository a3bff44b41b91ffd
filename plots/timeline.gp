# SPDX-License-Identifier: MIT
# timeline.gp: one metric per second of the measured period, one line per label.
# Filled by fslab compare (src/plot.c), which also sets the terminal and output before this:
#   @DATA@  data file: second, then one column per label (NaN where a run has no value)
#   @TITLE@ @YLABEL@; @N@ labels named @LABELS@ (gnuplot array literal)
#   @LIMIT@ a horizontal limit line (0: none), drawn as "@LIMIT_NAME@ <v> ms"
DATA = '@DATA@'
N = @N@
array LABELS[N] = @LABELS@
LIMIT = @LIMIT@

set title '@TITLE@'
set xlabel 'seconds of measurement (after warm-up)'
set ylabel '@YLABEL@'
set grid
set key below horizontal
set yrange [0:*]
if (LIMIT > 0) {
	set arrow from graph 0, first LIMIT to graph 1, first LIMIT nohead dt 2 lw 2 lc rgb '#c00000' front
	set label sprintf('@LIMIT_NAME@ %g ms', LIMIT) at graph 0.01, first LIMIT offset 0,0.7 tc rgb '#c00000' front
}
plot for [i=1:N] DATA using 1:(column(i+1)) with lines lw 1.5 title LABELS[i]
