// SPDX-License-Identifier: MIT
/* version.c: the version and git hash this binary was built from, defined once. */
#include "base.h"

/* the Makefile rebuilds this object whenever HEAD moves (build/.git-hash) */
const char fslab_version[] = FSLAB_VERSION;
const char fslab_git[] = FSLAB_GIT;
