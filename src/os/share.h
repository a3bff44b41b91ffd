/* SPDX-License-Identifier: MIT */
/* share.h: the files fslab reads beside its binary (gnuplot templates, the demo config). */
#ifndef FSLAB_SHARE_H
#define FSLAB_SHARE_H

/*
 * share_find - where fslab's shared file or directory REL is: beside the binary (a build
 * tree: ./fslab with plots/ and configs/; the Windows zip: fslab.exe with them), else in
 * ../share/fslab/ from the binary's directory (installed: /usr/bin/fslab finds
 * /usr/share/fslab/REL, make install's PREFIX alike, and so does a package unpacked anywhere
 * with dpkg -x).  With PROBE, REL is a directory that must hold the file PROBE; without, REL
 * must be a file.  Heap (caller frees), or NULL when neither place has it.
 */
char *share_find(const char *rel, const char *probe);

/* Where share_find() looks, for messages: "next to the fslab binary nor in ../share/fslab" */
#define SHARE_PLACES "next to the fslab binary nor in ../share/fslab/ from its directory"

#endif
