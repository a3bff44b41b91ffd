# SPDX-License-Identifier: MIT
# wine-env.sh: sourced by tests/wine.sh and t_windows.sh: Wine without a display or a desktop,
# quiet, in build/win/wineprefix (its first start takes ~15 s, later ones ~1 s).  Sets $WINE.
: "${FSLAB_TOP:=$(pwd)}"
WINE=/usr/lib/wine/wine64
if [ ! -x "$WINE" ]; then
	echo "wine64 is missing: apt-get install wine64 (scripts/deps.sh wine)" >&2
	return 1
fi
export WINEPREFIX="$FSLAB_TOP/build/win/wineprefix" WINEDEBUG=-all WINEARCH=win64
# headless: no X display, no Mono/Gecko installers, no crash dialogs
unset DISPLAY WAYLAND_DISPLAY
export WINEDLLOVERRIDES="mscoree,mshtml=;winemenubuilder.exe=d"
mkdir -p "$WINEPREFIX"
if [ ! -f "$WINEPREFIX/system.reg" ]; then
	timeout 300 "$WINE" wineboot --init >/dev/null 2>&1
	timeout 60 /usr/bin/wineserver -w 2>/dev/null
fi
export FSLAB_TEST_DIR="${FSLAB_TEST_DIR:-$FSLAB_TOP/build/win}"
