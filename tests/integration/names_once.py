#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# names_once.py: every name of a table is typed once, in its table.  The tables are read from
# the sources: filesystems (fsprep/fs_<name>.c: .name, .title), importers (src/compare:
# struct importer .name), workloads (workloads/: struct workload_ops .name, SIMPLE_OPS) and
# exporters (src/export: struct exporter .name).  Then every string literal of the product
# (src/, fsprep/, workloads/; comments left out, adjacent literals joined as C joins them) is
# searched for
#   - a filesystem name as a whole literal outside its fs_<name>.c: code that asks which
#     filesystem it is (strcmp(fsname, "btrfs")) instead of asking the table for a flag;
#   - a list of two or more names of one table ("ntfs or refs", "ext4|xfs", "fio JSON,
#     DiskSpd XML"): a list a user sees, typed instead of made from its table.
# ALLOWED below names what may stay, each with why.  Prints each finding as FILE:LINE: what;
# exit 1 when there is one.  Usage: names_once.py TOP [FILE...] (FILEs: check these instead
# of the tree, against the tree's tables).
import os
import re
import sys

# (file, text in the literal, why): what may stay
ALLOWED = [
    ("src/lab/plan.c", '"raw"', "the lab's raw-baseline label (a cell, not a --fs value)"),
    ("src/lab/labcfg.c", '"raw"', "the lab's raw-baseline label in the baseline check"),
    ("src/lab/labcheck.c", '"raw"', "the lab's raw-baseline label in the checks after the file "
     "(baseline = raw, the A/A copy of the raw baseline)"),
    ("src/lab/cluster.c", '"raw"', "the raw-baseline cell of a lab of hosts"),
    ("src/lab/args.c", '"raw"', "the raw-baseline cell's steps"),
    ("src/lab/adaptive.c", '"raw"', "the raw-baseline label among the adaptive lab's labels"),
    ("src/lab/labplan.c", '"raw"', "the raw-baseline label of the plan"),
    ("src/compare/runs.c", '"raw"', "a result's raw-device volume (fsname \"raw\", volume.c)"),
    ("src/platform/volume.c", '"raw"', "the fsname of a raw device, which fslab run names itself "
     "(src/ cannot call fsprep/: that would be an upward arrow)"),
    ("src/platform/volume_json.c", '"raw"', "reading back the raw device's fsname (volume.c)"),
    ("fsprep/prep.c", '"raw"', "the raw backend's own name (struct prep_backend .name)"),
    ("src/compare/noise.c", "fio JSON, DiskSpd text", "a statement about which tools' files "
     "have no timeline, in the report (tests/expected goldens), not a list of choices"),
    ("src/cmds.c", "NTFS or ReFS", "the one-line summary of fslab.exe prep in the static command "
     "table"),
]

