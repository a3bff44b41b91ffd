# SPDX-License-Identifier: MIT
# fslab: filesystem comparison lab. Plain Makefile (see docs/DESIGN.md).
#   make            build ./fslab (installs missing Debian build packages when root)
#   make check      unit tests (cmocka) + root integration tests (loop devices, real mkfs)
#   make bench      fslab vs fio on identical patterns, ratios printed
#   make demo       fslab lab configs/demo.ini: ext4, XFS, NTFS, btrfs on loop devices -> report
#   make fuzz       libFuzzer targets (clang, ASan+UBSan) on the parsers, FUZZ_SECONDS each
#   make clean
# V=1 shows full command lines; SANITIZE=address,undefined builds with sanitizers.

VERSION := 0.1.0
GIT_HASH := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)

CC ?= cc
CFLAGS ?= -O2 -g
PKGS := blkid mount ext2fs liburing jansson inih libisal libxml-2.0
WARN := -std=gnu11 -Wall -Wextra -Wformat-security -Wpointer-arith -Wstrict-prototypes \
	-Wmissing-prototypes -Wold-style-definition -Wvla -Wwrite-strings -fno-common -Werror
override CFLAGS += $(WARN) -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -pthread \
	-DFSLAB_VERSION='"$(VERSION)"' -DFSLAB_GIT='"$(GIT_HASH)"' -Isrc -I. -MMD -MP
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
LIB_SRC := $(filter-out src/main.c,$(wildcard src/*.c src/run/*.c src/lab/*.c src/io/*.c \
	src/compare/*.c fsprep/*.c fsprep/win/*.c workloads/*.c))
LIB_OBJ := $(LIB_SRC:%.c=$(B)/%.o)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)

.PHONY: all deps check unit integration vm-kernel bench demo clean install fuzz fuzz-build
all: fslab

# Order-only: checked on every build, installs what is missing when root.
deps:
	$(Q)scripts/deps.sh build

$(B)/%.o: %.c | deps
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) $(CFLAGS_PKG) -c -o $@ $<

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
	$(Q)$(MAKE) --no-print-directory fslab $(UNIT_BIN) vm-kernel
	$(Q)tests/run.sh $(UNIT_BIN)

unit:
	$(Q)scripts/deps.sh check
	$(Q)$(MAKE) --no-print-directory fslab $(UNIT_BIN)
	$(Q)FSLAB_UNIT_ONLY=1 tests/run.sh $(UNIT_BIN)

integration:
	$(Q)scripts/deps.sh check
	$(Q)$(MAKE) --no-print-directory fslab vm-kernel
	$(Q)FSLAB_INTEGRATION_ONLY=1 tests/run.sh

# The QEMU test guest's kernel (tests/vm/, docs/VM.md): a Debian kernel package downloaded
# and unpacked into build/vm/ once; where it cannot be had the VM tests skip with the reason.
vm-kernel:
	$(Q)tests/vm/setup.sh >/dev/null || [ $$? -eq 77 ]

bench:
	$(Q)scripts/deps.sh bench
	$(Q)$(MAKE) --no-print-directory fslab
	$(Q)bench/bench.sh

# A fresh demo every time: the previous demo-report/ is replaced.  An interrupted demo can be
# finished with ./fslab lab configs/demo.ini --output demo-report --resume instead.
demo:
	$(Q)scripts/deps.sh demo
	$(Q)$(MAKE) --no-print-directory fslab
	$(Q)rm -rf demo-report
	$(Q)./fslab lab configs/demo.ini --output demo-report

# ---- fuzzing (tests/fuzz, docs/DESIGN.md "Fuzzing") ----
# The library again, built by clang with coverage for libFuzzer and ASan+UBSan, in build/fuzz/;
# each tests/fuzz/fuzz_*.c becomes build/fuzz/fuzz_* (no -Werror: clang warns differently).
FUZZ_CC ?= clang
FUZZ_FLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined
FUZZ_CFLAGS := -std=gnu11 -Wall -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -pthread \
	-DFSLAB_VERSION='"$(VERSION)"' -DFSLAB_GIT='"$(GIT_HASH)"' -Isrc -I. $(FUZZ_FLAGS)
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
	$(Q)$(MAKE) --no-print-directory $(FUZZ_BIN)

# FUZZ_SECONDS per target (default 60); crashes land in build/fuzz/crashes/
fuzz: fuzz-build
	$(Q)tests/fuzz/run.sh $(FUZZ_BIN)

install: fslab
	install -D -m 0755 fslab $(DESTDIR)/usr/local/bin/fslab
	install -d $(DESTDIR)/usr/local/share/fslab/plots
	install -m 0644 plots/*.gp $(DESTDIR)/usr/local/share/fslab/plots/

clean:
	rm -rf $(B) fslab

-include $(shell find $(B) -name '*.d' 2>/dev/null)
