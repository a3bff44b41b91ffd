// SPDX-License-Identifier: MIT
/* about.c: what `fslab version` prints: the version, the git description it was built from,
 * the back ends and libraries built in, and the system it runs on. */
#include "about.h"

#include <isa-l.h>
#include <jansson.h>
#include <libxml/xmlversion.h>
#include <stdlib.h>

#include "lib/base.h"
#include "platform/sampler.h"
#include "io/ioengine.h"
#include "lib/strbuf.h"

#ifndef _WIN32
#include <blkid/blkid.h>
#include <ext2fs/ext2fs.h>
#include <libmount/libmount.h>
#include <sys/utsname.h>
#endif

/* The libraries linked in, with the versions they report (at run time where they can). */
static void libraries(struct strbuf *sb)
{
#ifndef _WIN32
	const char *blkid = "?", *mnt = "?", *e2 = "?";

	blkid_get_library_version(&blkid, NULL);
	mnt_get_library_version(&mnt);
	ext2fs_get_library_version(&e2, NULL);
	strbuf_addf(sb, "liburing, libblkid %s, libmount %s, libext2fs %s, ", blkid, mnt, e2);
#endif
	strbuf_addf(sb, "ISA-L %d.%d (CRC32C), jansson %s, libxml2 %s, ", ISAL_MAJOR_VERSION,
		    ISAL_MINOR_VERSION, jansson_version_str(), LIBXML_DOTTED_VERSION);
#ifdef FSLAB_NO_INIH
	strbuf_addstr(sb, "no inih (fslab lab cannot read configs: docs/WINDOWS.md)");
#else
	strbuf_addstr(sb, "inih (lab configs)");
#endif
}

/* The system: kernel and distribution (Linux), or Windows' name and build (and Wine's). */
static char *system_line(void)
{
	json_t *env = sampler_environment();
	const char *os = json_string_value(json_object_get(env, "os"));
	char *out;
#ifdef _WIN32
	out = xasprintf("%s", os && *os ? os : "Windows");
#else
	struct utsname u;

	if (uname(&u))
		out = xasprintf("Linux, %s", os && *os ? os : "?");
	else
		out = xasprintf("%s %s %s, %s", u.sysname, u.release, u.machine,
				os && *os ? os : "unknown distribution");
#endif
	json_decref(env);
	return out;
}

int fslab_print_version(FILE *f)
{
	struct strbuf sb = STRBUF_INIT;
	const struct ioengine_ops *e;
	char *sys = system_line();

	for (size_t i = 0; (e = ioengine_at(i)); i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", e->name);
	fprintf(f, "fslab %s (%s)\n", fslab_version, fslab_git);
	fprintf(f, "git:        %s\n", fslab_git_describe);
	fprintf(f, "back ends:  %s (default %s)\n", sb.buf, IOENGINE_DEFAULT);
	strbuf_setlen(&sb, 0);
	libraries(&sb);
	fprintf(f, "libraries:  %s\n", sb.buf);
	fprintf(f, "system:     %s\n", sys);
	strbuf_release(&sb);
	free(sys);
	return fflush(f) ? -1 : 0;
}
