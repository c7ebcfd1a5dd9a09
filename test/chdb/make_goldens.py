#!/usr/bin/env python3
"""make_goldens.py -- (re)generate the modern-engine golden files in test/golden/v26_5/.

Test tooling, not part of the extension. The engine is chDB (ClickHouse 26.5
as an in-process library, see chdb.py / install.sh); there is no server.

Each case is a hand-written test/golden/v26_5/NAME.sql:

    -- ClickHouse 26.5.1.1 (chDB), FORMAT Native        <- line 1, exact
    -- free comment lines ...
    -- setup: SQL          a statement run before the query (in order)
    SELECT ...             every other line is the query, run verbatim
    FORMAT Native          (the FORMAT clause must name the header's format)

The script writes NAME.bin (the engine's output bytes) and NAME.hex
(`hexdump -C` of it, produced by an equivalent Python routine), and
INDEX.md: one line per case with the column names and the type names the
engine prints (taken from a second run with FORMAT
JSONCompactEachRowWithNamesAndTypes).

All cases run on one fresh engine in a temporary data directory, with
TZ=UTC. Setup statements must use table names unique to their case.

Usage:
    python3 test/chdb/make_goldens.py              regenerate every case
    python3 test/chdb/make_goldens.py NAME...      only these cases (INDEX.md untouched)
    python3 test/chdb/make_goldens.py --check      compare with the committed .bin/.hex, write nothing;
                                                   exit 1 on any difference

The engine version must equal the version in each header line; a new engine
version belongs in a new directory.
"""

import glob
import json
import os
import re
import sys
import time

os.environ["TZ"] = "UTC"          # before the engine starts: server time zone
try:
    time.tzset()
except AttributeError:
    pass

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True     # keep test/chdb/ free of __pycache__
sys.path.insert(0, HERE)
import chdb  # noqa: E402

REPO = os.path.dirname(os.path.dirname(HERE))
GOLDEN_DIR = os.path.join(REPO, "test", "golden", "v26_5")
HEADER_RE = re.compile(r"^-- ClickHouse (\S+) \(chDB\), FORMAT (\w+)$")
FORMAT_RE = re.compile(r"\bFORMAT\s+(\w+)\s*;?\s*$", re.S)
MAX_BYTES = 4 * 1024 * 1024


def hexdump_c(data):
    """Byte-for-byte the output of util-linux `hexdump -C` (with '*' for repeats)."""
    out = []
    prev = None
    starred = False
    for off in range(0, len(data), 16):
        chunk = data[off:off + 16]
        if chunk == prev and len(chunk) == 16:
            if not starred:
                out.append("*\n")
                starred = True
            continue
        starred = False
        prev = chunk
        hx = ""
        for j in range(16):
            if j < len(chunk):
                hx += "%02x " % chunk[j]
            else:
                hx += "   "
            if j == 7:
                hx += " "
        asc = "".join(chr(b) if 0x20 <= b < 0x7f else "." for b in chunk)
        out.append("%08x  %s |%s|\n" % (off, hx, asc))
    if data:
        out.append("%08x\n" % len(data))
    return "".join(out)


def varuint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def read_varuint(data, pos):
    v = shift = 0
    while True:
        b = data[pos]
        pos += 1
        v |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return v, pos


def native_header_types(case_name, data, cols, failures):
    """[(name, printed_type, native_type)] for the first block of a Native result."""
    out, pos = [], 0
    for cname, ctype in cols:
        key = varuint(len(cname.encode())) + cname.encode()
        at = data.find(key, pos)
        if at < 0:
            failures.append("%s: column %r not found in the Native bytes" % (case_name, cname))
            out.append((cname, ctype, None))
            continue
        n, p = read_varuint(data, at + len(key))
        ntype = data[p:p + n].decode("utf-8", "replace")
        pos = p + n
        if ntype != ctype:
            sys.stderr.write("make_goldens: note: %s.%s is %r in the Native header but %r in toTypeName\n"
                             % (case_name, cname, ntype, ctype))
        out.append((cname, ctype, ntype))
    return out


