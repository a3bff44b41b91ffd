// SPDX-License-Identifier: MIT
/*
 * fs_raw.c: "raw", no filesystem at all: the baseline `fslab run --db DEV --log DEV` measures.
 * prep only attaches, discards and (--force) wipes (the raw backend: no plan, no format, no
 * mount; mkfs_cmd_build() and verify_volume() refuse it).  The devices are inspected with
 * util-linux (blkid, losetup), which Debian always has (Essential).
 */
#include "lib/base.h"
#include "fsprep/prepP.h"

const struct fs_desc fs_raw = {
	.name = "raw",
	.title = "raw",
	.about = "no filesystem (the raw-device baseline for fslab run)",
	.flags = FS_F_RAW,
	.notes = "raw devices: no filesystem; the lab's baseline",
	.on = { [PREP_LINUX] = PREP_BE_RAW },
};
