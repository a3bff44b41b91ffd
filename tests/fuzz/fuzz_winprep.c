// SPDX-License-Identifier: MIT
/* fuzz_winprep.c: libFuzzer target: Windows prep's disk inventory (--disk-info FILE, or what
 * powershell.exe printed) parsed; when it parses, the refusal rules for disks 0..3 and the
 * prep script and prep.json from it: a refusal or a script, never a crash.  A script must
 * hold no value outside a quoted literal: every serial appears only through ps_quote(). */
#include "tests/fuzz/fuzz.h"

#include "fsprep/win/winprep.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size);
	struct win_inventory inv;

	if (!win_inventory_parse(s, &inv)) {
		for (int db = 0; db < 4; db++) {
			struct win_prep_opts o = { .fs = fs_find(db & 1 ? "refs" : "ntfs"),
						   .disk = { db, (db + 1) % 4 }, .mount_root = "C:\\fslab",
						   .cluster = 65536, .force = db & 2 };
			bool wipe[WIN_NROLES];
			char *why[WIN_NROLES], *script;
			json_t *j;

			for (int r = 0; r < WIN_NROLES; r++)
				why[r] = win_disk_refusal(&inv, &o, r, &wipe[r]);
			if (!why[0] && !why[1]) {
				script = win_prep_script(&o, &inv);
				if (!strstr(script, WIN_FACTS_END))
					abort(); /* a script cut short */
				free(script);
			}
			j = win_prep_json(&o, &inv);
			if (j) {
				script = win_teardown_script(j, db & 1);
				free(script);
				json_decref(j);
			}
			free(why[0]);
			free(why[1]);
		}
		win_inventory_free(&inv);
	}
	free(s);
	return 0;
}