def parse_case(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    if not lines:
        raise SystemExit("%s: empty file" % path)
    m = HEADER_RE.match(lines[0])
    if not m:
        raise SystemExit("%s: first line must be '-- ClickHouse <version> (chDB), FORMAT <fmt>'" % path)
    version, fmt = m.group(1), m.group(2)
    setup, query = [], []
    for line in lines[1:]:
        if line.startswith("-- setup: "):
            setup.append(line[len("-- setup: "):])
        elif line.startswith("--"):
            continue
        else:
            query.append(line)
    q = "\n".join(query).strip()
    fm = FORMAT_RE.search(q)
    if not fm or fm.group(1) != fmt:
        raise SystemExit("%s: the query must end with FORMAT %s" % (path, fmt))
    return {"version": version, "format": fmt, "setup": setup, "query": q,
            "query_noformat": q[:fm.start()].rstrip()}


def column_types(db, case):
    """Column names and type names as the engine prints them."""
    out = db.query(case["query_noformat"], "JSONCompactEachRowWithNamesAndTypes")
    lines = out.split(b"\n", 2)
    if len(lines) < 3:
        return None
    return list(zip(json.loads(lines[0]), json.loads(lines[1])))


def main(argv):
    check = "--check" in argv
    names = [a for a in argv if not a.startswith("--")]
    paths = sorted(glob.glob(os.path.join(GOLDEN_DIR, "*.sql")))
    if names:
        want = set(names)
        paths = [p for p in paths if os.path.basename(p)[:-4] in want]
        missing = want - {os.path.basename(p)[:-4] for p in paths}
        if missing:
            raise SystemExit("no such case: %s" % ", ".join(sorted(missing)))
    if not paths:
        raise SystemExit("no cases in %s" % GOLDEN_DIR)

    t0 = time.time()
    db = chdb.Chdb()
    version = db.query("SELECT version()", "TabSeparated").decode().strip()
    results, index, failures = {}, [], []
    for p in paths:
        name = os.path.basename(p)[:-4]
        case = parse_case(p)
        if case["version"] != version:
            raise SystemExit("%s: header says %s but the engine is %s"
                             % (p, case["version"], version))
        try:
            for s in case["setup"]:
                db.query(s, "TabSeparated")
            data = db.query(case["query"], case["format"])
            cols = column_types(db, case)
        except chdb.ChdbError as e:
            raise SystemExit("%s: engine error: %s" % (name, e))
        if len(data) > MAX_BYTES:
            raise SystemExit("%s: output is %d bytes (> %d)" % (name, len(data), MAX_BYTES))
        results[name] = data
        if cols is None:
            # empty result: the types are still known from LIMIT 0 with a header format
            out = db.query(case["query_noformat"], "TSVWithNamesAndTypes").decode().splitlines()
            cols = list(zip(out[0].split("\t"), out[1].split("\t"))) if len(out) >= 2 else []
        # Native: read each column's type string from the first block's header
        # (found by its name, in order); it can differ from toTypeName.
        if case["format"] == "Native" and data:
            cols = native_header_types(name, data, cols, failures)
        index.append((name, case["format"], len(data), cols))
        if check:
            for ext, want_bytes in ((".bin", data), (".hex", hexdump_c(data).encode())):
                fp = os.path.join(GOLDEN_DIR, name + ext)
                try:
                    with open(fp, "rb") as f:
                        have = f.read()
                except OSError:
                    have = None
                if have != want_bytes:
                    failures.append("%s%s differs from the engine's output" % (name, ext))
    db.close()

    if failures:
        for f in failures:
            sys.stderr.write("make_goldens: %s\n" % f)
        if check:
            sys.stderr.write("make_goldens: %d difference(s)\n" % len(failures))
            return 1
        # a type-name mismatch is reported but does not stop the write
    if check:
        print("make_goldens: %d goldens match ClickHouse %s (%.1fs)"
              % (len(results), version, time.time() - t0))
        return 0

    for name, data in results.items():
        with open(os.path.join(GOLDEN_DIR, name + ".bin"), "wb") as f:
            f.write(data)
        with open(os.path.join(GOLDEN_DIR, name + ".hex"), "w") as f:
            f.write(hexdump_c(data))
    if not names:
        write_index(version, index)
    print("make_goldens: wrote %d goldens from ClickHouse %s (%.1fs)"
          % (len(results), version, time.time() - t0))
    return 0


def write_index(version, index):
    lines = [
        "# Goldens from ClickHouse %s (chDB)" % version,
        "",
        "Generated by `python3 test/chdb/make_goldens.py` from the `.sql` files here;",
        "do not edit `.bin`, `.hex` or this file by hand. Output of the embedded engine",
        "(chDB, npm `@chdb/lib-linux-x64-gnu@%s`) is the same as HTTP `FORMAT ...` output:" % chdb.CHDB_NPM_VERSION,
        "revision 0, so Native has no BlockInfo and no custom-serialization byte.",
        "TZ=UTC. Type names below are exactly as the engine prints them.",
        "",
        "Where the Native header announces a column differently from the type",
        "(`toTypeName`, or the header of a *WithNamesAndTypes format), both are shown:",
        "`type` ⇒ `Native header`.",
        "",
        "| case | format | bytes | columns (name: type) |",
        "|------|--------|------:|----------------------|",
    ]
    for name, fmt, size, cols in index:
        parts = []
        for col in cols:
            c, t = col[0], col[1]
            nt = col[2] if len(col) > 2 else None
            s = "`%s`: `%s`" % (c, t)
            if nt is not None and nt != t:
                s += " ⇒ `%s`" % nt
            parts.append(s.replace("|", "\\|"))
        colstr = "<br>".join(parts)
        lines.append("| %s | %s | %d | %s |" % (name, fmt, size, colstr))
    with open(os.path.join(GOLDEN_DIR, "INDEX.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