FS_RAW = "raw"


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def strip_comments(text):
    """The text with comments blanked out (newlines kept, so line numbers hold)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def literals(text):
    """(line, pieces, joined) of each string literal group: adjacent literals joined."""
    code = strip_comments(text)
    found = []
    for m in re.finditer(r'"(?:[^"\\\n]|\\.)*"(?:\s*"(?:[^"\\\n]|\\.)*")*', code):
        pieces = re.findall(r'"((?:[^"\\\n]|\\.)*)"', m.group(0))
        joined = re.sub(r"\s+", " ", "".join(pieces).replace("\\n", " "))
        line = code.count("\n", 0, m.start()) + 1
        found.append((line, pieces, joined))
    return found


def tables(top):
    """{table: set of names}, and {fs name: its file}."""
    t = {"filesystem": set(), "filesystem title": set(), "importer": set(), "workload": set(),
         "exporter": set()}
    fs_file = {}
    fsdir = os.path.join(top, "fsprep")
    for f in sorted(os.listdir(fsdir)):
        if not re.match(r"fs_\w+\.c$", f):
            continue
        text = read(os.path.join(fsdir, f))
        m = re.search(r'const struct fs_desc fs_\w+ = \{[^}]*?\.name = "([^"]+)"', text, re.S)
        if not m:
            continue
        name = m.group(1)
        if f != "fs_%s.c" % name:
            print("fsprep/%s: holds filesystem %s: name it fs_%s.c (scripts/deps.sh reads "
                  "the package there)" % (f, name, name))
            sys.exit(1)
        t["filesystem"].add(name)
        fs_file[name] = "fsprep/" + f
        m = re.search(r'\.title = "([^"]+)"', text)
        if m and m.group(1) != name:
            t["filesystem title"].add(m.group(1))
    for d, pat, key in (
            ("src/compare", r'struct importer import_\w+ = \{[^}]*?\.name = "([^"]+)"', "importer"),
            ("workloads", r'struct workload_ops workload_\w+ = \{[^}]*?\.name = "([^"]+)"',
             "workload"),
            ("workloads", r'SIMPLE_OPS\("([^"]+)"', "workload"),
            ("src/export", r'struct exporter export_\w+ = \{[^}]*?\.name = "([^"]+)"', "exporter")):
        for f in sorted(os.listdir(os.path.join(top, d))):
            if f.endswith(".c"):
                t[key].update(re.findall(pat, read(os.path.join(top, d, f)), re.S))
    return t, fs_file


USED = set()


def allowed(rel, text):
    for i, (f, what, _) in enumerate(ALLOWED):
        if rel == f and what in text:
            USED.add(i)
            return True
    return False


def check_file(top, rel, t, fs_file):
    findings = []
    path = rel if os.path.isabs(rel) else os.path.join(top, rel)
    seps = r"(?:, | or | and |\|)"
    lists = {k: re.compile(r"(?<![\w-])(%s)%s(%s)(?![\w-])" % ("|".join(map(re.escape, v)), seps,
                                                            "|".join(map(re.escape, v))))
             for k, v in t.items() if v}
    for line, pieces, joined in literals(read(path)):
        for p in pieces:
            # the table's files may name each other's entries (ntfs3 is read back by
            # libblkid as TYPE "ntfs")
            if p in t["filesystem"] and not rel.startswith("fsprep/fs_") and \
               not allowed(rel, '"%s"' % p):
                findings.append("%s:%d: the filesystem name \"%s\" typed outside its table "
                                "(%s): ask the table (fs_find(), a flag)" % (rel, line, p,
                                                                          fs_file[p]))
        if rel.startswith("fsprep/fs_"):
            continue
        for k, rx in lists.items():
            m = rx.search(joined)
            if m and m.group(1) != m.group(2) and not allowed(rel, m.group(0)):
                findings.append("%s:%d: a list of %s names typed by hand: \"%s\": make it "
                                "from the table" % (rel, line, k, m.group(0)))
    return findings


def main():
    top = sys.argv[1]
    t, fs_file = tables(top)
    for k in ("filesystem", "importer", "workload", "exporter"):
        if len(t[k]) < 2:
            print("names_once.py: found %d %s names in the sources: the table readers are "
                  "stale" % (len(t[k]), k))
            return 1
    if len(sys.argv) > 2:
        files = [os.path.abspath(f) for f in sys.argv[2:]]
    else:
        files = []
        for d in ("src", "fsprep", "workloads"):
            for root, _, names in os.walk(os.path.join(top, d)):
                files += [os.path.relpath(os.path.join(root, n), top) for n in names
                          if n.endswith((".c", ".h"))]
    findings = []
    for rel in sorted(files):
        findings += check_file(top, rel, t, fs_file)
    for i, (f, what, why) in enumerate(ALLOWED):
        if len(sys.argv) == 2 and i not in USED:
            findings.append("%s: ALLOWED lets '%s' stay (%s), but it is gone: drop the entry"
                            % (f, what, why))
    for f in findings:
        print(f)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
