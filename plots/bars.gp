# SPDX-License-Identifier: MIT
# bars.gp: clustered bars, one cluster per category, one bar per label, 95 % CI whiskers,
# optional limit lines per category (Jetstress thresholds).
# Filled by fslab compare (src/plot.c), which also sets the terminal and output before this:
#   @DATA@    data file: "category" then mean, CI low, CI high for each label
#   @TITLE@ @YLABEL@ (gnuplot single-quoted strings, already escaped)
#   @N@ labels named @LABELS@ (gnuplot array literal); @NCAT@ categories
#   @LOGY@ 1 for a log y axis; @YMIN@ @YMAX@ y range
#   @LIMITS@ array literal, one limit per category (0: none), drawn as "@LIMIT_NAME@ <v> <unit>"
DATA = '@DATA@'
N = @N@
NCAT = @NCAT@
array LABELS[N] = @LABELS@
array LIMITS[NCAT] = @LIMITS@
# half the width of a cluster of N bars with the gap of 1.5 bar widths set below
HALF = N / (N + 1.5) / 2.0

set title '@TITLE@'
set ylabel '@YLABEL@'
set style data histograms
set style histogram errorbars gap 1.5 lw 1
set style fill solid 0.75 border -1
set grid ytics
set key below horizontal
set xtics nomirror
if (@LOGY@) { set logscale y }
set yrange [@YMIN@:@YMAX@]
do for [i=1:NCAT] {
	if (LIMITS[i] > 0) {
		set arrow from i-1-HALF, first LIMITS[i] to i-1+HALF, first LIMITS[i] nohead dt 2 lw 2 lc rgb '#c00000' front
		set label sprintf('@LIMIT_NAME@ %g @UNIT@', LIMITS[i]) at i-1, first LIMITS[i] center offset 0,0.8 tc rgb '#c00000' front
	}
}
plot for [i=1:N] DATA using (column(3*i-1)):(column(3*i)):(column(3*i+1)):xtic(1) title LABELS[i]
