#!/usr/bin/env python3
"""roundtrip.py -- read a Native / RowBinary file with a modern ClickHouse engine.

Test harness (chDB, ClickHouse 26.5 in-process; not a server). Use it to
check that bytes written by our C encoder are accepted and decoded by a
modern engine:

    python3 test/chdb/roundtrip.py FILE 'a UInt8, s String'
    python3 test/chdb/roundtrip.py --format RowBinary FILE 'a UInt8, s String'
    python3 test/chdb/roundtrip.py --output JSONEachRow FILE 'a UInt8, s String'
    python3 test/chdb/roundtrip.py FILE                  # Native only: use the file's own header
    python3 test/chdb/roundtrip.py --describe FILE       # print the columns/types the engine sees
    cat data.bin | python3 test/chdb/roundtrip.py - 'a UInt8'   # '-' = standard input

What it runs (FILE made absolute, quotes escaped):

    SELECT * FROM file('FILE', FORMAT, 'STRUCTURE')          (default)
    CREATE TABLE roundtrip_t (STRUCTURE) ENGINE = Memory;    (--via-table: the
    INSERT INTO roundtrip_t SELECT * FROM file(...);          INSERT path, as
    SELECT * FROM roundtrip_t                                 INSERT ... FORMAT does)

and writes the result to stdout in --output format (default TabSeparated;
e.g. JSONEachRow, TSVWithNamesAndTypes, Vertical, or Native/RowBinary to
re-encode). Engine errors go to stderr, exit status 1.

--strict sets input_format_native_allow_types_conversion = 0, so a Native
column whose header type differs from STRUCTURE is an error instead of being
cast (checks that the encoder announced exactly the expected type).
Extra engine settings: --setting NAME=VALUE (repeatable), applied with
SETTINGS on the query.
"""

import argparse
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True     # keep test/chdb/ free of __pycache__
sys.path.insert(0, HERE)
import chdb  # noqa: E402


def sql_quote(s):
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


def main(argv):
    ap = argparse.ArgumentParser(
        description="Decode a Native/RowBinary file with chDB (ClickHouse 26.5; "
                    "test harness, not a server) and print the values.")
    ap.add_argument("file", help="data file, or - for standard input")
    ap.add_argument("structure", nargs="?",
                    help="column list, e.g. 'a UInt8, s String' (optional for Native)")
    ap.add_argument("--format", "-f", default="Native",
                    help="input format: Native (default), RowBinary, RowBinaryWithNamesAndTypes, ...")
    ap.add_argument("--output", "-o", default="TabSeparated",
                    help="output format (default TabSeparated; e.g. JSONEachRow)")
    ap.add_argument("--via-table", action="store_true",
                    help="INSERT INTO a Memory table first, then SELECT from it")
    ap.add_argument("--strict", action="store_true",
                    help="no Native type conversion (input_format_native_allow_types_conversion=0)")
    ap.add_argument("--describe", action="store_true",
                    help="print DESCRIBE of the file (names and types) instead of the values")
    ap.add_argument("--setting", action="append", default=[], metavar="NAME=VALUE")
    a = ap.parse_args(argv)

    tmp = None
    path = a.file
    if path == "-":
        fd, tmp = tempfile.mkstemp(prefix="roundtrip-", suffix=".bin")
        with os.fdopen(fd, "wb") as f:
            f.write(sys.stdin.buffer.read())
        path = tmp
    path = os.path.abspath(path)
    if not os.path.isfile(path):
        sys.stderr.write("roundtrip: no such file: %s\n" % path)
        return 1
    if a.structure is None and a.format not in ("Native", "RowBinaryWithNamesAndTypes") \
            and not a.describe:
        sys.stderr.write("roundtrip: a structure is required for format %s\n" % a.format)
        return 1

    settings = []
    if a.strict:
        settings.append("input_format_native_allow_types_conversion = 0")
    for s in a.setting:
        if "=" not in s:
            sys.stderr.write("roundtrip: --setting wants NAME=VALUE, got %r\n" % s)
            return 1
        k, v = s.split("=", 1)
        v = v.strip()
        if not (v.lstrip("-").replace(".", "", 1).isdigit() or v.startswith("'")):
            v = sql_quote(v)
        settings.append("%s = %s" % (k.strip(), v))
    settings_sql = (" SETTINGS " + ", ".join(settings)) if settings else ""

    args = [sql_quote(path), a.format]
    if a.structure:
        args.append(sql_quote(a.structure))
    src = "file(%s)" % ", ".join(args)

    db = chdb.Chdb()
    try:
        if a.describe:
            out = db.query("DESCRIBE TABLE %s%s" % (src, settings_sql), a.output)
        elif a.via_table:
            if not a.structure:
                db.query("CREATE TABLE roundtrip_t ENGINE = Memory AS SELECT * FROM %s LIMIT 0%s"
                         % (src, settings_sql), "TabSeparated")
            else:
                db.query("CREATE TABLE roundtrip_t (%s) ENGINE = Memory" % a.structure,
                         "TabSeparated")
            db.query("INSERT INTO roundtrip_t SELECT * FROM %s%s" % (src, settings_sql),
                     "TabSeparated")
            out = db.query("SELECT * FROM roundtrip_t", a.output)
        else:
            out = db.query("SELECT * FROM %s%s" % (src, settings_sql), a.output)
    except chdb.ChdbError as e:
        sys.stderr.write("%s\n" % e)
        return 1
    finally:
        db.close()
        if tmp:
            os.unlink(tmp)
    sys.stdout.buffer.write(out)
    sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
