#!/usr/bin/env python3
"""The interop `dump` over pypaimon 2.1.0 (see ../README.md).

    dump.py dump --warehouse W --table db.t [--snapshot N | --tag NAME] [--filter JSON]
    dump.py batch      # one JSON array of arguments a line on stdin,
                       # one {"output": ...} or {"error": ...} a line on stdout

Rows are printed one JSON object a line in the interop row encoding, the same
as the Java tool's: the Paimon type of each column (from the table's schema at
the snapshot read) decides how the Arrow value pypaimon returns is printed.
"""

import base64
import datetime
import decimal
import io
import json
import math
import re
import sys

import pyarrow as pa
from pypaimon import CatalogFactory

_EPOCH = datetime.datetime(1970, 1, 1)


def parse_flags(argv):
    flags = {}
    i = 0
    while i < len(argv):
        if not argv[i].startswith("--") or i + 1 >= len(argv):
            raise ValueError("bad argument " + argv[i])
        flags[argv[i][2:]] = argv[i + 1]
        i += 2
    return flags


def atomic_root(type_string):
    """'DECIMAL(38, 10) NOT NULL' -> ('DECIMAL', [38, 10], ltz?)."""
    s = type_string.replace(" NOT NULL", "").strip()
    ltz = s.endswith("WITH LOCAL TIME ZONE")
    m = re.match(r"([A-Z_ ]+?)\s*(?:\(([^)]*)\))?(?:\s+WITH.*)?$", s)
    root = m.group(1).strip()
    args = [int(a) for a in m.group(2).split(",")] if m.group(2) else []
    return root, args, ltz


def encode_float(f):
    if math.isnan(f):
        return "NaN"
    if math.isinf(f):
        return "Infinity" if f > 0 else "-Infinity"
    return f


