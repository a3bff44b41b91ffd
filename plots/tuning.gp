# SPDX-License-Identifier: MIT
# tuning.gp: the steps of --threads auto (fslab run's tuner), one curve per tuned label:
# transactional IOPS, database read and log write average latency against threads, the
# verdict's limits drawn; a filled point where the count passed, an open one where it failed.
# Filled by fslab compare (src/compare/plot_tuning.c), which also sets the terminal and output:
#   @DATA@  data file: one index block per label, rows: threads, transactional IOPS, database
#           read ms, log write ms, the share of its steps that passed (means over the runs)
#   @TITLE@; @N@ labels named @LABELS@ (gnuplot array literal); @READ_LIMIT@, @LOG_LIMIT@ ms
DATA = '@DATA@'
N = @N@
array LABELS[N] = @LABELS@
READ_LIMIT = @READ_LIMIT@
LOG_LIMIT = @LOG_LIMIT@
# passed in at least half of the runs' steps at that count: filled
pt(share) = share >= 0.5 ? 7 : 6

set multiplot layout 1,3 title '@TITLE@'
set grid
set key below horizontal
set xlabel 'threads'
set xrange [0:*]
set yrange [0:*]
set offsets 0, 1, graph 0.08, 0
set title 'Transactional IOPS'
set ylabel 'IOPS'
plot for [i=1:N] DATA index (i-1) using 1:2:(pt(column(5))) with linespoints pt variable ps 1.3 lw 2 lc i title LABELS[i]
set title 'Database reads, average (ms)'
set ylabel 'ms'
# the limit as a function: the axis then reaches it whatever the steps measured
plot for [i=1:N] DATA index (i-1) using 1:3:(pt(column(5))) with linespoints pt variable ps 1.3 lw 2 lc i title LABELS[i], \
     READ_LIMIT with lines dt 2 lw 2 lc rgb '#c00000' title sprintf('limit %g ms', READ_LIMIT)
set title 'Log writes, average (ms)'
plot for [i=1:N] DATA index (i-1) using 1:4:(pt(column(5))) with linespoints pt variable ps 1.3 lw 2 lc i title LABELS[i], \
     LOG_LIMIT with lines dt 2 lw 2 lc rgb '#c00000' title sprintf('limit %g ms', LOG_LIMIT)
unset multiplot
