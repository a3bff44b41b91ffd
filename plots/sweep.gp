# SPDX-License-Identifier: MIT
# sweep.gp: a thread sweep: transactional IOPS against threads with the linear ideal from the
# first point and the scaling efficiency printed at each point; average latency against threads.
# Filled by fslab compare (src/plot.c), which also sets the terminal and output before this:
#   @DATA@  data file: one index block per filesystem, rows: threads, IOPS, CI low, CI high,
#           linear IOPS, efficiency %, database read ms, log write ms
#   @TITLE@; @NFS@ filesystems named @FS@ (gnuplot array literal)
DATA = '@DATA@'
NFS = @NFS@
array FS[NFS] = @FS@

set multiplot layout 1,2 title '@TITLE@'
set grid
set key top left
set xlabel 'threads'
set xrange [0:*]
set yrange [0:*]
set offsets 0, 1, 0, 0
set title 'Transactional IOPS (dashed: linear scaling from the first point)'
set ylabel 'IOPS'
plot for [i=1:NFS] DATA index (i-1) using 1:2:3:4 with yerrorlines lw 2 lc i title FS[i], \
     for [i=1:NFS] DATA index (i-1) using 1:5 with lines dt 2 lc i notitle, \
     for [i=1:NFS] DATA index (i-1) using 1:2:(sprintf('%.0f %%', column(6))) with labels offset 0,1.2 tc lt i notitle
set title 'Average latency (solid: database reads, dotted: log writes)'
set ylabel 'ms'
plot for [i=1:NFS] DATA index (i-1) using 1:7 with linespoints lw 2 lc i title FS[i].' db read', \
     for [i=1:NFS] DATA index (i-1) using 1:8 with linespoints lw 2 dt 3 lc i title FS[i].' log write'
unset multiplot
