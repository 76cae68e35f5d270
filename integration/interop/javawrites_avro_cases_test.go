//go:build interop

package interop

// Tables Java writes with file.format = avro (issue 14, part 2): lakesql
// reads every snapshot as the readers do, writes Parquet files into them
// (Java reads each file by its extension, and its compaction rewrites the
// mix as avro), and refuses to compact them, naming the format. A table
// whose file.format Java changes to parquet keeps its avro files: lakesql
// reads the mix, writes Parquet on top, and refuses to compact while avro
// files remain.
func init() {
	cases = append(cases,
		tableCase{
			// every type Paimon maps to Avro, nested ones too, written by
			// both Java versions across a schema change. (Empty maps are
			// left out: the comparison cannot tell a reader's empty map
			// from an empty array.)
			name: "javawrites_avro_types",
			create: javaCreate("1.4.2", `{"columns": [{"name": "id", "type": "INT NOT NULL"},
  {"name": "b", "type": "BOOLEAN"}, {"name": "i8", "type": "TINYINT"}, {"name": "i16", "type": "SMALLINT"},
  {"name": "i32", "type": "INT"}, {"name": "i64", "type": "BIGINT"}, {"name": "f", "type": "FLOAT"}, {"name": "d", "type": "DOUBLE"},
  {"name": "d52", "type": "DECIMAL(5,2)"}, {"name": "d3818", "type": "DECIMAL(38,18)"},
  {"name": "c", "type": "CHAR(5)"}, {"name": "s", "type": "STRING"}, {"name": "bn", "type": "BINARY(4)"}, {"name": "bl", "type": "BYTES"},
  {"name": "dt", "type": "DATE"}, {"name": "tm", "type": "TIME(3)"},
  {"name": "ts0", "type": "TIMESTAMP(0)"}, {"name": "ts3", "type": "TIMESTAMP(3)"}, {"name": "ts6", "type": "TIMESTAMP(6)"},
  {"name": "lt3", "type": "TIMESTAMP(3) WITH LOCAL TIME ZONE"}, {"name": "lt6", "type": "TIMESTAMP(6) WITH LOCAL TIME ZONE"},
  {"name": "ai", "type": {"type": "ARRAY", "element": "INT"}},
  {"name": "ms", "type": {"type": "MAP", "key": "STRING NOT NULL", "value": "DECIMAL(5,2)"}},
  {"name": "mi", "type": {"type": "MAP", "key": "INT NOT NULL", "value": "STRING"}},
  {"name": "r", "type": {"type": "ROW", "fields": [{"name": "x", "type": "INT"}, {"name": "y", "type": {"type": "ARRAY", "element": "STRING"}}]}}],
 "primaryKeys": [], "options": {"bucket": "-1", "file.format": "avro"},
 "commits": [{"rows": [{"id": 1, "b": true, "i8": -128, "i16": 32767, "i32": -2147483648, "i64": 9223372036854775807,
   "f": 1.5, "d": -1.7976931348623157e308, "d52": "-999.99", "d3818": "12345678901234567890.123456789012345678",
   "c": "ab", "s": "ünïcødé", "bn": "AQIDBA==", "bl": "", "dt": "0001-01-01", "tm": "23:59:59.999",
   "ts0": "1969-12-31 23:59:59", "ts3": "1969-12-31 23:59:59.999", "ts6": "1900-01-01 00:00:00.000001",
   "lt3": "2038-01-19 03:14:07.999", "lt6": "9999-12-31 23:59:59.999999",
   "ai": [1, null], "ms": [{"key": "k", "value": "1.25"}, {"key": "n", "value": null}], "mi": [{"key": 7, "value": "seven"}, {"key": -1, "value": null}],
   "r": {"x": 1, "y": ["p", null]}},
  {"id": 2}]}]}`),
			steps: []string{
				javaCommits("1.3.1", `[{"rows": [{"id": 3, "b": false, "i8": 127, "i16": -32768, "i32": 0, "i64": -1, "f": "NaN", "d": "Infinity",
  "d52": "0.01", "d3818": "-0.000000000000000001", "c": "abcde", "s": "", "bn": "/////w==", "bl": "AA==", "dt": "9999-12-31", "tm": "00:00:00",
  "ts0": "9999-12-31 23:59:59", "ts3": "2026-04-16 01:02:03.456", "ts6": "2026-04-16 01:02:03.456789",
  "lt3": "1970-01-01 00:00:00", "lt6": "1969-12-31 23:59:59.999999", "ai": [], "ms": [{"key": "", "value": "0.00"}],
  "mi": [{"key": 0, "value": ""}], "r": {"x": null, "y": []}}]}]`),
				javaAlter("1.3.1", `[{"op": "add", "name": "added", "type": "BIGINT"}, {"op": "rename", "name": "s", "to": "s2"},
  {"op": "retype", "name": "i32", "type": "BIGINT"}, {"op": "retype", "name": "f", "type": "DOUBLE"}, {"op": "drop", "name": "c"}]`),
				javaCommits("1.4.2", `[{"rows": [{"id": 4, "i32": 9000000000, "f": 0.1, "s2": "renamed", "added": 44, "r": {"x": 4, "y": null}}]}]`),
				`INSERT INTO t (id, b, d52, s2, dt, ts6, lt6, added) VALUES (5, true, 1.25, 'lakesql', '2026-01-02', '2026-01-02 03:04:05.123456', '1999-12-31 23:59:59.5', 55)`,
				// UPDATE and DELETE remove rows of Java's avro files by
				// rewriting them as Parquet; row 1's UPDATE writes its
				// nested values back from the JSON it read.
				`UPDATE t SET s2 = 'lakesql updated' WHERE id = 2`,
				`UPDATE t SET s2 = 'lakesql updated' WHERE id = 1`,
				`DELETE FROM t WHERE id = 3 OR s2 = 'renamed'`,
				`CALL sys.compact('t')`,
				javaRun("1.4.2", "compact"),
				javaCommits("1.3.1", `[{"rows": [{"id": 6, "s2": "java after lakesql"}]}]`),
			},
		},
		tableCase{
			// a partitioned primary-key table: Java's updates, deletes and
			// compaction; then Java switches the table to parquet, lakesql
			// writes Parquet over the avro files, and its compactions,
			// inline and called, read them and rewrite them as Parquet.
			name: "javawrites_avro_pk_to_parquet",
			create: javaCreate("1.4.2", `{"columns": [{"name": "dt", "type": "STRING NOT NULL"}, {"name": "id", "type": "INT NOT NULL"},
  {"name": "v", "type": "STRING"}, {"name": "amount", "type": "DECIMAL(12,2)"}],
 "primaryKeys": ["dt", "id"], "partitionKeys": ["dt"], "options": {"bucket": "2", "file.format": "avro"},
 "commits": [{"rows": [{"dt": "d1", "id": 1, "v": "a", "amount": "1.00"}, {"dt": "d1", "id": 2, "v": "b", "amount": "2.00"},
   {"dt": "d1", "id": 3, "v": "c", "amount": null}, {"dt": "d2", "id": 1, "v": "x", "amount": "9.99"}]}]}`),
			steps: []string{
				javaRun("1.4.2", "compact"),
				javaCommits("1.3.1", `[{"rows": [{"dt": "d1", "id": 2, "v": "b2", "amount": "2.50"}, {"dt": "d1", "id": 3, "v": null, "amount": null}], "kinds": ["+U", "-D"]}]`),
				javaTag("1.4.2", "avro-only"),
				// lakesql's upserts into the avro table: Parquet files whose
				// keys the write-write check reads beside Java's avro ones.
				`UPDATE t SET v = 'lakesql' WHERE id = 1`,
				`INSERT INTO t VALUES ('d1', 9, 'lakesql-avro', 9.00)`,
				javaRun("1.3.1", "compact"),
				javaAlter("1.4.2", `[{"op": "set", "key": "file.format", "value": "parquet"}, {"op": "add", "name": "note", "type": "STRING"}]`),
				`INSERT INTO t VALUES ('d1', 4, 'lakesql', 4.00, 'parquet'), ('d2', 1, 'x-lakesql', 10.00, NULL)`,
				`UPDATE t SET v = 'upd' WHERE dt = 'd1' AND id = 1`,
				// enough level-0 runs that lakesql's inline compaction picks
				// the avro files too.
				`UPDATE t SET amount = amount + 1 WHERE dt = 'd1'`,
				`UPDATE t SET amount = amount + 1 WHERE dt = 'd1'`,
				`UPDATE t SET amount = amount + 1 WHERE dt = 'd1'`,
				`UPDATE t SET amount = amount + 1 WHERE dt = 'd1'`,
				`CALL sys.compact('t')`,
				javaCommits("1.4.2", `[{"rows": [{"dt": "d1", "id": 5, "v": "java-parquet", "amount": "5.00", "note": "n"}]}]`),
				javaRun("1.4.2", "compact"),
				`CALL sys.compact('t')`,
				`DELETE FROM t WHERE dt = 'd1' AND id = 2`,
			},
		},
		tableCase{
			// deletion vectors: Java's compactions mark rows of avro files
			// deleted by their record position.
			name: "javawrites_avro_dv",
			create: javaCreate("1.4.2", `{"columns": [{"name": "id", "type": "INT NOT NULL"}, {"name": "v", "type": "STRING"}],
 "primaryKeys": ["id"], "options": {"bucket": "1", "file.format": "avro", "deletion-vectors.enabled": "true"},
 "commits": [{"rows": [{"id": 1, "v": "a"}, {"id": 2, "v": "b"}, {"id": 3, "v": "c"}, {"id": 4, "v": "d"}, {"id": 5, "v": "e"}]}]}`),
			steps: []string{
				javaRun("1.4.2", "compact"),
				javaCommits("1.3.1", `[{"rows": [{"id": 2, "v": "b2"}, {"id": 4, "v": "d"}], "kinds": ["+U", "-D"]}, {"rows": [{"id": 6, "v": "f"}]}]`),
				javaCommits("1.4.2", `[{"rows": [{"id": 1, "v": null}, {"id": 7, "v": "g"}]}]`),
				// lakesql's lookup compaction marks rows of Java's avro
				// files by their record position.
				`UPDATE t SET v = 'lakesql' WHERE id IN (3, 5)`,
				`DELETE FROM t WHERE id = 6`,
				javaCommits("1.3.1", `[{"rows": [{"id": 5, "v": "java"}, {"id": 8, "v": "h"}]}]`),
				expect("SELECT GROUP_CONCAT(CONCAT_WS(':', id, v) ORDER BY id) FROM t", "1,2:b2,3:lakesql,5:java,7:g,8:h"),
			},
		},
		tableCase{
			// thin mode: primary-key files without _KEY_ fields.
			name: "javawrites_avro_thin",
			create: javaCreate("1.4.2", `{"columns": [{"name": "id", "type": "BIGINT NOT NULL"}, {"name": "k", "type": "STRING NOT NULL"}, {"name": "v", "type": "STRING"}],
 "primaryKeys": ["id", "k"], "options": {"bucket": "1", "file.format": "avro", "data-file.thin-mode": "true"},
 "commits": [{"rows": [{"id": 1, "k": "a", "v": "one"}, {"id": 2, "k": "b", "v": "two"}]}]}`),
			steps: []string{
				javaCommits("1.3.1", `[{"rows": [{"id": 1, "k": "a", "v": "uno"}, {"id": 2, "k": "b", "v": null}], "kinds": ["+I", "-D"]}]`),
				javaRun("1.4.2", "compact"),
				`BEGIN`, `UPDATE t SET v = 'lakesql' WHERE id = 1`, `INSERT INTO t VALUES (3, 'c', 'three')`, `COMMIT`,
				javaCommits("1.4.2", `[{"rows": [{"id": 3, "k": "c", "v": "java"}]}]`),
				javaRun("1.3.1", "compact"),
				`INSERT INTO t VALUES (4, 'd', 'four')`,
				`CALL sys.compact('t')`,
				javaCommits("1.4.2", `[{"rows": [{"id": 4, "k": "d", "v": "java"}]}]`),
			},
		},
	)
}
