# SPDX-License-Identifier: MIT
# forest.gp: the chart of the answer, what was decided: each claim's difference (a label
# against its base, one headline metric per row) as a ratio with its 95 % interval, on a
# log axis labelled in %, the equivalence margin as a shaded band, 0 dashed, and the
# outcome written beside each row (different, equivalent, negligible, undecided).
# Filled by fslab compare (src/compare/plot_forest.c), which also sets the terminal and
# output before this:
#   @DATA@    data file: row, "label", ratio, ratio low, ratio high, "outcome", colour
#             (0xRRGGBB), one line per claim, row 1 at the top
#   @TITLE@ (a gnuplot single-quoted string, already escaped); @N@ rows
#   @XMIN@ @XMAX@ the ratio range; @XTICS@ the tics as gnuplot's ("-10 %" 0.9, ...)
#   @MLO@ @MHI@ the margin band as ratios (1 - m, 1 + m); 0 0: none
#   @LMARGIN@ the left margin in characters (the longest row name)
DATA = '@DATA@'
MLO = @MLO@
MHI = @MHI@

set title '@TITLE@'
set xlabel 'difference from the base (ratio of the labels, log scale), 95 % interval'
set logscale x
set xrange [@XMIN@:@XMAX@]
set yrange [@N@ + 0.7:0.3]
set xtics (@XTICS@) nomirror
set grid xtics
unset key
set lmargin @LMARGIN@
set rmargin 26
set border 1
set ytics nomirror scale 0
if (MHI > MLO) {
	set object 1 rect from MLO, graph 0 to MHI, graph 1 fc rgb '#cfe0ee' fs solid 0.6 noborder behind
	set label 1 sprintf('margin ±%.3g %%', (MHI - 1) * 100) at 1, graph 1 center offset 0,0.6 tc rgb '#3a6a94' front
}
set arrow 2 from 1, graph 0 to 1, graph 1 nohead dt 2 lw 1 lc rgb '#555555' back
# the interval as a line with caps, the estimate as a point, the outcome beside the row
plot DATA using 4:1:($5-$4):(0):7 with vectors nohead lw 2 lc rgb variable, \
     '' using 4:($1-0.15):(0):(0.3):7 with vectors nohead lw 2 lc rgb variable, \
     '' using 5:($1-0.15):(0):(0.3):7 with vectors nohead lw 2 lc rgb variable, \
     '' using 3:1:7:ytic(2) with points pt 7 ps 1.3 lc rgb variable, \
     '' using (@XMAX@):1:6:7 with labels left offset char 1.5,0 tc rgb variable
