#!/usr/bin/env python3
"""Generate the pyarrow-written ORC test corpus in this directory.

How to rerun (from the repo root; the venv lives outside the repo):

    python3 -m venv /tmp/orcvenv
    /tmp/orcvenv/bin/pip install pyarrow==26.0.1
    /tmp/orcvenv/bin/python storage/orcio/testdata/pyarrow/gen.py

Generated with pyarrow 26.0.1 (Python 3.11). The data is deterministic
(seeded PRNG), but the ORC bytes depend on the pyarrow / ORC C++ version, so
rerunning with another pyarrow version may produce different (still valid)
files.

For every X.orc this writes:
  X.jsonl.gz    (gzip; files of one table share it: types.jsonl.gz,
                bigstream.jsonl.gz) one JSON object per row, row order;
                value encoding:
                  int -> number; bool -> true/false;
                  float32/float64 -> number (Python repr of the float value);
                  string -> string; binary -> lowercase hex string;
                  decimal -> string with exactly `scale` fractional digits;
                  date -> "YYYY-MM-DD";
                  timestamp (with or without tz) ->
                    "YYYY-MM-DD HH:MM:SS.fffffffff" (UTC wall clock);
                  list -> array; struct -> object;
                  map -> array of [key, value] pairs in file order;
                  null -> null.
  X.types.json  the schema as pyarrow sees it (str(table.schema)), file
                metadata from pyarrow.orc.ORCFile, and, decoded by the small
                protobuf/stream walker below, the ORC type tree, each stripe's
                writer timezone and column encodings, and per integer-RLE
                stream the run sub-encodings that occur.

Each file is read back with pyarrow.orc and compared with the written table
(Table.equals, and the rendered JSON of both must match).

Files:
  types_{uncompressed,zlib,snappy,zstd,lz4}.orc  the same 1000-row table with
      every type (row_index_stride=250, dictionary_key_size_threshold=0.5)
  types_zlib_v0_11.orc   same table, file_version='0.11' (RLE v1, DIRECT /
      DICTIONARY encodings)
  types_small_defaults.orc  first 50 rows, all writer options at their
      defaults (=> no dictionary encoding at all, see below)
  empty.orc              types schema, 0 rows, 0 stripes
  multistripe.orc        2000 rows in 5 stripes (uncompressed)
  bigstream_{zlib,snappy,zstd,lz4}.orc  a string DATA stream > 64 KiB (two
      compression chunks) and an incompressible binary DATA stream

Observations with pyarrow 26.0.1 (bundled ORC C++ 2.2.2):
  * compression_block_size must be a multiple of the ORC C++ memory block
    size (64 KiB, not settable from pyarrow), so 65536 is the minimum; only
    streams larger than that (bigstream_*) have more than one chunk.
  * LZ4 files contain only "original" (stored uncompressed) chunks: the
    writer never keeps an LZ4-compressed chunk, so they do not exercise LZ4
    decompression.
  * dictionary_key_size_threshold defaults to 0.0, which disables dictionary
    encoding; the types_* files use 0.5.
  * stripe footers carry writerTimezone "GMT".
  * timestamp[ns, tz=UTC] is written as TIMESTAMP_INSTANT, timestamp[ns] as
    TIMESTAMP.
  * Timestamps before 1970 with a sub-second part are written with seconds
    truncated toward zero and a NEGATIVE nanosecond value (e.g. -1 ns is
    stored as seconds=-1420070400 relative to 2015, nanos=-1), i.e. the
    SECONDARY value is (uint64)(nanos << 3 | zeros); decoding it as int64
    with an arithmetic shift and value = secs*1e9 + nanos gives the written
    instant.
"""

import datetime
import decimal
import gzip
import json
import os
import random
import struct
import sys
import zlib

import pyarrow as pa
import pyarrow.orc as orc
import pyarrow.parquet as pq

OUT = os.path.dirname(os.path.abspath(__file__))
N_TYPES = 1000
NULL_FRAC = 0.2

# ---------------------------------------------------------------------------
# data generation

rng = random.Random(20240611)


def maybe_null(v, frac=NULL_FRAC):
    return None if rng.random() < frac else v


