//go:build interop

package interop

// Tables Java creates with Paimon types lakesql's DDL cannot make
// (TIMESTAMP precisions 1-9, TIME(3), CHAR(n) of Java's, nested types),
// which lakesql then writes into: Java must read back what lakesql wrote.
func init() {
	cases = append(cases, javaCreatedCases...)
}

var javaCreatedCases = []tableCase{
	{
		name: "javacreated_precisions",
		create: javaCreate("1.4.2", `{"columns": [
  {"name": "id", "type": "INT NOT NULL"},
  {"name": "ts1", "type": "TIMESTAMP(1)"}, {"name": "ts7", "type": "TIMESTAMP(7)"}, {"name": "ts9", "type": "TIMESTAMP(9)"},
  {"name": "lz1", "type": "TIMESTAMP(1) WITH LOCAL TIME ZONE"}, {"name": "lz9", "type": "TIMESTAMP(9) WITH LOCAL TIME ZONE"},
  {"name": "tm3", "type": "TIME(3)"}, {"name": "s", "type": "STRING"}, {"name": "by", "type": "BYTES"}, {"name": "c10", "type": "CHAR(10)"}],
 "primaryKeys": ["id"], "options": {"bucket": "2"}}`),
		steps: []string{
			`INSERT INTO t VALUES (1, '2026-04-16 01:02:03.1', '2026-04-16 01:02:03.123456', '2026-04-16 01:02:03.123456',
  '2026-04-16 01:02:03.1', '2026-04-16 01:02:03.123456', '01:02:03.456', 'str', x'0102', 'char')`,
			`INSERT INTO t (id) VALUES (2)`,
			`UPDATE t SET s = 'updated' WHERE id = 1`,
			javaCommits("1.4.2", `[{"rows": [{"id": 3, "ts1": "2026-04-16 01:02:03.1", "ts7": "2026-04-16 01:02:03.1234567",
  "ts9": "2026-04-16 01:02:03.123456789", "lz1": "2026-04-16 01:02:03.1", "lz9": "2026-04-16 01:02:03.123456789",
  "tm3": "01:02:03.456", "s": "java", "by": "AQI=", "c10": "java"}]}]`),
			javaExpect("1.4.2", `[{"column": "id", "op": "=", "value": 3}]`, `"ts9":"2026-04-16 01:02:03.123456789"`),
			`UPDATE t SET s = 'lakesql' WHERE id = 3`,
			// F6 (fixed): lakesql's UPDATE keeps the untouched ts9's nanoseconds.
			javaExpect("1.4.2", `[{"column": "id", "op": "=", "value": 3}]`, `"ts9":"2026-04-16 01:02:03.123456789"`),
			// lakesql's compaction rewrites Java's nanoseconds in its own files.
			javaCommits("1.3.1", `[{"rows": [{"id": 4, "ts7": "1969-12-31 23:59:59.9999999", "ts9": "1900-01-01 00:00:00.000000001",
  "lz9": "2037-04-11 23:47:16.854775807", "tm3": "23:59:59.999"}]}]`),
			`CALL sys.compact('t')`,
			javaExpect("1.4.2", `[{"column": "id", "op": "=", "value": 4}]`,
				`"ts7":"1969-12-31 23:59:59.9999999","ts9":"1900-01-01 00:00:00.000000001","lz1":null,"lz9":"2037-04-11 23:47:16.854775807","tm3":"23:59:59.999"`),
			javaExpect("1.3.1", `[{"column": "id", "op": "=", "value": 4}]`, `"ts9":"1900-01-01 00:00:00.000000001"`),
		},
	},
	{
		// Paimon's default for a PK table is bucket = -1, dynamic buckets
		// kept in hash index files, which lakesql refuses to write.
		name: "javacreated_dynamic_bucket",
		create: javaCreate("1.4.2", `{"columns": [{"name": "id", "type": "INT NOT NULL"}, {"name": "v", "type": "STRING"}],
 "primaryKeys": ["id"]}`),
		refused: "lakesql cannot write a dynamic-bucket table (bucket = -1)",
		steps:   []string{`INSERT INTO t VALUES (1, 'a'), (2, 'b')`},
	},
	{
		// F8 (fixed): TIMESTAMP WITH LOCAL TIME ZONE values outside MySQL's
		// TIMESTAMP range (1970-01-01 00:00:01 … 2038-01-19 03:14:07 UTC)
		// read as the DATETIME(3) of their UTC wall clock.
		name: "javacreated_ltz_range",
		create: javaCreate("1.4.2", `{"columns": [{"name": "id", "type": "INT NOT NULL"},
  {"name": "lz", "type": "TIMESTAMP(3) WITH LOCAL TIME ZONE"}], "primaryKeys": ["id"], "options": {"bucket": "1"},
 "commits": [{"rows": [{"id": 1, "lz": "2026-01-01 00:00:00.000"}, {"id": 2, "lz": "9999-12-31 23:59:59.999"},
  {"id": 3, "lz": "1969-07-20 20:17:40.000"}]}]}`),
		steps: []string{
			expect("SELECT COUNT(*) FROM t", "3"),
			expect("SELECT lz FROM t WHERE id = 2", "9999-12-31 23:59:59.999"),
			expect("SELECT lz FROM t WHERE id = 3", "1969-07-20 20:17:40.000"),
			// A DATETIME(3) prints three fraction digits as text, as MySQL
			// and MariaDB 10.11 do (before textOfTemporals GMS dropped them).
			expect("SELECT CAST(lz AS CHAR) FROM t WHERE id = 1", "2026-01-01 00:00:00.000"),
		},
	},
	{
		name: "javacreated_nested",
		create: javaCreate("1.4.2", `{"columns": [
  {"name": "id", "type": "INT NOT NULL"}, {"name": "v", "type": "STRING"},
  {"name": "arr", "type": {"type": "ARRAY", "element": "INT"}},
  {"name": "m", "type": {"type": "MAP", "key": "STRING NOT NULL", "value": "BIGINT"}},
  {"name": "r", "type": {"type": "ROW", "fields": [{"name": "x", "type": "INT"}, {"name": "y", "type": "STRING"}]}}],
 "primaryKeys": ["id"], "options": {"bucket": "1"},
 "commits": [{"rows": [{"id": 1, "v": "java", "arr": [1, null, 3], "m": [{"key": "k", "value": 5}], "r": {"x": 1, "y": "z"}}]}]}`),
		steps: []string{
			`INSERT INTO t (id, v) VALUES (2, 'lakesql')`,
			`DELETE FROM t WHERE id = 2`,
			// F7 (fixed): an UPDATE of other columns keeps the nested values;
			// nested columns are written from the JSON a SELECT shows.
			`UPDATE t SET v = 'updated' WHERE id = 1`,
			expect("SELECT v FROM t WHERE id = 1", "updated"),
			`UPDATE t SET arr = '[9, null]', m = '{"k2": 7, "k1": null}', r = '{"x": 2, "y": "w"}' WHERE id = 1`,
			`INSERT INTO t VALUES (3, 'lakesql', '[]', '{}', '{"x": null, "y": null}')`,
			expect("SELECT CONCAT(JSON_EXTRACT(arr, '$[0]'), JSON_EXTRACT(m, '$.k2'), JSON_EXTRACT(r, '$.y')) FROM t WHERE id = 1", `97"w"`),
			expectError(`UPDATE t SET arr = '[1.5]' WHERE id = 1`, "column arr"),
		},
	},
}
