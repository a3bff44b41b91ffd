/* SPDX-License-Identifier: MIT */
/*
 * remote.h: the formats of what the lab's controller runs on a host over ssh (remote.c):
 * `fslab hello [WORD...]` prints one JSON line (REMOTE_HELLO_SCHEMA: version, git, os,
 * hostname, wall_ns, argv); `fslab clock` answers each line it reads with the wall clock in
 * ns since 1970 (`--once`: one answer); `fslab cat-result FILE` prints
 * "fslab-cat-result/1 SIZE\n", the SIZE bytes, then "\nsha256 HEX\n".
 */
#ifndef FSLAB_REMOTE_H
#define FSLAB_REMOTE_H

#define REMOTE_HELLO_SCHEMA "fslab-hello/1"
#define REMOTE_CAT_SCHEMA "fslab-cat-result/1"

#endif
