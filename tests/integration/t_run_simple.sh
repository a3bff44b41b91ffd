#!/bin/bash
# SPDX-License-Identifier: MIT
# t_run_simple: the calibration workloads do what they say (pattern, block size, classes),
# carry no Jetstress verdict, and both back ends work.
. "$(dirname "$0")/lib.sh"

mkdir -p $T/db
mount -t tmpfs -o size=256M tmpfs $T/db && track_mount $T/db
run() { "$FSLAB" run --db $T/db --db-size 64M --duration 2s --warmup 0 --quiet "$@"; }

run --workload randread --bs 4k --iodepth 8 --threads 2 --output $T/rr.json
jqt $T/rr.json '.config.workload == "randread" and .verdict == null'
jqt $T/rr.json '.classes.db_read.ops > 1000 and .classes.db_write.ops == 0'
jqt $T/rr.json '.classes.db_read.avg_bytes == 4096 and .classes.db_read.max_bytes == 4096'
jqt $T/rr.json '.label == "tmpfs-randread" and .config.iodepth == 8 and .config.bs == 4096'
jqt $T/rr.json '.init.created == 1'
# the ring set-up follows the volume's RWF_NOWAIT probe: tmpfs refuses it on 6.18 (every
# io_uring I/O goes to an io-wq worker), and then the 2 data threads' rings yield while they
# wait (TASKRUN_FLAG); where tmpfs takes it, no ring yields (src/io/uring.c)
jqt $T/rr.json '.environment.volumes[0].nowait | type == "boolean"'
jqt $T/rr.json '[.environment.io_uring[] | select(.wait == "yield")] as $y |
	if .environment.volumes[0].nowait then ($y | length) == 0
	else ($y | length) == 1 and $y[0].files == "no_nowait" and $y[0].rings == 2 and
	     ($y[0].setup_flags | test("TASKRUN_FLAG")) end'
jqt $T/rr.json '[.environment.io_uring[] | select(.wait == "sleep") | .setup_flags |
	test("TASKRUN_FLAG")] | any | not'

run --workload randwrite --bs 8k --output $T/rw.json
jqt $T/rw.json '.classes.db_write.ops > 100 and .classes.db_read.ops == 0'
jqt $T/rw.json '.classes.db_write.avg_bytes == 8192 and .init.reused == 1'

run --workload randrw --rwmixread 70 --bs 4k --iodepth 4 --output $T/rrw.json
jqt $T/rrw.json '(.classes.db_read.ops / (.classes.db_read.ops + .classes.db_write.ops)) as $f | $f > 0.65 and $f < 0.75'

run --workload seqwrite --bs 64k --iodepth 2 --output $T/sw.json
jqt $T/sw.json '.classes.db_write.ops > 100 and .classes.db_write.avg_bytes == 65536'

run --workload randread --engine psync --bs 4k --output $T/ps.json
jqt $T/ps.json '.config.engine == "psync" and .environment.engine == "psync" and .classes.db_read.ops > 100'
jqt $T/ps.json '.environment.io_uring == null'

# the file header survives write workloads: the next run reuses the file
run --workload randread --bs 4k --output $T/again.json
jqt $T/again.json '.init.reused == 1 and .init.created == 0'
echo "all good"
