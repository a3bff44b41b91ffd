#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# otheruser.py: the other user of a directory fslab works in as root (t_run_otheruser): run
# unprivileged, it plants symbolic links and exchanges a folder for one while root's fslab
# runs, as fast as it can, for SECONDS at most.
#   otheruser.py plant SECONDS NAME TARGET [NAME TARGET ...]
#       each NAME, once it is missing (fslab deleted it), becomes a link to TARGET at once;
#       ends when every NAME was planted
#   otheruser.py after SECONDS TRIGGER NAME TARGET [NAME TARGET ...]
#       waits until TRIGGER is missing (fslab cleared what it was), then plants as plant does:
#       the names fslab is about to create next, after it looked at them
#   otheruser.py swap SECONDS NAME LINK
#       exchanges NAME (fslab's folder) and LINK (a link) over and over (renameat2
#       RENAME_EXCHANGE): whoever looks at NAME twice may see a folder, then a link
import ctypes
import os
import sys
import time

AT_FDCWD = -100
RENAME_EXCHANGE = 2


def plant(end, pairs):
    left = dict(pairs)
    while left and time.monotonic() < end:
        for name in list(left):
            try:
                os.symlink(left[name], name)
                del left[name]
            except FileExistsError:
                pass
            except FileNotFoundError:
                pass


def after(end, trigger, pairs):
    while os.path.lexists(trigger) and time.monotonic() < end:
        pass
    plant(end, pairs)


def swap(end, name, link):
    libc = ctypes.CDLL(None, use_errno=True)
    a, b = os.fsencode(name), os.fsencode(link)
    while time.monotonic() < end:
        libc.renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE)


def main():
    mode, end = sys.argv[1], time.monotonic() + float(sys.argv[2])
    args = sys.argv[3:]
    if mode == "plant":
        plant(end, zip(args[0::2], args[1::2]))
    elif mode == "after":
        after(end, args[0], zip(args[1::2], args[2::2]))
    elif mode == "swap":
        swap(end, args[0], args[1])
    else:
        sys.exit("usage: otheruser.py plant|after|swap SECONDS ...")


main()
