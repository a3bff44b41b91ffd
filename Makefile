# SPDX-License-Identifier: MIT
# fslab: filesystem comparison lab. Plain Makefile (see docs/DESIGN.md).
#   make            build ./fslab (installs missing Debian build packages when root)
#   make check      unit tests (cmocka) + root integration tests (loop devices, real mkfs)
#   make bench      fslab vs fio on identical patterns, ratios printed
#   make demo       fslab lab configs/demo.ini: ext4 vs XFS on loop devices until 15 % precise
#                   (or 9 minutes) -> report; configs/tour.ini adds NTFS and btrfs
#   make fuzz       libFuzzer targets (clang, ASan+UBSan) on the parsers, FUZZ_SECONDS each
#                   (or FUZZ_RUNS inputs each)
#   make unit-ubsan the unit suites built by clang with -fsanitize=undefined (make check too)
#   make man        build/man/*.1 from the --help texts; make install puts them in
#                   $(PREFIX)/share/man/man1 (PREFIX=/usr/local)
#   make clean
# V=1 shows full command lines; SANITIZE=address,undefined builds with sanitizers.

# The version is written in one place: debian/changelog's first line (the package's version,
# fslab version, the man pages, the Windows zip's name).  The git hash and description of the
# tree come from git, or from FSLAB_GIT_HASH and FSLAB_GIT_DESCRIBE (make deb builds a copy
# of the tree outside git and hands them over).
VERSION := $(shell sed -n '1s/^fslab (\([^ ]*\)) .*/\1/p' debian/changelog)
GIT_HASH := $(or $(FSLAB_GIT_HASH),$(shell git rev-parse --short=12 HEAD 2>/dev/null),unknown)
GIT_DESCRIBE := $(or $(FSLAB_GIT_DESCRIBE),$(shell git describe --tags --always --dirty \
	--abbrev=12 2>/dev/null),unknown)

CC ?= cc
CFLAGS ?= -O2 -g
PKGS := blkid mount ext2fs liburing jansson inih libisal libxml-2.0
WARN := -std=gnu11 -Wall -Wextra -Wformat-security -Wpointer-arith -Wstrict-prototypes \
	-Wmissing-prototypes -Wold-style-definition -Wvla -Wwrite-strings -fno-common -Werror
override CFLAGS += $(WARN) -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -pthread \
	-DFSLAB_VERSION='"$(VERSION)"' -DFSLAB_GIT='"$(GIT_HASH)"' \
	-DFSLAB_GIT_DESCRIBE='"$(GIT_DESCRIBE)"' -Isrc -I. -MMD -MP
LDLIBS_PKG = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CFLAGS_PKG = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
override LDLIBS += $(LDLIBS_PKG) -lm -pthread
ifneq ($(SANITIZE),)
override CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer
override LDFLAGS += -fsanitize=$(SANITIZE)
endif

ifeq ($(V),1)
Q :=
else
Q := @
endif

B := build
# Every .c under src/, fsprep/ and workloads/ (folders may come and go).  Files with "win32" in
# their name (sampler_win32.c, src/os/win32_file.c, ...) are the Windows build's (make windows);
# the rest is Linux's.
ALL_SRC := $(sort $(shell find src fsprep workloads -name '*.c'))
WIN32_SRC := $(foreach f,$(ALL_SRC),$(if $(findstring win32,$(notdir $(f))),$(f)))
LIB_SRC := $(filter-out src/main.c $(WIN32_SRC),$(ALL_SRC))
LIB_OBJ := $(LIB_SRC:%.c=$(B)/%.o)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)

# The builds inside check, unit, integration, demo, bench and fuzz-build run one compile job
# per CPU unless the caller chose (make -j N ..., or JOBS=1): a fresh machine's make check
# compiles three builds.  (GNU make 4.3 shows -j in MAKEFLAGS only inside a recipe.)
JOBS ?= $(shell nproc 2>/dev/null || echo 1)
SUBJ = $(if $(filter -j% --jobserver%,$(MAKEFLAGS)),,-j$(JOBS))

.PHONY: all deps check unit unit-ubsan integration vm-kernel bench demo clean install man fuzz \
	fuzz-build windows windows-unit windows-zip completion deb
all: fslab

