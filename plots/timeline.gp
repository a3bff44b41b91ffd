# SPDX-License-Identifier: MIT
# timeline.gp: one metric per second of the measured period, one line per label.
# Filled by fslab compare (src/plot.c), which also sets the terminal and output before this:
#   @DATA@  data file: second, then one column per label (NaN where a run has no value)
#   @TITLE@ @YLABEL@; @N@ labels named @LABELS@ (gnuplot array literal)
#   @LIMIT@ a horizontal limit line (0: none), drawn as "@LIMIT_NAME@ <v> ms"
#   @SN@ steady-state windows (SNIA PTS rule) to mark: from @SFROM@ to @STO@ seconds, of label
#   number @SG@ (each array has at least one element; SN = 0: none)
DATA = '@DATA@'
N = @N@
array LABELS[N] = @LABELS@
LIMIT = @LIMIT@
SN = @SN@
array SFROM[SN > 0 ? SN : 1] = @SFROM@
array STO[SN > 0 ? SN : 1] = @STO@
array SG[SN > 0 ? SN : 1] = @SG@

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
# each run's steady window: a bar at the foot of the chart in its label's colour, one row per
# label
do for [k=1:SN] {
	set arrow from first SFROM[k], graph 0.012 + 0.018 * (SG[k] - 1) to first STO[k], graph 0.012 + 0.018 * (SG[k] - 1) nohead lw 5 lt SG[k] front
}
if (SN > 0) {
	set label 'bars at the foot: steady windows (SNIA PTS rule), one row per label' at graph 0.99, graph 0.97 right front font ',9'
}
plot for [i=1:N] DATA using 1:(column(i+1)) with lines lw 1.5 title LABELS[i]