def int_pattern(n, lo, hi, seg=140):
    """Integers in [lo, hi] in segments exercising the various RLE shapes."""
    out = []
    kinds = ["const", "slow_inc", "outliers", "const_delta", "short_rep",
             "extremes", "random"]
    i = 0
    k = 0
    while len(out) < n:
        kind = kinds[k % len(kinds)]
        k += 1
        m = min(seg, n - len(out))
        if kind == "const":
            v = rng.randint(lo, hi)
            vals = [v] * m
        elif kind == "slow_inc":
            v = rng.randint(lo, max(lo, hi - 4 * m)) if hi - lo > 4 * m else lo
            vals = []
            for _ in range(m):
                vals.append(min(v, hi))
                v += rng.randint(0, 3)
        elif kind == "outliers":
            small_hi = min(hi, 100)
            vals = []
            for _ in range(m):
                if rng.random() < 0.02:
                    vals.append(rng.choice([hi, hi // 2 + 1, lo // 3]))
                else:
                    vals.append(rng.randint(0, small_hi))
        elif kind == "const_delta":
            step = rng.choice([1, -1, 7, -13, 1000])
            span = abs(step) * m
            if hi - lo > 2 * span:
                start = rng.randint(lo + span, hi - span)
            else:
                start, step = lo, (1 if hi - lo >= m else 0)
            vals = [start + step * j for j in range(m)]
        elif kind == "short_rep":
            vals = []
            while len(vals) < m:
                v = rng.randint(lo, hi)
                vals.extend([v] * rng.randint(3, 10))
            vals = vals[:m]
        elif kind == "extremes":
            ex = [lo, hi, 0, -1, 1, lo + 1, hi - 1]
            vals = [ex[j % len(ex)] for j in range(m)]
        else:
            vals = [rng.randint(lo, hi) for _ in range(m)]
        out.extend(vals)
        i += m
    return out[:n]


def with_nulls(vals, frac=NULL_FRAC):
    return [maybe_null(v, frac) for v in vals]


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


DICT_WORDS = ["", "a", "hello", "héllo wörld", "日本語テキスト", "🙂 emoji",
              "x" * 40, " leading and trailing ", "a", "hello"]

EPOCH_DATE = datetime.date(1970, 1, 1)


def days(y, m, d):
    return (datetime.date(y, m, d) - EPOCH_DATE).days


NS = 10 ** 9
SPECIAL_TS = [
    0, -1, 1, -NS, -NS + 1, -NS // 2, NS // 2 * 3,
    -2208988800 * NS + 123456789,          # 1900-01-01 00:00:00.123456789
    -2208988800 * NS - 1,                  # 1899-12-31 23:59:59.999999999
    -86400 * NS + 1000,                    # 1969-12-31 00:00:00.000001
    -5 * NS - 250_000_000,                 # 1969-12-31 23:59:54.75
    1420070400 * NS,                       # 2015-01-01 00:00:00
    1420070400 * NS - 1,                   # 2014-12-31 23:59:59.999999999
    1420070400 * NS + 1,                   # 2015-01-01 00:00:00.000000001
    1420070399 * NS + 500_000_000,
    946684800 * NS + 100,                  # 2000-01-01 00:00:00.0000001
    1700000000 * NS + 123_000_000,
    4102444800 * NS + 999_999_000,         # 2100-01-01 00:00:00.999999
    -9223372036 * NS + 854775808 + NS,     # near int64 min (1677)
    9223372035 * NS,                       # near int64 max (2262)
]

SPECIAL_DATES = [0, -1, 1, days(1900, 1, 1), days(1582, 10, 15),
                 days(1582, 10, 4), days(1, 1, 1), days(9999, 12, 31),
                 days(2038, 1, 19), days(2015, 1, 1), days(1000, 6, 15)]

SPECIAL_F64 = [0.0, -0.0, 1.0, -1.5, 1.7976931348623157e308,
               -1.7976931348623157e308, 5e-324, -5e-324,
               2.2250738585072014e-308, 1e-300, 1e300, 0.1, 123456789.125,
               -3.141592653589793]
SPECIAL_F32 = [0.0, -0.0, 1.0, -1.5, 3.4028234663852886e38,
               -3.4028234663852886e38, 1.401298464324817e-45,
               1.1754943508222875e-38, 1e-30, 1e30, 0.1, -2.5e-10]


def gen_ts(i):
    if i % 5 == 0 and wide(i):
        return SPECIAL_TS[(i // 5) % len(SPECIAL_TS)]
    lo, hi = -9223372036 * NS // 1 + 2 * NS, 9223372035 * NS
    if wide(i) and i % 5 == 1:
        return rng.randint(lo, hi)                               # full ns
    mode = i % 3
    if mode == 0:
        return rng.randint(-10 ** 9, 10 ** 9) * 1000000          # ms
    if mode == 1:
        return 1420070400 * NS + rng.randint(-10 ** 8, 10 ** 8) * NS  # s
    return 1420070400 * NS + rng.randint(-10 ** 6, 10 ** 6) * 1000  # us


def rand_str(lo=0, hi=8):
    alphabet = "abcdefghijklmnopqrstuvwxyzäöü€漢字🙂 "
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(lo, hi)))


def dec(unscaled, scale):
    return decimal.Decimal("%dE-%d" % (unscaled, scale))  # exact


def dec_vals(n, precision, scale):
    mx = 10 ** precision - 1
    special = [0, 1, -1, mx, -mx, 10 ** scale, -(10 ** scale) - 3,
               123, -4567]
    out = []
    for i in range(n):
        if i % 11 == 0:
            u = special[(i // 11) % len(special)]
        elif i % 30 == 1:
            u = rng.randint(-mx, mx)
        else:
            u = rng.randint(-99999, 99999)
        out.append(dec(u, scale))
    return out


def wide(i, n=None):
    """Rows where occasional full-width values go. Confining them to a few
    row ranges keeps the other RLE runs narrow (and the files small)."""
    return i < 100 or 700 <= i < 730


def list_vals(n, elem_fn, null_frac=0.1, empty_frac=0.1, max_len=5,
              elem_null=0.1):
    out = []
    for i in range(n):
        r = rng.random()
        if r < null_frac:
            out.append(None)
        elif r < null_frac + empty_frac:
            out.append([])
        else:
            out.append([None if rng.random() < elem_null else elem_fn(i)
                        for _ in range(rng.randint(1, max_len))])
    return out


def types_table(n):
    cols = {}
    types = {}

    def add(name, typ, vals):
        types[name] = typ
        cols[name] = vals

    add("bool", pa.bool_(),
        with_nulls([(i // 50) % 2 == 0 if i < n // 2 else rng.random() < 0.5
                    for i in range(n)]))
    add("i8", pa.int8(), with_nulls(int_pattern(n, -128, 127)))
    add("i16", pa.int16(), with_nulls(int_pattern(n, -32768, 32767)))
    add("i32", pa.int32(),
        with_nulls(int_pattern(n, -2 ** 31, 2 ** 31 - 1)))
    add("i64", pa.int64(),
        with_nulls(int_pattern(n, -2 ** 63, 2 ** 63 - 1)))
    # no nulls: small random values with rare huge outliers (PATCHED_BASE)
    add("i64_patched", pa.int64(),
        [2 ** 40 + i if rng.random() < 0.015 else rng.randint(0, 1000)
         for i in range(n)])
    # no nulls: constant-delta sequence (DELTA)
    add("i64_delta", pa.int64(), [10 ** 12 - 3 * i for i in range(n)])
    add("i32_null", pa.int32(), [None] * n)
    add("f32", pa.float32(),
        with_nulls([SPECIAL_F32[(i // 5) % len(SPECIAL_F32)] if i % 5 == 0
                    else f32(rng.uniform(-1e6, 1e6)) for i in range(n)]))
    add("f64", pa.float64(),
        with_nulls([SPECIAL_F64[(i // 5) % len(SPECIAL_F64)] if i % 5 == 0
                    else rng.uniform(-1e9, 1e9) for i in range(n)]))
    add("s_dict", pa.string(),
        with_nulls([rng.choice(DICT_WORDS) for _ in range(n)]))
    add("s_direct", pa.string(),
        with_nulls(["" if i % 97 == 0 else "%x%s" % (i, rand_str(0, 2))
                    for i in range(n)]))
    add("s_null", pa.string(), [None] * n)
    add("bin", pa.binary(),
        with_nulls([bytes(rng.randrange(256)
                          for _ in range(rng.randint(0, 6)))
                    for _ in range(n)]))
    add("d10_2", pa.decimal128(10, 2), with_nulls(dec_vals(n, 10, 2)))
    add("d38_10", pa.decimal128(38, 10), with_nulls(dec_vals(n, 38, 10)))
    add("d5_0", pa.decimal128(5, 0), with_nulls(dec_vals(n, 5, 0)))
    add("date", pa.date32(),
        with_nulls([SPECIAL_DATES[(i // 4) % len(SPECIAL_DATES)] if i % 4 == 0
                    else rng.randint(days(1, 1, 1), days(9999, 12, 31))
                    if i % 40 == 1 else 19000 + i // 10 for i in range(n)]))
    add("ts", pa.timestamp("ns"), with_nulls([gen_ts(i) for i in range(n)]))
    add("ts_utc", pa.timestamp("ns", tz="UTC"),
        with_nulls([gen_ts(i) for i in range(n)]))
    add("l_i32", pa.list_(pa.int32()),
        list_vals(n, lambda i: rng.randint(-2 ** 31, 2 ** 31 - 1)
                  if wide(i) and rng.random() < 0.1
                  else rng.randint(-50, 50)))
    add("l_str", pa.list_(pa.string()),
        list_vals(n, lambda i: rand_str(0, 3), max_len=3))
    st = pa.struct([("a", pa.int32()), ("b", pa.string()),
                    ("c", pa.list_(pa.int64()))])
    svals = []
    for i in range(n):
        if rng.random() < 0.15:
            svals.append(None)
        else:
            svals.append({
                "a": maybe_null(rng.randint(-1000, 1000)),
                "b": maybe_null(rand_str(0, 4)),
                "c": list_vals(1, lambda _: rng.randint(-2 ** 63, 2 ** 63 - 1)
                               if wide(i) and rng.random() < 0.1
                               else rng.randint(0, 9))[0],
            })
    add("st", st, svals)
    mvals = []
    keys = ["k%d" % j for j in range(12)] + ["", "ключ"]
    for i in range(n):
        r = rng.random()
        if r < 0.1:
            mvals.append(None)
        elif r < 0.15:
            mvals.append([])
        else:
            ks = rng.sample(keys, rng.randint(1, 4))
            mvals.append([(k, maybe_null(rng.randint(-10 ** 12, 10 ** 12)
                                         if wide(i) and rng.random() < 0.1
                                         else
                                         rng.randint(-1000, 1000)))
                          for k in ks])
    add("m", pa.map_(pa.string(), pa.int64()), mvals)
    ls = pa.list_(pa.struct([("x", pa.int64()), ("y", pa.string())]))
    add("l_st", ls,
        list_vals(n, lambda i: {"x": maybe_null(rng.randint(-100, 100)),
                              "y": maybe_null(rng.choice(DICT_WORDS))},
                  max_len=3))
    arrays = [pa.array(cols[k], type=types[k]) for k in cols]
    return pa.table(arrays, names=list(cols))


def multistripe_table(n):
    return pa.table({
        "id": pa.array(list(range(n)), pa.int64()),
        "v": pa.array(with_nulls([rng.randint(-2 ** 20, 2 ** 20)
                                  for _ in range(n)]), pa.int64()),
        "s": pa.array(["s%d%s" % (i, rand_str(0, 2)) for i in range(n)],
                      pa.string()),
        "cat": pa.array(with_nulls([rng.choice(DICT_WORDS[:6 + (i // 450)])
                                    for i in range(n)]), pa.string()),
        "l": pa.array(list_vals(n, lambda i: rng.randint(-9, 9), max_len=3),
                      pa.list_(pa.int32())),
    })


def bigstream_table(n):
    """One compressible string column whose DATA stream exceeds the 64 KiB
    compression block (=> several chunks) and one binary column whose DATA
    stream is incompressible random bytes (=> an "original" chunk)."""
    return pa.table({
        "s": pa.array(["row %05d: the quick brown fox jumps over a dog" % i
                       for i in range(n)], pa.string()),
        "r": pa.array([bytes(rng.randrange(256) for _ in range(48))
                       if i % 15 == 0 else None for i in range(n)],
                      pa.binary()),
    })

# ---------------------------------------------------------------------------
# expected-value rendering


def fmt_ts(ns):
    secs, nanos = divmod(ns, NS)
    dt = datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=secs)
    return "%04d-%02d-%02d %02d:%02d:%02d.%09d" % (
        dt.year, dt.month, dt.day, dt.hour, dt.minute, dt.second, nanos)


def render(v, t):
    if v is None:
        return None
    if pa.types.is_boolean(t):
        return bool(v)
    if pa.types.is_integer(t):
        return int(v)
    if pa.types.is_floating(t):
        return float(v)
    if pa.types.is_string(t):
        return v
    if pa.types.is_binary(t):
        return v.hex()
    if pa.types.is_decimal(t):
        q = decimal.Decimal(1).scaleb(-t.scale)
        with decimal.localcontext() as ctx:
            ctx.prec = 80
            return "{:f}".format(v.quantize(q))
    if pa.types.is_date32(t):
        d = EPOCH_DATE + datetime.timedelta(days=v) if isinstance(v, int) \
            else v
        return "%04d-%02d-%02d" % (d.year, d.month, d.day)
    if pa.types.is_timestamp(t):
        return fmt_ts(v)   # v is int64 ns (columns are cast before to_pylist)
    if pa.types.is_map(t):
        return [[render(k, t.key_type), render(x, t.item_type)] for k, x in v]
    if pa.types.is_list(t):
        return [render(x, t.value_type) for x in v]
    if pa.types.is_struct(t):
        return {t.field(j).name: render(v[t.field(j).name], t.field(j).type)
                for j in range(t.num_fields)}
    raise TypeError(t)


def jsonl_lines(table):
    cols = []
    for f, col in zip(table.schema, table.columns):
        if pa.types.is_timestamp(f.type):
            col = col.cast(pa.int64())
        cols.append((f, col.to_pylist()))
    lines = []
    for i in range(table.num_rows):
        row = {f.name: render(vals[i], f.type) for f, vals in cols}
        lines.append(json.dumps(row, ensure_ascii=False, allow_nan=False,
                                separators=(",", ":")))
    return lines

# ---------------------------------------------------------------------------
# minimal ORC metadata / stream walker (protobuf + compression + RLE runs)


def read_varint(b, p):
    r = s = 0
    while True:
        c = b[p]
        p += 1
        r |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return r, p


def pb_fields(b):
    """Decode a protobuf message into {field: [values]} (ints or bytes)."""
    out = {}
    p = 0
    while p < len(b):
        key, p = read_varint(b, p)
        fn, wt = key >> 3, key & 7
        if wt == 0:
            v, p = read_varint(b, p)
        elif wt == 2:
            ln, p = read_varint(b, p)
            v = bytes(b[p:p + ln])
            p += ln
        elif wt == 1:
            v = bytes(b[p:p + 8])
            p += 8
        elif wt == 5:
            v = bytes(b[p:p + 4])
            p += 4
        else:
            raise ValueError("wire type %d" % wt)
        out.setdefault(fn, []).append(v)
    return out


def packed_uints(vals):
    res = []
    for v in vals:
        if isinstance(v, int):
            res.append(v)
        else:
            p = 0
            while p < len(v):
                x, p = read_varint(v, p)
                res.append(x)
    return res


def lz4_raw_size(b):
    p = n = 0
    while p < len(b):
        tok = b[p]
        p += 1
        ll = tok >> 4
        if ll == 15:
            while True:
                c = b[p]
                p += 1
                ll += c
                if c != 255:
                    break
        p += ll
        n += ll
        if p >= len(b):
            break
        p += 2
        ml = tok & 15
        if ml == 15:
            while True:
                c = b[p]
                p += 1
                ml += c
                if c != 255:
                    break
        n += ml + 4
    return n


def zstd_frame_size(b):
    fhd = b[4]
    fcs_flag, single, dict_flag = fhd >> 6, (fhd >> 5) & 1, fhd & 3
    p = 5 + (0 if single else 1) + [0, 1, 2, 4][dict_flag]
    size = [1 if single else 0, 2, 4, 8][fcs_flag]
    if size == 0:
        raise ValueError("zstd frame without content size")
    v = int.from_bytes(b[p:p + size], "little")
    return v + 256 if size == 2 else v


def decompress_chunk(kind, data):
    if kind == 1:
        return zlib.decompress(data, -15)
    if kind == 2:
        n, _ = read_varint(data, 0)
        return pa.Codec("snappy").decompress(data, decompressed_size=n,
                                             asbytes=True)
    if kind == 4:
        return pa.Codec("lz4_raw").decompress(
            data, decompressed_size=lz4_raw_size(data), asbytes=True)
    if kind == 5:
        return pa.Codec("zstd").decompress(
            data, decompressed_size=zstd_frame_size(data), asbytes=True)
    raise ValueError("compression kind %d" % kind)


def decompress(kind, b, stats=None):
    if kind == 0:
        return bytes(b)
    out = bytearray()
    p = 0
    while p < len(b):
        h = b[p] | (b[p + 1] << 8) | (b[p + 2] << 16)
        p += 3
        ln, original = h >> 1, h & 1
        chunk = bytes(b[p:p + ln])
        p += ln
        if stats is not None:
            stats["original" if original else "compressed"] += 1
        out += chunk if original else decompress_chunk(kind, chunk)
    return bytes(out)


WIDTHS = list(range(1, 25)) + [26, 28, 30, 32, 40, 48, 56, 64]


def closest_fixed_bits(n):
    for w in WIDTHS:
        if w >= n:
            return w
    return 64


def rlev2_runs(b):
    """Walk an RLEv2 integer stream, return {sub-encoding: run count}."""
    names = ["SHORT_REPEAT", "DIRECT", "PATCHED_BASE", "DELTA"]
    counts = {}
    p = 0
    while p < len(b):
        h = b[p]
        enc = h >> 6
        counts[names[enc]] = counts.get(names[enc], 0) + 1
        if enc == 0:
            p += 1 + ((h >> 3) & 7) + 1
            continue
        ln = ((h & 1) << 8 | b[p + 1]) + 1
        code = (h >> 1) & 31
        if enc == 1:
            p += 2 + (ln * WIDTHS[code] + 7) // 8
        elif enc == 2:
            b2, b3 = b[p + 2], b[p + 3]
            bw = ((b2 >> 5) & 7) + 1
            pw = WIDTHS[b2 & 31]
            pgw = ((b3 >> 5) & 7) + 1
            pll = b3 & 31
            p += 4 + bw + (ln * WIDTHS[code] + 7) // 8 + \
                (pll * closest_fixed_bits(pw + pgw) + 7) // 8
        else:
            p += 2
            _, p = read_varint(b, p)
            _, p = read_varint(b, p)
            if code:
                p += ((ln - 2) * WIDTHS[code] + 7) // 8
    if p != len(b):
        raise ValueError("RLEv2 walk overran stream")
    return counts


def rlev1_runs(b):
    counts = {}
    p = 0
    while p < len(b):
        c = b[p]
        if c < 128:
            counts["RUN"] = counts.get("RUN", 0) + 1
            p += 2
            _, p = read_varint(b, p)
        else:
            counts["LITERALS"] = counts.get("LITERALS", 0) + 1
            p += 1
            for _ in range(256 - c):
                _, p = read_varint(b, p)
    if p != len(b):
        raise ValueError("RLEv1 walk overran stream")
    return counts


KIND_NAMES = ["BOOLEAN", "BYTE", "SHORT", "INT", "LONG", "FLOAT", "DOUBLE",
              "STRING", "BINARY", "TIMESTAMP", "LIST", "MAP", "STRUCT",
              "UNION", "DECIMAL", "DATE", "VARCHAR", "CHAR",
              "TIMESTAMP_INSTANT"]
STREAM_NAMES = {0: "PRESENT", 1: "DATA", 2: "LENGTH", 3: "DICTIONARY_DATA",
                4: "DICTIONARY_COUNT", 5: "SECONDARY", 6: "ROW_INDEX",
                7: "BLOOM_FILTER", 8: "BLOOM_FILTER_UTF8"}
ENC_NAMES = ["DIRECT", "DICTIONARY", "DIRECT_V2", "DICTIONARY_V2"]
COMPRESSION_NAMES = ["NONE", "ZLIB", "SNAPPY", "LZO", "LZ4", "ZSTD"]


def is_int_rle_stream(kind_name, stream_name, enc_name):
    """Does this stream hold run-length-encoded integers (RLE v1/v2)?"""
    if stream_name == "LENGTH":
        return True
    if stream_name == "DATA":
        if kind_name in ("SHORT", "INT", "LONG", "DATE", "TIMESTAMP",
                         "TIMESTAMP_INSTANT"):
            return True
        if kind_name in ("STRING", "VARCHAR", "CHAR") and \
                enc_name.startswith("DICTIONARY"):
            return True
    if stream_name == "SECONDARY" and kind_name in (
            "DECIMAL", "TIMESTAMP", "TIMESTAMP_INSTANT"):
        return True
    return False


def inspect_orc(path):
    with open(path, "rb") as fh:
        data = fh.read()
    ps_len = data[-1]
    ps = pb_fields(data[-1 - ps_len:-1])
    comp = ps.get(2, [0])[0]
    footer_len = ps[1][0]
    footer_raw = data[-1 - ps_len - footer_len:-1 - ps_len]
    footer = pb_fields(decompress(comp, footer_raw))
    # type tree, column names in pre-order (column id == index)
    types = [pb_fields(t) for t in footer.get(4, [])]
    names = [""] * len(types)

    def walk(tid, name):
        names[tid] = name or "<root>"
        t = types[tid]
        kind = KIND_NAMES[t.get(1, [0])[0]]
        subs = packed_uints(t.get(2, []))
        fnames = [x.decode() for x in t.get(3, [])]
        for j, s in enumerate(subs):
            if kind == "STRUCT":
                child = fnames[j]
            elif kind == "LIST":
                child = "_elem"
            elif kind == "MAP":
                child = ["_key", "_value"][j]
            else:
                child = "_%d" % j
            walk(s, (name + "." if name else "") + child)
    if types:
        walk(0, "")
    type_info = []
    for tid, t in enumerate(types):
        d = {"id": tid, "name": names[tid],
             "kind": KIND_NAMES[t.get(1, [0])[0]]}
        if 5 in t:
            d["precision"] = t[5][0]
        if 6 in t:
            d["scale"] = t[6][0]
        type_info.append(d)
    chunk_stats = {"compressed": 0, "original": 0}
    stripes = []
    for s in footer.get(3, []):
        si = pb_fields(s)
        off, ilen = si.get(1, [0])[0], si.get(2, [0])[0]
        dlen, flen = si.get(3, [0])[0], si.get(4, [0])[0]
        sf_raw = data[off + ilen + dlen:off + ilen + dlen + flen]
        sf = pb_fields(decompress(comp, sf_raw))
        encs = [pb_fields(e) for e in sf.get(2, [])]
        enc_names = [ENC_NAMES[e.get(1, [0])[0]] for e in encs]
        tz = sf.get(3, [b""])[0].decode() if 3 in sf else None
        cols = []
        for cid, e in enumerate(encs):
            c = {"column": names[cid], "encoding": enc_names[cid]}
            if 2 in e:
                c["dictionary_size"] = e[2][0]
            c["streams"] = {}
            cols.append(c)
        pos = off
        for st in sf.get(1, []):
            stf = pb_fields(st)
            skind = STREAM_NAMES.get(stf.get(1, [0])[0], str(stf.get(1, [0])))
            cid = stf.get(2, [0])[0]
            ln = stf.get(3, [0])[0]
            raw = data[pos:pos + ln]
            pos += ln
            if skind == "ROW_INDEX":
                cols[cid]["streams"].setdefault(skind, {})
                continue
            cs = {"compressed": 0, "original": 0}
            plain = decompress(comp, raw, cs)
            for k in cs:
                chunk_stats[k] += cs[k]
            info = {"bytes_on_disk": ln, "bytes_decompressed": len(plain)}
            if comp:
                info["chunks"] = cs
            kind_name = type_info[cid]["kind"]
            if is_int_rle_stream(kind_name, skind, enc_names[cid]):
                if enc_names[cid].endswith("_V2"):
                    info["rlev2_runs"] = rlev2_runs(plain)
                else:
                    info["rlev1_runs"] = rlev1_runs(plain)
            cols[cid]["streams"][skind] = info
        stripes.append({"rows": si.get(5, [0])[0], "writer_timezone": tz,
                        "columns": cols})
    return {
        "postscript_compression": COMPRESSION_NAMES[comp],
        "postscript_version": packed_uints(ps.get(4, [])),
        "writer_version": ps.get(6, [None])[0],
        "row_index_stride": footer.get(8, [None])[0],
        "orc_types": type_info,
        "compression_chunks": chunk_stats,
        "stripes": stripes,
    }

# ---------------------------------------------------------------------------
# writing + verification


def describe(path, table):
    f = orc.ORCFile(path)
    meta = {
        "schema": str(table.schema),
        "orc_file": {
            "compression": f.compression,
            "compression_size": f.compression_size,
            "nstripes": f.nstripes,
            "nrows": f.nrows,
            "file_version": f.file_version,
            "software_version": f.software_version,
            "writer": f.writer,
            "writer_version": f.writer_version,
            "row_index_stride": f.row_index_stride,
        },
        "pyarrow_version": pa.__version__,
    }
    meta["orc_internals"] = inspect_orc(path)
    tzs = {s["writer_timezone"] for s in meta["orc_internals"]["stripes"]}
    meta["writer_timezone"] = sorted(t for t in tzs if t is not None) or None
    return meta


def write(name, table, expected=None, **kw):
    path = os.path.join(OUT, name + ".orc")
    orc.write_table(table, path, **kw)
    # verify read-back
    back = orc.read_table(path)
    if not back.schema.equals(table.schema):
        print("SCHEMA DIFFERS for %s:\n%s\nvs\n%s" % (name, table.schema,
                                                    back.schema))
        back = back.cast(table.schema)
    if not back.equals(table):
        raise SystemExit("read-back of %s differs from written table" % name)
    lines = jsonl_lines(table)
    if jsonl_lines(back) != lines:
        raise SystemExit("rendered read-back of %s differs" % name)
    expected_path = os.path.join(OUT, (expected or name) + ".jsonl.gz")
    body = "".join(ln + "\n" for ln in lines).encode("utf-8")
    if os.path.exists(expected_path):
        with gzip.open(expected_path, "rb") as fh:
            if fh.read() != body:
                raise SystemExit("%s: rows differ from %s" % (name, expected_path))
    else:
        # mtime=0 keeps the bytes identical across reruns.
        with open(expected_path, "wb") as raw:
            with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as fh:
                fh.write(body)
    meta = describe(path, table)
    meta["write_options"] = {k: v for k, v in kw.items()}
    with open(os.path.join(OUT, name + ".types.json"), "w",
              encoding="utf-8", newline="\n") as fh:
        json.dump(meta, fh, indent=1, ensure_ascii=False)
        fh.write("\n")
    f = orc.ORCFile(path)
    print("%-28s %7d bytes  rows=%d stripes=%d %s %s" % (
        name + ".orc", os.path.getsize(path), f.nrows, f.nstripes,
        f.compression, f.file_version))
    return f


def main():
    for fn in os.listdir(OUT):
        if fn.endswith((".orc", ".parquet", ".jsonl", ".jsonl.gz", ".types.json")):
            os.remove(os.path.join(OUT, fn))
    types = types_table(N_TYPES)
    common = dict(compression_block_size=65536, row_index_stride=250,
                  dictionary_key_size_threshold=0.5)
    for comp in ["uncompressed", "zlib", "snappy", "zstd", "lz4"]:
        write("types_" + comp, types, expected="types", compression=comp, **common)
    write("types_zlib_v0_11", types, expected="types", compression="zlib",
          file_version="0.11", **common)
    # the same rows as Parquet, for the decode benchmark's comparison
    # (bench_test.go).
    pq.write_table(types, os.path.join(OUT, "types.parquet"), compression="zstd")
    # default writer options (note: dictionary_key_size_threshold=0 => the
    # ORC C++ writer never uses dictionary encoding)
    write("types_small_defaults", types.slice(0, 50))
    write("empty", types.slice(0, 0), compression="zlib")
    # Uncompressed: the C++ writer's memory estimate then exceeds stripe_size
    # after every batch, so each batch_size rows become one stripe.
    ms = multistripe_table(2000)
    f = write("multistripe", ms, compression="uncompressed",
              stripe_size=64 * 1024, batch_size=450, row_index_stride=200,
              dictionary_key_size_threshold=0.5)
    if f.nstripes <= 1:
        raise SystemExit("multistripe.orc has only %d stripe" % f.nstripes)
    big = bigstream_table(1500)
    # No lz4 here: pyarrow's lz4 writer stores every chunk original (see
    # types_lz4), which types_lz4 covers already.
    for comp in ["zlib", "snappy", "zstd"]:
        write("bigstream_" + comp, big, expected="bigstream", compression=comp,
              compression_block_size=65536)


if __name__ == "__main__":
    sys.exit(main())
