// SPDX-License-Identifier: MIT
/*
 * fs_raw.c: "raw", no filesystem at all: the baseline `fslab run --db DEV --log DEV` measures.
 * prep only attaches, discards and (--force) wipes: no tool, no builder, no verifier, no mount
 * (FS_F_RAW; mkfs_cmd_build() and verify_volume() refuse it).
 */
#include "base.h"
#include "fsprep/prepP.h"

const struct fs_desc fs_raw = {
	.name = "raw",
	.flags = FS_F_RAW,
	.notes = "raw devices: no filesystem; the lab's baseline",
	/* Nothing is run; the devices are inspected with util-linux (blkid, losetup), which
	 * Debian always has (Essential). */
	.package = "util-linux",
	/* fslab run checks its --db-size against the device itself; 16 MiB only keeps out
	 * sizes nothing fits on. */
	.min_size = 16 * MiB,
};
