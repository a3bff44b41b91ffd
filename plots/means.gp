# SPDX-License-Identifier: MIT
# means.gp: the lead metric (transactional IOPS, or a backup's
# MB/s) per label, one bar each with its 95 % interval, its value written on it, the
# baseline's level dashed across.  The colours are the labels' colours in every other chart.
# Filled by fslab compare (src/plot.c), which also sets the terminal and output before this:
#   @DATA@    data file: "label", mean, CI low, CI high, one line per label
#   @TITLE@ @YLABEL@ (gnuplot single-quoted strings, already escaped)
#   @YMAX@ top of the y range; @BASE@ the baseline's mean (0: none), named @BASE_NAME@
#   @FMT@ the printf format of a value ('%.0f' for IOPS); @N@ labels
DATA = '@DATA@'
BASE = @BASE@

set title '@TITLE@'
set ylabel '@YLABEL@'
set style fill solid 0.8 border -1
set boxwidth 0.6
set grid ytics
unset key
set xtics nomirror
set xrange [-0.6:@N@-0.4]
set yrange [0:@YMAX@]
if (BASE > 0) {
	set arrow from graph 0, first BASE to graph 1, first BASE nohead dt 2 lw 1.5 lc rgb '#555555' back
	set label '@BASE_NAME@' at graph 1, first BASE right offset -0.5,0.7 tc rgb '#555555' front
}
# the whiskers as plain lines with caps (errorbars would draw a point on every bar)
plot DATA using 0:2:($0+1):xtic(1) with boxes lc variable, \
     '' using 0:3:(0):($4-$3) with vectors nohead lc rgb '#000000' lw 1.5, \
     '' using ($0-0.1):3:(0.2):(0) with vectors nohead lc rgb '#000000' lw 1.5, \
     '' using ($0-0.1):4:(0.2):(0) with vectors nohead lc rgb '#000000' lw 1.5, \
     '' using 0:4:(sprintf('@FMT@', $2)) with labels offset 0,0.8 font ',12'
