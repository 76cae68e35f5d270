//go:build interop

package interop

// Tables whose manifest lists, manifests and index manifests are Parquet
// (manifest.format = parquet, F12): Java 1.4.2 and 1.3.1 write them, and
// read what lakesql writes on top. pypaimon 2.1.0 reads Avro manifests
// only, so every dump of these tables fails for it (F12).
var pypaimonParquetManifests = known{finding: "F12", reader: "pypaimon-", message: "ValueError: cannot read header - is it an avro file?"}

func init() {
	cases = append(cases,
		tableCase{
			// a partitioned primary-key table: Java's inserts, updates,
			// deletes and compactions, then lakesql's writes and
			// compaction, then Java's again.
			name: "javawrites_manifest_parquet_pk",
			create: javaCreate("1.4.2", `{"columns": [{"name": "dt", "type": "STRING NOT NULL"}, {"name": "id", "type": "INT NOT NULL"},
  {"name": "v", "type": "STRING"}, {"name": "amount", "type": "DECIMAL(12,2)"}],
 "primaryKeys": ["dt", "id"], "partitionKeys": ["dt"], "options": {"bucket": "2", "manifest.format": "parquet"},
 "commits": [{"rows": [{"dt": "d1", "id": 1, "v": "a", "amount": "1.00"}, {"dt": "d1", "id": 2, "v": "b", "amount": "2.00"},
   {"dt": "d1", "id": 3, "v": "c", "amount": null}, {"dt": "d2", "id": 1, "v": "x", "amount": "9.99"}]}]}`),
			steps: []string{
				javaCommits("1.3.1", `[{"rows": [{"dt": "d1", "id": 2, "v": "b2", "amount": "2.50"}, {"dt": "d1", "id": 3, "v": null, "amount": null}], "kinds": ["+U", "-D"]}]`),
				javaRun("1.4.2", "compact"),
				javaCommits("1.4.2", `[{"rows": [{"dt": "d2", "id": 2, "v": "y", "amount": "0.50"}, {"dt": "d3", "id": 1, "v": "z", "amount": null}]}]`),
				check,
				`INSERT INTO t VALUES ('d1', 4, 'lakesql', 4.00), ('d3', 2, 'lakesql', NULL)`,
				`UPDATE t SET v = 'upd', amount = amount + 1 WHERE dt = 'd1'`,
				`DELETE FROM t WHERE dt = 'd2' AND id = 1`,
				`CALL sys.compact('t')`,
				`CALL sys.create_tag('t', 'lakesql_compacted')`,
				javaCommits("1.3.1", `[{"rows": [{"dt": "d1", "id": 5, "v": "java-1.3.1", "amount": "5.00"}]}]`),
				`INSERT INTO t VALUES ('d2', 3, 'after-java', 3.00)`,
				javaRun("1.4.2", "compact"),
				`UPDATE t SET v = 'last' WHERE dt = 'd3' AND id = 1`,
				check,
				`CALL sys.expire_snapshots('t', 4, 1)`,
			},
			known: []known{pypaimonParquetManifests},
		},
		tableCase{
			// an append table (bucket -1, which the Java tool does not
			// compact) across partitions, a NULL one included.
			name: "javawrites_manifest_parquet_append",
			create: javaCreate("1.4.2", `{"columns": [{"name": "p", "type": "INT"}, {"name": "id", "type": "INT NOT NULL"}, {"name": "s", "type": "STRING"}],
 "primaryKeys": [], "partitionKeys": ["p"], "options": {"bucket": "-1", "manifest.format": "parquet"},
 "commits": [{"rows": [{"p": 1, "id": 1, "s": "a"}, {"p": null, "id": 2, "s": "b"}]}, {"rows": [{"p": 2, "id": 3, "s": "c"}]}]}`),
			steps: []string{
				javaCommits("1.3.1", `[{"rows": [{"p": 1, "id": 4, "s": "d"}]}]`),
				`INSERT INTO t VALUES (1, 5, 'lakesql'), (3, 6, 'lakesql')`,
				`INSERT INTO t VALUES (1, 7, 'lakesql2')`,
				`CALL sys.compact('t')`,
				`DELETE FROM t WHERE p = 2`,
				`INSERT OVERWRITE t PARTITION (p = 3) VALUES (8, 'overwritten')`,
				javaCommits("1.4.2", `[{"rows": [{"p": 3, "id": 9, "s": "java"}]}]`),
				`INSERT INTO t VALUES (NULL, 10, 'lakesql-null')`,
			},
			known: []known{pypaimonParquetManifests},
		},
		tableCase{
			// deletion vectors: the index manifests are Parquet too, also
			// those lakesql writes.
			name: "javawrites_manifest_parquet_dv",
			create: javaCreate("1.4.2", `{"columns": [{"name": "p", "type": "INT NOT NULL"}, {"name": "id", "type": "INT NOT NULL"}, {"name": "v", "type": "STRING"}],
 "primaryKeys": ["p", "id"], "partitionKeys": ["p"], "options": {"bucket": "2", "manifest.format": "parquet", "deletion-vectors.enabled": "true"},
 "commits": [{"rows": [{"p": 1, "id": 1, "v": "a"}, {"p": 1, "id": 2, "v": "b"}, {"p": 1, "id": 3, "v": "c"}, {"p": 2, "id": 1, "v": "x"}]}]}`),
			steps: []string{
				javaRun("1.4.2", "compact"),
				javaCommits("1.3.1", `[{"rows": [{"p": 1, "id": 1, "v": "a2"}, {"p": 1, "id": 2, "v": "b"}, {"p": 2, "id": 1, "v": "x"}], "kinds": ["+U", "-D", "-D"]}]`),
				javaRun("1.3.1", "compact"),
				javaCommits("1.4.2", `[{"rows": [{"p": 1, "id": 3, "v": "c"}, {"p": 2, "id": 5, "v": "new"}], "kinds": ["-D", "+I"]}]`),
				`INSERT INTO t VALUES (3, 1, 'lakesql'), (1, 1, 'lakesql')`,
				`DELETE FROM t WHERE p = 1 AND id = 3`,
				javaCommits("1.3.1", `[{"rows": [{"p": 1, "id": 1, "v": "java"}]}]`),
			},
			known: []known{pypaimonParquetManifests},
		},
		tableCase{
			// a table lakesql creates with Parquet manifests: every
			// metadata file is lakesql's.
			name: "lakesql_manifest_parquet",
			create: `CREATE TABLE t (dt VARCHAR(10) NOT NULL, id INT NOT NULL, v VARCHAR(20), PRIMARY KEY (dt, id))
  COMMENT 'paimon:{"manifest.format":"parquet","manifest.merge-min-count":"2"}'
  PARTITION BY LIST COLUMNS (dt) SUBPARTITION BY KEY (id) SUBPARTITIONS 2`,
			steps: []string{
				`INSERT INTO t VALUES ('d1', 1, 'a'), ('d1', 2, 'b'), ('d2', 3, 'c')`,
				`INSERT INTO t VALUES ('d1', 1, 'a2'), ('d3', 4, 'd')`,
				`DELETE FROM t WHERE id = 2`,
				`CALL sys.compact('t')`,
				`CALL sys.create_tag('t', 'compacted')`,
				javaCommits("1.4.2", `[{"rows": [{"dt": "d2", "id": 5, "v": "java"}]}]`),
				`UPDATE t SET v = CONCAT(v, '!') WHERE dt = 'd2'`,
				check,
				`CALL sys.expire_snapshots('t', 2, 1)`,
				`INSERT INTO t VALUES ('d4', 6, 'after-expiry')`,
			},
			known: []known{pypaimonParquetManifests},
		},
	)
}