# Order-only: checked on every build, installs what is missing when root (FSLAB_NO_DEPS=1:
# not checked, as in the package build, whose Build-Depends have them).
deps:
ifeq ($(FSLAB_NO_DEPS),)
	$(Q)scripts/deps.sh build
endif

$(B)/%.o: %.c | deps
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(CFLAGS_PKG) -c -o $@ $<

# version.o holds the git hash (fslab_git): rebuilt whenever HEAD moves, so that a binary never
# reports an older commit than it was built from (the lab's hosts must show the same build)
$(B)/.git-hash: FORCE
	@mkdir -p $(B); echo '$(GIT_HASH) $(GIT_DESCRIBE)' | cmp -s - $@ || \
		echo '$(GIT_HASH) $(GIT_DESCRIBE)' > $@
$(B)/src/version.o: $(B)/.git-hash
.PHONY: FORCE
FORCE:

$(B)/libfslab.a: $(LIB_OBJ)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

fslab: $(B)/src/main.o $(B)/libfslab.a
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(B)/tests/%: tests/unit/%.c $(B)/libfslab.a | deps
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(CFLAGS) $(CFLAGS_PKG) $(LDFLAGS) -o $@ $< $(B)/libfslab.a $(LDLIBS) -lcmocka

check:
	$(Q)scripts/deps.sh check
	$(Q)$(MAKE) --no-print-directory $(SUBJ) fslab $(UNIT_BIN) $(UBSAN_UNIT_BIN) vm-kernel
	$(Q)tests/run.sh $(UNIT_BIN) $(UBSAN_UNIT_BIN)

unit:
	$(Q)scripts/deps.sh check
	$(Q)$(MAKE) --no-print-directory $(SUBJ) fslab $(UNIT_BIN)
	$(Q)FSLAB_UNIT_ONLY=1 tests/run.sh $(UNIT_BIN)

integration:
	$(Q)scripts/deps.sh check
	$(Q)$(MAKE) --no-print-directory $(SUBJ) fslab vm-kernel
	$(Q)FSLAB_INTEGRATION_ONLY=1 tests/run.sh

# The QEMU test guest's kernel (tests/vm/, docs/VM.md): a Debian kernel package downloaded
# and unpacked into build/vm/ once; where it cannot be had the VM tests skip with the reason.
vm-kernel:
	$(Q)tests/vm/setup.sh >/dev/null || [ $$? -eq 77 ]

bench:
	$(Q)scripts/deps.sh bench
	$(Q)$(MAKE) --no-print-directory $(SUBJ) fslab
	$(Q)bench/bench.sh

# A fresh demo every time: the previous demo-report/ is replaced.  An interrupted demo can be
# finished with ./fslab lab configs/demo.ini --output demo-report --resume instead.
demo:
	$(Q)scripts/deps.sh demo
	$(Q)$(MAKE) --no-print-directory $(SUBJ) fslab
	$(Q)rm -rf demo-report
	$(Q)./fslab lab configs/demo.ini --output demo-report

# ---- clang's UndefinedBehaviorSanitizer (docs/DESIGN.md "Sanitizers") ----
# The library and the unit suites again, built by clang with -fsanitize=undefined (not
# recoverable: undefined behaviour fails the test) in build/ubsan/; make check runs them next
# to the gcc ones (gcc's UBSan misses what clang's finds: a double out of range converted to
# an integer).  Each suite is build/ubsan/tests/test_*-ubsan.  make unit-ubsan: these alone.
UBSAN_CC ?= clang
UBSAN_CFLAGS := -std=gnu11 -Wall -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -pthread \
	-DFSLAB_VERSION='"$(VERSION)"' -DFSLAB_GIT='"$(GIT_HASH)"' \
	-DFSLAB_GIT_DESCRIBE='"$(GIT_DESCRIBE)"' -Isrc -I. -MMD -MP \
	-O1 -g -fno-omit-frame-pointer -fsanitize=undefined -fno-sanitize-recover=all
UBSAN_B := $(B)/ubsan
UBSAN_OBJ := $(LIB_SRC:%.c=$(UBSAN_B)/obj/%.o)
# test_relabel is left out: 45 s of the same compare code (1,000 simulated labs a test) that
# test_compare, test_decide and test_blocked run under UBSan in a second.
UBSAN_UNIT_BIN := $(filter-out %/test_relabel-ubsan,$(UNIT_SRC:tests/unit/%.c=$(UBSAN_B)/tests/%-ubsan))

