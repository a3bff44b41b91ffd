# SPDX-License-Identifier: MIT
# percentiles.gp: latency percentile curves (p50 ... p99.99) per class, one line per label,
# log y; x is "number of nines" so p50, p90, p99, p99.9, p99.99 are evenly spread.
# Filled by fslab compare (src/plot.c), which also sets the terminal and output before this:
#   @DATA@  data file: four index blocks (database reads, database writes, log writes, BDM
#           reads), rows: x, percentile name, then one column per label (ms)
#   @TITLE@; @N@ labels named @LABELS@; @HAS@ array literal, 1 for classes that did I/O
DATA = '@DATA@'
N = @N@
array LABELS[N] = @LABELS@
array HAS[4] = @HAS@
array CLASSES[4] = ['database reads', 'database writes', 'log writes', 'BDM reads']

set multiplot layout 2,2 title '@TITLE@'
set logscale y
set grid
set key top left
set ylabel 'ms'
set xrange [0.2:4.1]
set xtics ('p50' 0.30103, 'p90' 1, 'p99' 2, 'p99.9' 3, 'p99.99' 4)
do for [c=1:4] {
	if (HAS[c]) {
		set title CLASSES[c]
		plot for [i=1:N] DATA index (c-1) using 1:(column(i+2)) with linespoints lw 1.5 title LABELS[i]
	}
}
unset multiplot