def timestamp_text(value, unit, precision):
    """value is an integer count of unit since the epoch (UTC)."""
    per_second = {"s": 1, "ms": 1000, "us": 1000000, "ns": 1000000000}[unit]
    seconds, frac = divmod(value, per_second)
    t = _EPOCH + datetime.timedelta(seconds=seconds)
    text = t.strftime("%Y-%m-%d %H:%M:%S")
    if text[4] != "-":  # years below 1000 are not zero-padded by strftime everywhere
        text = "%04d%s" % (t.year, t.strftime("-%m-%d %H:%M:%S"))
    if precision > 0:
        nanos = frac * (1000000000 // per_second)
        text += "." + ("%09d" % nanos)[:precision]
    return text


def encode(value, ptype, atype):
    """One Python value of pyarrow type atype and Paimon type ptype (to_dict form)."""
    if value is None:
        return None
    if isinstance(ptype, dict):
        kind = ptype["type"].replace(" NOT NULL", "").strip()
        if kind == "ARRAY":
            return [encode(v, ptype["element"], atype.value_type) for v in value]
        if kind == "MAP":
            return [{"key": encode(k, ptype["key"], atype.key_type),
                     "value": encode(v, ptype["value"], atype.item_type)} for k, v in value]
        if kind == "MULTISET":
            return [{"key": encode(k, ptype["element"], atype.key_type), "value": v} for k, v in value]
        if kind == "ROW":
            out = {}
            for i, f in enumerate(ptype["fields"]):
                out[f["name"]] = encode(value.get(f["name"]), f["type"], atype.field(i).type)
            return out
        raise ValueError("no interop encoding for type %s" % ptype)
    root, args, _ = atomic_root(ptype)
    if root == "BOOLEAN":
        return bool(value)
    if root in ("TINYINT", "SMALLINT", "INT", "INTEGER", "BIGINT"):
        return int(value)
    if root in ("FLOAT", "DOUBLE"):
        return encode_float(float(value))
    if root == "DECIMAL":
        scale = args[1] if len(args) > 1 else 0
        with decimal.localcontext() as ctx:
            ctx.prec = 80  # DECIMAL(38, s) needs more than the default 28 digits
            return format(decimal.Decimal(value).quantize(decimal.Decimal(1).scaleb(-scale)), "f")
    if root in ("CHAR", "VARCHAR", "STRING"):
        return value
    if root in ("BINARY", "VARBINARY", "BYTES"):
        return base64.b64encode(bytes(value)).decode("ascii")
    if root == "DATE":
        return value.isoformat()
    if root == "TIME":
        return "%02d:%02d:%02d.%03d" % (value.hour, value.minute, value.second, value.microsecond // 1000)
    if root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        precision = args[0] if args else 6
        if isinstance(value, int):
            return timestamp_text(value, atype.unit, precision)
        if value.tzinfo is not None:
            value = value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        micros = (value - _EPOCH) // datetime.timedelta(microseconds=1)
        return timestamp_text(micros, "us", precision)
    raise ValueError("no interop encoding for type %s" % ptype)


def literal(value, ptype):
    """A filter literal in the interop encoding as the Python value pypaimon compares."""
    root, args, ltz = atomic_root(ptype)
    if root == "BOOLEAN":
        return bool(value)
    if root in ("TIMESTAMP", "TIMESTAMP_LTZ") and ltz:
        # pypaimon compares WITH LOCAL TIME ZONE values as aware datetimes
        return datetime.datetime.fromisoformat(value[:26]).replace(tzinfo=datetime.timezone.utc)
    if root == "DECIMAL":
        return decimal.Decimal(value)
    if root in ("BINARY", "VARBINARY", "BYTES"):
        return base64.b64decode(value)
    if root == "DATE":
        return datetime.date.fromisoformat(value)
    if root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        return datetime.datetime.fromisoformat(value[:26])
    if root in ("TINYINT", "SMALLINT", "INT", "INTEGER", "BIGINT"):
        return int(value)
    return value


def predicate(pb, fields, terms):
    """The conjunction of --filter's terms (see the Java tool)."""
    types = {f.name: f.type.to_dict() for f in fields}
    made = []
    for term in terms:
        column, op = term["column"], term["op"]
        if op == "isnull":
            made.append(pb.is_null(column))
            continue
        v = literal(term["value"], types[column])
        made.append({"=": pb.equal, "<": pb.less_than, ">": pb.greater_than}[op](column, v))
    return pb.and_predicates(made)


def column_values(column):
    """Python values of a pyarrow column, timestamps as integers so no precision is lost."""
    if pa.types.is_timestamp(column.type):
        return column.cast(pa.int64()).to_pylist()
    return column.to_pylist()


def dump(flags, out):
    catalog = CatalogFactory.create({"warehouse": flags["warehouse"]})
    table = catalog.get_table(flags["table"])
    travel = {}
    if "snapshot" in flags:
        travel["scan.snapshot-id"] = flags["snapshot"]
    if "tag" in flags:
        travel["scan.tag-name"] = flags["tag"]
    if travel:
        table = table.copy(travel)
    builder = table.new_read_builder()
    if "filter" in flags:
        builder = builder.with_filter(predicate(builder.new_predicate_builder(), table.fields,
                                                json.loads(flags["filter"])))
    splits = builder.new_scan().plan().splits()
    arrow = builder.new_read().to_arrow(splits)
    fields = table.fields
    if arrow is None or arrow.num_rows == 0:
        return
    columns = []
    for f in fields:
        col = arrow.column(f.name)
        columns.append((f.name, f.type.to_dict(), col.type, column_values(col)))
    for i in range(arrow.num_rows):
        row = {}
        for name, ptype, atype, values in columns:
            row[name] = encode(values[i], ptype, atype)
        out.write(json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n")


def run(argv, out):
    if not argv:
        raise ValueError("usage: dump.py dump|batch ...")
    if argv[0] != "dump":
        raise ValueError("unknown subcommand " + argv[0])
    dump(parse_flags(argv[1:]), out)


def batch():
    for line in sys.stdin:
        if not line.strip():
            continue
        buf = io.StringIO()
        try:
            run(json.loads(line), buf)
            answer = {"output": buf.getvalue()}
        except Exception as e:  # reported to the test, which names the case
            answer = {"error": "%s: %s" % (type(e).__name__, e)}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


def main():
    if sys.argv[1:2] == ["batch"]:
        batch()
        return
    try:
        run(sys.argv[1:], sys.stdout)
    except Exception as e:
        sys.stderr.write("dump.py: %s: %s\n" % (type(e).__name__, e))
        sys.exit(1)


if __name__ == "__main__":
    main()
