/* SPDX-License-Identifier: MIT */
/* prep.h: public API of the prep stage (fsprep/): what the rest of fslab may call. */
#ifndef FSLAB_PREP_H
#define FSLAB_PREP_H

#include <jansson.h>
#include <stdbool.h>

#include "volume.h" /* PREP_SCHEMA, PREP_JSON_NAME: the record prep writes, the run reads */

/*
 * The filesystems prep formats (its descriptor table, fsprep/fs.c), for the lab: raw is not
 * one of them (the lab's raw baseline asks for it itself).
 * prep_fs_known - is fs one of them?
 * prep_fs_names - "ext4, xfs, ntfs, ntfs3, btrfs", for messages (static storage).
 * prep_fs_missing_tool - the first program preparing fs needs (mkfs, mount helper) that this
 *     machine lacks, with the Debian package that ships it in *package; NULL when none is.
 */
bool prep_fs_known(const char *fs);
const char *prep_fs_names(void);
const char *prep_fs_missing_tool(const char *fs, const char **package);
/* prep_mkfs_opts_problem - why --mkfs-opts @opts cannot be given to fs (one of its words names
 * another device or file, docs/PREP.md), or NULL when it can; caller frees. */
char *prep_mkfs_opts_problem(const char *fs, const char *opts);
/* prep_fs_missing_driver - the in-kernel driver fs needs that the running kernel lacks (ntfs3
 * on a kernel without it), or NULL. */
const char *prep_fs_missing_driver(const char *fs);

#endif