$(UBSAN_B)/obj/%.o: %.c | deps
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  UBSANCC $<")
	$(Q)$(UBSAN_CC) $(UBSAN_CFLAGS) $(CFLAGS_PKG) -c -o $@ $<

$(UBSAN_B)/obj/src/version.o: $(B)/.git-hash

$(UBSAN_B)/libfslab.a: $(UBSAN_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(UBSAN_B)/tests/%-ubsan: tests/unit/%.c $(UBSAN_B)/libfslab.a | deps
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  UBSANLD $@")
	$(Q)$(UBSAN_CC) $(UBSAN_CFLAGS) $(CFLAGS_PKG) -o $@ $< $(UBSAN_B)/libfslab.a \
		$(LDLIBS_PKG) -lm -pthread -lcmocka

unit-ubsan:
	$(Q)scripts/deps.sh fuzz
	$(Q)$(MAKE) --no-print-directory $(SUBJ) $(UBSAN_UNIT_BIN)
	$(Q)FSLAB_UNIT_ONLY=1 tests/run.sh $(UBSAN_UNIT_BIN)

# ---- fuzzing (tests/fuzz, docs/DESIGN.md "Fuzzing") ----
# The library again, built by clang with coverage for libFuzzer and ASan+UBSan, in build/fuzz/;
# each tests/fuzz/fuzz_*.c becomes build/fuzz/fuzz_* (no -Werror: clang warns differently).
FUZZ_CC ?= clang
FUZZ_FLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined
# -MMD -MP: a header's change rebuilds the objects that include it (without them a struct
# changed by a merge left stale objects in the fuzz library: crashes that were not there)
FUZZ_CFLAGS := -std=gnu11 -Wall -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -pthread \
	-DFSLAB_VERSION='"$(VERSION)"' -DFSLAB_GIT='"$(GIT_HASH)"' \
	-DFSLAB_GIT_DESCRIBE='"$(GIT_DESCRIBE)"' -Isrc -I. -MMD -MP $(FUZZ_FLAGS)
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=$(B)/fuzz/%)
FUZZ_OBJ := $(LIB_SRC:%.c=$(B)/fuzz/obj/%.o)

$(B)/fuzz/obj/%.o: %.c | deps
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  FUZZCC  $<")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(CFLAGS_PKG) -c -o $@ $<

