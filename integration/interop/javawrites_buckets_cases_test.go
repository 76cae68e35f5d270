//go:build interop

package interop

// Java-written tables whose buckets or schema lakesql cannot make itself:
// postpone buckets, deletion vectors
// across partitions and buckets, casts and column moves of SchemaChange,
// listagg options.
func init() {
	cases = append(cases,
		tableCase{
			// partial-update whose deletes remove the record.
			name: "javawrites_partial_update_remove_on_delete",
			create: javaCreate("1.4.2", `{"columns": [{"name": "id", "type": "INT NOT NULL"}, {"name": "a", "type": "STRING"}, {"name": "b", "type": "INT"}],
 "primaryKeys": ["id"], "options": {"bucket": "1", "merge-engine": "partial-update", "partial-update.remove-record-on-delete": "true"},
 "commits": [{"rows": [{"id": 1, "a": "a", "b": null}, {"id": 2, "a": "x", "b": 2}]}, {"rows": [{"id": 1, "a": null, "b": 1}]}]}`),
			steps: []string{
				javaCommits("1.3.1", `[{"rows": [{"id": 2, "a": null, "b": null}], "kinds": ["-D"]}]`),
				javaCommits("1.4.2", `[{"rows": [{"id": 2, "a": null, "b": 22}]}]`),
				`INSERT INTO t (id, a) VALUES (1, 'lakesql'), (3, 'new')`,
				`DELETE FROM t WHERE id = 2`,
				`CALL sys.compact('t')`,
			},
			known: []known{{finding: "F9", reader: "pypaimon-", message: "does not yet implement: partial-update.remove-record-on-delete"}},
		},
		tableCase{
			// deduplicate with ignore-delete: Java's -D rows are dropped.
			name: "javawrites_ignore_delete",
			create: javaCreate("1.4.2", `{"columns": [{"name": "id", "type": "INT NOT NULL"}, {"name": "v", "type": "STRING"}],
 "primaryKeys": ["id"], "options": {"bucket": "1", "ignore-delete": "true"},
 "commits": [{"rows": [{"id": 1, "v": "a"}, {"id": 2, "v": "b"}]}]}`),
			steps: []string{
				javaCommits("1.3.1", `[{"rows": [{"id": 1, "v": "a"}, {"id": 2, "v": "b2"}], "kinds": ["-D", "+U"]}]`),
				`INSERT INTO t VALUES (3, 'lakesql')`,
				`DELETE FROM t WHERE id = 3`,
				`CALL sys.compact('t')`,
			},
		},
		tableCase{
			// postpone buckets (bucket = -2): Java's batch writes.
			name: "javawrites_postpone_bucket",
			create: javaCreate("1.4.2", `{"columns": [{"name": "id", "type": "INT NOT NULL"}, {"name": "v", "type": "STRING"}],
 "primaryKeys": ["id"], "options": {"bucket": "-2"},
 "commits": [{"rows": [{"id": 1, "v": "a"}, {"id": 2, "v": "b"}]}]}`),
			steps: []string{
				javaCommits("1.4.2", `[{"rows": [{"id": 1, "v": "a2"}, {"id": 3, "v": "c"}]}]`),
				expectError(`INSERT INTO t VALUES (4, 'lakesql')`, "lakesql cannot write a postpone-bucket table"),
			},
			// F16 (fixed): $files and $partitions leave the postpone bucket out.
		},
		tableCase{
			// deletion vectors across partitions and buckets, several index
			// files (a tiny target size).
			name: "javawrites_dv_partitioned",
			create: javaCreate("1.4.2", `{"columns": [{"name": "p", "type": "INT NOT NULL"}, {"name": "id", "type": "INT NOT NULL"}, {"name": "v", "type": "STRING"}],
 "primaryKeys": ["p", "id"], "partitionKeys": ["p"], "options": {"bucket": "3", "deletion-vectors.enabled": "true",
  "deletion-vector.index-file.target-size": "1 b"},
 "commits": [{"rows": [{"p": 1, "id": 1, "v": "a"}, {"p": 1, "id": 2, "v": "b"}, {"p": 1, "id": 3, "v": "c"}, {"p": 1, "id": 4, "v": "d"},
   {"p": 2, "id": 1, "v": "a"}, {"p": 2, "id": 2, "v": "b"}, {"p": 2, "id": 3, "v": "c"}, {"p": 2, "id": 4, "v": "d"}]}]}`),
			steps: []string{
				javaCommits("1.3.1", `[{"rows": [{"p": 1, "id": 1, "v": "a2"}, {"p": 1, "id": 2, "v": "b"}, {"p": 2, "id": 3, "v": "c3"}, {"p": 2, "id": 4, "v": "d"}],
  "kinds": ["+U", "-D", "+U", "-D"]}]`),
				javaCommits("1.4.2", `[{"rows": [{"p": 1, "id": 3, "v": "c-new"}, {"p": 2, "id": 1, "v": "a-new"}, {"p": 3, "id": 1, "v": "new"}]}]`),
				javaRun("1.3.1", "compact"),
				javaCommits("1.4.2", `[{"rows": [{"p": 1, "id": 4, "v": "d"}], "kinds": ["-D"]}]`),
			},
		},
		tableCase{
			// SchemaChange casts Java reads old files through, and moves.
			name: "javawrites_schema_casts",
			create: javaCreate("1.4.2", `{"columns": [{"name": "id", "type": "INT NOT NULL"}, {"name": "i", "type": "INT"},
  {"name": "dec", "type": "DECIMAL(10,2)"}, {"name": "ts", "type": "TIMESTAMP(3)"}, {"name": "c", "type": "CHAR(5)"},
  {"name": "s", "type": "STRING"}, {"name": "small", "type": "SMALLINT"}],
 "primaryKeys": ["id"], "options": {"bucket": "1"},
 "commits": [{"rows": [{"id": 1, "i": 12, "dec": "12.34", "ts": "2026-04-16 01:02:03.456", "c": "ab", "s": "42", "small": -7},
   {"id": 2, "i": null, "dec": "-0.01", "ts": null, "c": null, "s": null, "small": null}]}]}`),
			steps: []string{
				javaAlter("1.4.2", `[{"op": "retype", "name": "i", "type": "STRING"}, {"op": "retype", "name": "dec", "type": "DECIMAL(12,4)"},
  {"op": "retype", "name": "ts", "type": "TIMESTAMP(6)"}, {"op": "retype", "name": "c", "type": "VARCHAR(10)"},
  {"op": "retype", "name": "small", "type": "BIGINT"}, {"op": "move", "name": "s", "after": "id"}]`),
				javaCommits("1.3.1", `[{"rows": [{"id": 3, "s": "33", "i": "text", "dec": "1.2345", "ts": "2026-04-16 01:02:03.456789", "c": "longer", "small": 9000000000}]}]`),
				javaAlter("1.3.1", `[{"op": "retype", "name": "s", "type": "INT"}, {"op": "move", "name": "small", "first": "true"}]`),
				javaCommits("1.4.2", `[{"rows": [{"small": 1, "id": 4, "s": 44, "i": "4", "dec": "4.0000", "ts": null, "c": "four"}]}]`),
				`INSERT INTO t (id, s, i, dec, ts, c, small) VALUES (5, 55, 'lakesql', 5.5, '2026-01-01 00:00:00.123456', 'l', 5)`,
				`UPDATE t SET c = 'upd' WHERE id = 1`,
				`CALL sys.compact('t')`,
			},
		},
		tableCase{
			name: "javawrites_listagg_options",
			create: javaCreate("1.4.2", `{"columns": [{"name": "id", "type": "INT NOT NULL"}, {"name": "la", "type": "STRING"}, {"name": "ld", "type": "STRING"}],
 "primaryKeys": ["id"], "options": {"bucket": "1", "merge-engine": "aggregation",
  "fields.la.aggregate-function": "listagg", "fields.la.list-agg-delimiter": ";",
  "fields.ld.aggregate-function": "listagg", "fields.ld.distinct": "true"},
 "commits": [{"rows": [{"id": 1, "la": "a", "ld": "x"}]}, {"rows": [{"id": 1, "la": "b", "ld": "x"}]}]}`),
			steps: []string{
				javaCommits("1.3.1", `[{"rows": [{"id": 1, "la": "", "ld": "y,x"}]}]`),
				`INSERT INTO t VALUES (1, 'lakesql', 'x')`,
				`CALL sys.compact('t')`,
			},
			known: []known{{finding: "F18", reader: "java-1.3.1", message: "first pair differs in l"}},
		},
	)
}
