#!/usr/bin/env python3
"""Writes the ORC primary-key data files of keycheck_orc_test.go: Java's
KeyValue layout (_KEY_ columns, _SEQUENCE_NUMBER, _VALUE_KIND, the values)
and the thin-mode layout (no _KEY_ columns), keys out of order in the
first so that the reader's sort shows.

    python3 -m venv /tmp/orcvenv && /tmp/orcvenv/bin/pip install pyarrow==26.0.1
    /tmp/orcvenv/bin/python storage/commit/testdata/orc/gen.py
"""
import os

import pyarrow as pa
import pyarrow.orc as orc

HERE = os.path.dirname(os.path.abspath(__file__))

ids = [3, 1, 2]
full = pa.table({
    "_KEY_id": pa.array(ids, pa.int64()),
    "_KEY_k": pa.array(["c", "a", "b"]),
    "_SEQUENCE_NUMBER": pa.array([7, 8, 9], pa.int64()),
    "_VALUE_KIND": pa.array([0, 0, 3], pa.int8()),
    # value columns unlike the keys, so that a test sees which it read
    "id": pa.array([i * 10 for i in ids], pa.int64()),
    "k": pa.array(["C", "A", "B"]),
    "v": pa.array(["x", None, "z"]),
})
orc.write_table(full, os.path.join(HERE, "keyvalue.orc"), compression="zstd")
thin = pa.table({
    "_SEQUENCE_NUMBER": full["_SEQUENCE_NUMBER"], "_VALUE_KIND": full["_VALUE_KIND"],
    "id": full["_KEY_id"], "k": full["_KEY_k"], "v": full["v"],
})
orc.write_table(thin, os.path.join(HERE, "thin.orc"), compression="zlib")