$(B)/fuzz/libfslab.a: $(FUZZ_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(B)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h tests/fuzz/fuzz_import.h $(B)/fuzz/libfslab.a | deps
	@$(if $(Q),echo "  FUZZLD  $@")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(B)/fuzz/libfslab.a \
		$(LDLIBS_PKG) -lm -pthread

fuzz-build:
	$(Q)scripts/deps.sh fuzz
	$(Q)$(MAKE) --no-print-directory $(SUBJ) $(FUZZ_BIN)

# FUZZ_SECONDS per target (default 60), or FUZZ_RUNS inputs per target (one target after the
# other); crashes land in build/fuzz/crashes/
fuzz: fuzz-build
	$(Q)tests/fuzz/run.sh $(FUZZ_BIN)

# ---- Windows (docs/WINDOWS.md) ----
# fslab.exe for x86-64 Windows, cross-built with mingw-w64 (posix threads) and linked statically
# against jansson, cmocka, isa-l, libxml2 and inih cross-built from their Debian source packages
# into build/win/sysroot (scripts/win-sysroot.sh, once).  It holds run, compare, sizing, lab and
# the Windows prep; not the Linux-only parts (Linux prep and the lab's preflight of it,
# io_uring, libblkid/libmount/libext2fs).
WIN_CC := x86_64-w64-mingw32-gcc-posix
WIN_B := $(B)/win
WIN_SYSROOT := $(WIN_B)/sysroot
# fsprep/: the filesystem table (fs.c, every fs_<name>.c), the pure mkfs planning it refers to
# (align.c, mkfs_opts.c), the backend list and the Windows backend are portable; the rest is
# the Linux backends' work on devices.
FSPREP_PORTABLE := fsprep/fs.c fsprep/fs_%.c fsprep/align.c fsprep/mkfs_opts.c fsprep/backend.c \
	fsprep/win/%
WIN_LINUX_ONLY := src/os/posix.c src/os/posix_proc.c src/os/posix_dir.c src/io/uring.c \
	src/platform/volume.c src/platform/sampler_linux.c src/platform/blockdev.c src/platform/sysfs.c \
	src/lab/preflight_prep.c src/lab/hosts.c src/lab/hosts_run.c src/lab/hosts_fetch.c \
	src/lab/hosts_cli.c src/lab/cluster.c \
	$(filter-out $(FSPREP_PORTABLE),$(filter fsprep/%,$(ALL_SRC)))
WIN_SRC := $(filter-out $(WIN_LINUX_ONLY),$(filter-out src/main.c,$(ALL_SRC)))
WIN_OBJ := $(WIN_SRC:%.c=$(WIN_B)/obj/%.o)
$(WIN_B)/obj/src/version.o: $(B)/.git-hash
# _WIN32_WINNT 0x0A00: Windows 10 / Server 2016 and later (high-resolution timers: 1803+).
# -Wno-format: format(printf) means Microsoft's printf to mingw's gcc, while the program uses
# mingw's C99 printf (__USE_MINGW_ANSI_STDIO); the formats are checked by the Linux build.
# inih's Debian source may be missing from the mirror (scripts/win-sysroot.sh): then fslab.exe
# is built without the lab's INI reader, decided when the compiler runs (the sysroot is built
# first), and `fslab.exe lab` says how to get it (docs/WINDOWS.md)
WIN_NO_INIH = $$(test -f $(WIN_SYSROOT)/lib/libinih.a || echo -DFSLAB_NO_INIH)
WIN_CFLAGS := -O2 -g $(filter-out -Wformat-security,$(WARN)) -Wno-format -D_GNU_SOURCE -D__USE_MINGW_ANSI_STDIO=1 \
	-D_POSIX_THREAD_SAFE_FUNCTIONS -D_WIN32_WINNT=0x0A00 -DWINVER=0x0A00 -DPSAPI_VERSION=2 \
	-DFSLAB_VERSION='"$(VERSION)"' -DFSLAB_GIT='"$(GIT_HASH)"' \
	-DFSLAB_GIT_DESCRIBE='"$(GIT_DESCRIBE)"' -Isrc -I. -I$(WIN_SYSROOT)/include \
	-I$(WIN_SYSROOT)/include/libxml2 -DLIBXML_STATIC \
	-DFSLAB_INIH_FIXED_OPTIONS $(WIN_NO_INIH) -MMD -MP
WIN_LDFLAGS := -static -municode -L$(WIN_SYSROOT)/lib
WIN_LIBS := -ljansson -lisal -lxml2 $$(test -f $(WIN_SYSROOT)/lib/libinih.a && echo -linih) \
	-lshlwapi -lshell32 -lntdll -lm -lpthread
# the unit suites that need nothing Linux-only (no libmount, libext2fs, /proc)
WIN_UNIT_SRC := tests/unit/test_os.c tests/unit/test_ioengine.c tests/unit/test_hist.c \
	tests/unit/test_result.c tests/unit/test_stats.c tests/unit/test_verdict.c \
	tests/unit/test_import.c tests/unit/test_import_diskspd_text.c tests/unit/test_winprep.c \
	tests/unit/test_selftest.c tests/unit/test_proc.c tests/unit/test_step.c \
	tests/unit/test_labcfg.c
WIN_UNIT_BIN := $(WIN_UNIT_SRC:tests/unit/%.c=$(WIN_B)/tests/%.exe)

$(WIN_B)/.sysroot: scripts/win-sysroot.sh
	$(Q)scripts/deps.sh windows
	$(Q)scripts/win-sysroot.sh $(WIN_SYSROOT)
	@touch $@

$(WIN_B)/obj/%.o: %.c | $(WIN_B)/.sysroot
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  WINCC   $<")
	$(Q)$(WIN_CC) $(WIN_CFLAGS) -c -o $@ $<

$(WIN_B)/libfslab.a: $(WIN_OBJ)
	$(Q)rm -f $@ && x86_64-w64-mingw32-ar rcs $@ $^

$(WIN_B)/fslab.exe: $(WIN_B)/obj/src/main.o $(WIN_B)/libfslab.a
	@$(if $(Q),echo "  WINLD   $@")
	$(Q)$(WIN_CC) $(WIN_LDFLAGS) -o $@ $^ $(WIN_LIBS)

$(WIN_B)/tests/%.exe: tests/unit/%.c $(WIN_B)/libfslab.a | $(WIN_B)/.sysroot
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  WINCC   $@")
	$(Q)$(WIN_CC) $(WIN_CFLAGS) -DCMOCKA_STATIC -static -L$(WIN_SYSROOT)/lib -o $@ $< $(WIN_B)/libfslab.a \
		-lcmocka $(WIN_LIBS)

# make windows: build/win/fslab.exe; make windows-unit: the unit suites under Wine
windows: $(WIN_B)/fslab.exe

# make windows-zip: build/win/fslab-VERSION-windows-x86_64.zip, what a Windows administrator
# unzips: fslab.exe, its gnuplot templates, the Windows configs, the Windows docs as text, a
# README.txt (which gnuplot to install), the licences (scripts/mkwinzip.sh).  The licences of
# the libraries come from their Debian packages' copyright files (the build set has them).
windows-zip: $(WIN_B)/fslab.exe
	$(Q)scripts/deps.sh build
	$(Q)scripts/deps.sh windows
	$(Q)scripts/mkwinzip.sh $(WIN_B)/fslab.exe '$(VERSION)' '$(GIT_DESCRIBE)' \
		$$(test -f $(WIN_SYSROOT)/lib/libinih.a && echo yes || echo no) $(WIN_B)

windows-unit: $(WIN_B)/fslab.exe $(WIN_UNIT_BIN)
	$(Q)scripts/deps.sh wine
	$(Q)tests/wine.sh $(WIN_UNIT_BIN)

# The man pages (fslab.1, fslab-run.1, ... as git names its pages) from the --help texts,
# which for fslab run come from its option table: scripts/mkman.sh.
$(B)/man/fslab.1: fslab scripts/mkman.sh
	@$(if $(Q),echo "  MAN     $(B)/man/*.1")
	$(Q)scripts/mkman.sh ./fslab $(B)/man

man: $(B)/man/fslab.1

# bash completion, from the --help texts too (scripts/mkcompletion.sh): it offers what
# they name, so it follows every option added to a command's --help
$(B)/completion/fslab: fslab scripts/mkcompletion.sh
	@$(if $(Q),echo "  COMPL   $@")
	$(Q)scripts/mkcompletion.sh ./fslab $@

completion: $(B)/completion/fslab

# What an installed fslab reads: the gnuplot templates and the demo config in
# $(PREFIX)/share/fslab (found from the binary's directory: ../share/fslab, src/os/share.h).
# INSTALL_COMPLETION=no leaves the completion to the caller (debian/rules: dh_bash-completion).
PREFIX ?= /usr/local
INSTALL_COMPLETION ?= yes
BASH_COMPLETION_DIR ?= $(PREFIX)/share/bash-completion/completions
install: fslab man completion
	install -D -m 0755 fslab $(DESTDIR)$(PREFIX)/bin/fslab
	install -d $(DESTDIR)$(PREFIX)/share/fslab/plots $(DESTDIR)$(PREFIX)/share/fslab/configs
	install -m 0644 plots/*.gp $(DESTDIR)$(PREFIX)/share/fslab/plots/
	install -m 0644 configs/demo.ini $(DESTDIR)$(PREFIX)/share/fslab/configs/
	install -d $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0644 $(B)/man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
ifeq ($(INSTALL_COMPLETION),yes)
	install -D -m 0644 $(B)/completion/fslab $(DESTDIR)$(BASH_COMPLETION_DIR)/fslab
endif

# ---- the Debian package (debian/; README "Install") ----
# build/deb/fslab_VERSION_ARCH.deb, made by dpkg-buildpackage -us -uc -b in a copy of this
# tree (scripts/mkdeb.sh: the package build cleans its tree, which must not be this build/)
deb:
	$(Q)scripts/deps.sh deb
	$(Q)FSLAB_GIT_HASH='$(GIT_HASH)' FSLAB_GIT_DESCRIBE='$(GIT_DESCRIBE)' scripts/mkdeb.sh $(B)/deb

clean:
	rm -rf $(B) fslab

-include $(shell find $(B) -name '*.d' -not -path '$(WIN_B)/src/*' 2>/dev/null)
