// SPDX-License-Identifier: MIT
/* version.c: the version, git hash and git description this binary was built from, defined
 * once. */
#include "lib/base.h"

/* the Makefile rebuilds this object whenever HEAD moves or the tree's state changes
 * (build/.git-hash) */
const char fslab_version[] = FSLAB_VERSION;
const char fslab_git[] = FSLAB_GIT;
const char fslab_git_describe[] = FSLAB_GIT_DESCRIBE;
