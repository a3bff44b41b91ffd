// SPDX-License-Identifier: MIT
/*
 * fs_refs.c: ReFS, formatted by Windows only (no Linux tool makes it): Format-Volume
 * -FileSystem ReFS with 4K or 64K allocation units and integrity streams off
 * (-SetIntegrityStreams $false), as Exchange runs on it; its descriptor.
 */
#include "lib/base.h"
#include "fsprep/prep.h"
#include "fsprep/win/winprep.h"

/* Format-Volume takes 4K or 64K allocation units for ReFS; Exchange's guidance is 64K. */
static const uint64_t refs_clusters[] = { 4 * KiB, 64 * KiB, 0 };

static const struct fs_winfmt refs_winfmt = {
	.cluster_default = 64 * KiB,
	.clusters = refs_clusters,
	.cluster_error = "ReFS formats with 4K or 64K allocation units only (Exchange: 64K)",
};

const struct fs_desc fs_refs = {
	.name = "refs",
	.title = "ReFS",
	.flags = FS_F_INTEGRITY,
	.on = { [PREP_WINDOWS] = PREP_BE_STORAGE },
	.win = &refs_winfmt,
};
