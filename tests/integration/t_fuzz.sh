# SPDX-License-Identifier: MIT
# t_fuzz.sh: the libFuzzer targets (tests/fuzz) in make check: every regression input replayed,
# then each target fuzzed briefly (FUZZ_SECONDS, default 5) from the fixtures.  make fuzz
# runs them longer.
. "$(dirname "$0")/lib.sh"

command -v clang >/dev/null || skip "clang is not installed (scripts/deps.sh check installs clang and libclang-rt-14-dev)"
log "build the fuzz targets"
make -C "$FSLAB_TOP" --no-print-directory -s fuzz-build >"$T/build.log" 2>&1 ||
	{ tail -20 "$T/build.log"; fail "the fuzz targets do not build"; }
log "replay and fuzz"
FUZZ_SECONDS=${FUZZ_SECONDS:-5} "$FSLAB_TOP/tests/fuzz/run.sh" "$FSLAB_TOP"/build/fuzz/fuzz_* ||
	fail "a fuzz target crashed (see above)"
log "ok"
