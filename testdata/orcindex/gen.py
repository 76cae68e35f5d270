#!/usr/bin/env python3
"""Writes the specs the interop tool made o.db/orc_append and o.db/orc_pk
from (see NOTICE): python3 gen.py DIR, then for each spec
integration/interop/java/run.sh 1.4.2 write --warehouse W --spec DIR/<name>.json"""
import json, random, sys

random.seed(7)
rows = []
for i in range(30000):
    rows.append({"id": i, "k": "key%06d" % i, "d": "2026-%02d-%02d" % (1 + i // 2600 % 12, 1 + i % 28),
                 "v": random.randint(-1000, 1000), "n": None if (i // 1000) % 3 == 1 else i})
for name, pk in [("orc_append", []), ("orc_pk", ["id"])]:
    options = {"file.format": "orc", "orc.row.index.stride": "1000", "bucket": "1" if pk else "-1"}
    spec = {"table": "o." + name,
            "columns": [{"name": "id", "type": "BIGINT NOT NULL"}, {"name": "k", "type": "STRING"},
                        {"name": "d", "type": "DATE"}, {"name": "v", "type": "INT"}, {"name": "n", "type": "INT"}],
            "primaryKeys": pk, "partitionKeys": [], "options": options, "commits": [{"rows": rows}]}
    with open("%s/%s.json" % (sys.argv[1], name), "w") as f:
        json.dump(spec, f)
