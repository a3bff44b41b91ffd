#!/bin/bash
# SPDX-License-Identifier: MIT
# t_package: the Debian package, built once by `make deb` in a clean clone of this tree, then:
#   - lintian on it and on the source package: no error, no warning;
#   - its version is debian/changelog's, its binary hardened (PIE, bind-now, stack protector,
#     fortified functions);
#   - unpacked with dpkg -x (nothing installed): its binary runs the autopkgtest's script
#     (debian/tests/smoke: version, fslab demo --dry-run, ext4 and XFS on loop devices for
#     3 s each, a compare with charts from the unpacked templates); with the templates taken
#     away the script fails;
#   - installed with apt (root; skipped when a package fslab is installed here already): the
#     autopkgtest's script on the installed /usr/bin/fslab from /, the man page and the
#     completion where man and bash-completion find them; purged: nothing of it is left.
. "$(dirname "$0")/lib.sh"

for t in dpkg-buildpackage dh lintian dpkg-source readelf; do
	command -v $t >/dev/null || fail "$t is missing: scripts/deps.sh check installs it"
done
installed_by_us=
pkg_cleanup() {
	[ -n "$installed_by_us" ] || return 0
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 purge -y -qq fslab \
		>/dev/null 2>&1
}
trap 'rc=$?; pkg_cleanup; (exit $rc); cleanup' EXIT

log "make deb in a clean clone"
git clone -q "$FSLAB_TOP" "$T/src"
t0=$(date +%s)
make -C "$T/src" --no-print-directory deb > "$T/deb.out" 2>&1 ||
	{ tail -30 "$T/deb.out"; fail "make deb failed"; }
log "make deb: $(( $(date +%s) - t0 )) s"
deb=$(ls "$T"/src/build/deb/fslab_*.deb)
[ -f "$deb" ] || fail "make deb made no fslab_*.deb: $(ls "$T/src/build/deb")"
version=$(sed -n '1s/^fslab (\([^ ]*\)) .*/\1/p' "$T/src/debian/changelog")
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] ||
	fail "the package's version $(dpkg-deb -f "$deb" Version) is not debian/changelog's $version"
[ "$(basename "$deb")" = "fslab_${version}_$(dpkg --print-architecture).deb" ] ||
	fail "unexpected name $(basename "$deb")"
[ ! -e "$T/src/build/deb/fslab-$version" ] || fail "make deb left its copy of the tree"

log "lintian: the binary package and the source package"
(cd "$T" && dpkg-source -b src > "$T/source.out" 2>&1) ||
	{ cat "$T/source.out"; fail "dpkg-source -b failed"; }
lintian --info "$T"/src/build/deb/fslab_*.changes "$T"/fslab_*.dsc > "$T/lintian.out" 2>&1 || true
grep -v '^running with root privileges' "$T/lintian.out" | sed 's/^/    /'
! grep -q '^[EW]: ' "$T/lintian.out" || fail "lintian reports errors or warnings"
grep -q '^[EW]: \|^[IN]: ' "$T/lintian.out" || log "lintian: nothing to say"

log "dpkg -x: the unpacked binary, hardened, its version"
dpkg -x "$deb" "$T/x"
bin=$T/x/usr/bin/fslab
hash=$(git -C "$T/src" rev-parse --short=12 HEAD)
[ "$("$bin" version | head -1)" = "fslab $version ($hash)" ] ||
	fail "fslab version says '$("$bin" version | head -1)', not 'fslab $version ($hash)'"
"$bin" version | grep -qx "git: *$hash" ||
	fail "the git description of a clean clone is not its hash: $("$bin" version | grep '^git:')"
readelf -d "$bin" | grep -q 'BIND_NOW' || fail "not linked with -z now"
readelf -h "$bin" | grep -q 'DYN (Position-Independent' || fail "not a PIE"
readelf --dyn-syms -W "$bin" | grep -q '__stack_chk_fail' || fail "no stack protector"
readelf --dyn-syms -W "$bin" | grep -q '__[a-z]*printf_chk' || fail "not fortified"
for p in fslab fslab-run fslab-demo fslab-lab; do
	[ -s "$T/x/usr/share/man/man1/$p.1.gz" ] || fail "no man page $p.1"
done
[ -s "$T/x/usr/share/doc/fslab/examples/demo.ini" ] || fail "no example configs"
[ -s "$T/x/usr/share/doc/fslab/copyright" ] || fail "no copyright"

log "the autopkgtest's script on the unpacked binary"
FSLAB_UNDER_TEST=$bin AUTOPKGTEST_TMP=$T "$T/src/debian/tests/smoke" > "$T/smoke-x.out" 2>&1 ||
	{ cat "$T/smoke-x.out"; fail "debian/tests/smoke failed on the unpacked package"; }
log "the same without the templates: it fails"
mv "$T/x/usr/share/fslab/plots" "$T/plots.away"
rc=0
FSLAB_UNDER_TEST=$bin AUTOPKGTEST_TMP=$T "$T/src/debian/tests/smoke" > "$T/smoke-np.out" 2>&1 || rc=$?
[ $rc -ne 0 ] || { cat "$T/smoke-np.out"; fail "the smoke test passed without templates"; }
grep -q 'FAIL: the charts were not drawn' "$T/smoke-np.out" ||
	{ cat "$T/smoke-np.out"; fail "the smoke test failed otherwise"; }

if dpkg-query -W -f='${Status}' fslab 2>/dev/null | grep -q 'installed'; then
	log "a package fslab is installed here: the install and purge are left out"
	exit 0
fi
log "apt install ./$(basename "$deb")"
installed_by_us=1
DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq "$deb" \
	> "$T/apt.out" 2>&1 || { cat "$T/apt.out"; fail "apt-get install failed"; }
dpkg -L fslab > "$T/files"
log "the autopkgtest's script on /usr/bin/fslab, from /"
(cd / && AUTOPKGTEST_TMP=$T "$T/src/debian/tests/smoke") > "$T/smoke-i.out" 2>&1 ||
	{ cat "$T/smoke-i.out"; fail "debian/tests/smoke failed on the installed package"; }
[ "$(man -w fslab-demo 2>/dev/null)" = /usr/share/man/man1/fslab-demo.1.gz ] ||
	fail "man does not find fslab-demo(1)"
comp=$(bash -c '. /usr/share/bash-completion/bash_completion; _completion_loader fslab
	COMP_WORDS=(fslab run --engine ""); COMP_CWORD=3; _fslab; echo "${COMPREPLY[@]}"')
[ "$comp" = "io_uring psync" ] || fail "bash-completion does not load fslab's: '$comp'"

log "apt purge: nothing of it is left"
DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 purge -y -qq fslab \
	> "$T/purge.out" 2>&1 || { cat "$T/purge.out"; fail "apt-get purge failed"; }
installed_by_us=
! dpkg-query -W -f='${Status}' fslab 2>/dev/null | grep -q . ||
	fail "dpkg still knows fslab: $(dpkg-query -W -f='${Status}' fslab)"
while read -r f; do
	[ -d "$f" ] && continue
	[ ! -e "$f" ] && [ ! -L "$f" ] || fail "$f is left after the purge"
done < "$T/files"
for d in /usr/share/fslab /usr/share/doc/fslab; do
	[ ! -e "$d" ] || fail "$d is left after the purge"
done
log "ok: $(wc -l < "$T/files") paths installed, none left"
