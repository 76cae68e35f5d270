//go:build interop

package interop

import (
	"fmt"
	"strings"
)

// rbm64, merge_map_with_keytime and nested_partial_update, and collect
// (distinct) and merge_map over DECIMAL, TIMESTAMP, TIME and BYTES, written
// by Java over several commits (retractions, a Java compaction), read at
// every snapshot, then merged by lakesql's writes and compactions and read
// back by Java.
func init() {
	cases = append(cases,
		tableCase{
			// rbm64: Java's Roaring64Bitmaps (several high keys, a run, an
			// ART of 20 keys) unioned byte for byte; -U is ignored on b
			// (fields.b.ignore-retract), subtracted on s.
			name: "javawrites_agg_rbm64",
			create: javaCreate("1.4.2", `{"columns": [{"name": "id", "type": "INT NOT NULL"}, {"name": "s", "type": "INT"}, {"name": "b", "type": "BYTES"}],
 "primaryKeys": ["id"], "options": {"bucket": "1", "merge-engine": "aggregation", "fields.s.aggregate-function": "sum",
  "fields.b.aggregate-function": "rbm64", "fields.b.ignore-retract": "true"},
 "commits": [{"rows": [{"id": 1, "s": 1, "b": "AQIAAAAAAAAAAAIAAgAAAAABAAQAAAAAAAAAAAAAAAAAAAAAAAQAAAAAAAEAAAABAAAAAAAAAAEAAAD+AgAAAAECAgAAAAEABQABAgEAAAAAAAIAAAAAAAAAAAAAAAEAAAA="}]},
   {"rows": [{"id": 1, "s": 2, "b": "AQQAAAAAAAAAAAIAAAAA/wAAAgABAAAAAQAAAgACAAAAAAEABAAAAAAAAAAAAAAAAAAAAAAABAAAAAAAAAAAAQEAAAAAAAAABAAAAAAAAQAAAAIAAAAAAAAABAAAAP///////wMAAAAAAAAAAQAAAP4EAAAAAQIBAAAAAwABAgEAAABwEQECAQAAAAIAAQIBAAAA//8EAAAAAAAAAAAAAAADAAAA"}, {"id": 2, "s": 1, "b": "ARQAAAAAAAAAAhQABQAAAAAABwYFBAMCAQAPDg0MCwoJCP////8TEhEQ/////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////wQAAAAAAAAAAAAAAAAAAAAAAAQAAAAAAAAAAAEBAAAAAAAAAAQAAAAAAAAAAAICAAAAAAAAAAQAAAAAAAAAAAMDAAAAAAAAAAQAAAAAAAAAAAQEAAAAAAAAAAQAAAAAAAAAAAUFAAAAAAAAAAQAAAAAAAAAAAYGAAAAAAAAAAQAAAAAAAAAAAcHAAAAAAAAAAQAAAAAAAAAAAgIAAAAAAAAAAQAAAAAAAAAAAkJAAAAAAAAAAQAAAAAAAAAAAoKAAAAAAAAAAQAAAAAAAAAAAsLAAAAAAAAAAQAAAAAAAAAAAwMAAAAAAAAAAQAAAAAAAAAAA0NAAAAAAAAAAQAAAAAAAAAAA4OAAAAAAAAAAQAAAAAAAAAAA8PAAAAAAAAAAQAAAAAAAAAABAQAAAAAAAAAAQAAAAAAAAAABERAAAAAAAAAAQAAAAAAAAAABISAAAAAAAAAAQAAAAAAAAAABMTAAAAAAAAAAEAAAD+HAAAAAECAQAAAAcAAQIBAAAABwABAgEAAAAHAAECAQAAAAcAAQIBAAAABwABAgEAAAAHAAECAQAAAAcAAQIBAAAABwABAgEAAAAHAAECAQAAAAcAAQIBAAAABwABAgEAAAAHAAECAQAAAAcAAQIBAAAABwABAgEAAAAHAAECAQAAAAcAAQIBAAAABwABAgEAAAAHAAECAQAAAAcAAQIBAAAABwAAAAAAAAAAABQAAAAAAAAAAAAAABMAAAA="}]}]}`),
			steps: []string{
				javaCommits("1.3.1", `[{"rows": [{"id": 2, "s": 5, "b": "AQEAAAAAAAAABAAAAAAAAAAAAAAAAAAAAAAAAQAAAP4BAAAAAQBUCwAAAQBkAFMLAQAAAAAAAAAAAAAAAAAAAA=="}, {"id": 3, "s": 1, "b": "AQYAAAAAAAAAAQYABAAAAAIAAAUEAwIBAAAAAAAAAAAABAAAAAAAAAIAAAAAAAAAAAAABAAAAAAAAAIBAAEAAAAAAAAABAAAAAAAAAICAAIAAAAAAAAABAAAAAAAAAIDAAMAAAAAAAAABAAAAAAAAAIEAAQAAAAAAAAABAAAAAAAAAIFAAUAAAAAAAAAAQAAAP4GAAAAAQIBAAAAAAABAgEAAAAAAAECAQAAAAAAAQIBAAAAAAABAgEAAAAAAAECAQAAAAAABgAAAAAAAAAAAAAABQAAAA=="}, {"id": 1, "s": 1, "b": "AQEAAAAAAAAABAAAAAAAAAAAAAAAAAAAAAAAAQAAAP4BAAAAAQBUCwAAAQBkAFMLAQAAAAAAAAAAAAAAAAAAAA=="}], "kinds": ["+I", "+I", "-U"]}]`),
				javaRun("1.4.2", "compact"),
				`INSERT INTO t VALUES (3, 1, x'0102000000000000000002000200000000020004000000000000000000000000000000000004000000000002000000010000000000000001000000fe020000000102010000000700010201000000000002000000000000000000000001000000'), (1, 1, x'0102000000000000000002000500000000000000050004000000000000000000000000000000000004000000000000000005010000000000000001000000fe020000000102010000006300010201000000000002000000000000000000000001000000'), (4, 1, NULL)`,
				`UPDATE t SET s = s + 10 WHERE id = 2`,
				`DELETE FROM t WHERE id = 4`,
				`CALL sys.compact('t')`,
				javaCommits("1.4.2", `[{"rows": [{"id": 4, "s": 1, "b": "AQIAAAAAAAAAAAIAAgAAAAABAAQAAAAAAAAAAAAAAAAAAAAAAAQAAAAAAAEAAAABAAAAAAAAAAEAAAD+AgAAAAECAgAAAAEABQABAgEAAAAAAAIAAAAAAAAAAAAAAAEAAAA="}, {"id": 3, "s": 1, "b": "AQQAAAAAAAAAAAIAAAAA/wAAAgABAAAAAQAAAgACAAAAAAEABAAAAAAAAAAAAAAAAAAAAAAABAAAAAAAAAAAAQEAAAAAAAAABAAAAAAAAQAAAAIAAAAAAAAABAAAAP///////wMAAAAAAAAAAQAAAP4EAAAAAQIBAAAAAwABAgEAAABwEQECAQAAAAIAAQIBAAAA//8EAAAAAAAAAAAAAAADAAAA"}]}]`),
				`CALL sys.compact('t')`,
			},
			known: []known{{finding: "F26", reader: "pypaimon-", message: "does not yet implement: fields.b.aggregate-function, fields.b.ignore-retract"}},
		},
	)
}

// merge_map_with_keytime (a named and a default timestamp field, entries
// removed by null values, older timestamps ignored) and
// nested_partial_update (rows merged field by field per nested key) with
// Java 1.4.2, which introduced them, then lakesql's writes and compactions.
// Neither aggregator retracts: javawrites_agg_keytime_nested_retract sets
// ignore-retract and sends -U and -D.
func init() {
	columns := `{"name": "id", "type": "INT NOT NULL"}, {"name": "s", "type": "INT"},
  {"name": "m", "type": {"type": "MAP", "key": "STRING NOT NULL", "value": {"type": "ROW", "fields": [{"name": "ts", "type": "STRING"}, {"name": "v", "type": "STRING"}]}}},
  {"name": "k", "type": {"type": "MAP", "key": "INT NOT NULL", "value": {"type": "ROW", "fields": [{"name": "v", "type": "STRING"}, {"name": "t", "type": "STRING"}]}}},
  {"name": "n", "type": {"type": "ARRAY", "element": {"type": "ROW", "fields": [{"name": "k", "type": "INT"}, {"name": "a", "type": "STRING"}, {"name": "b", "type": "INT"}]}}}`
	options := `"bucket": "1", "merge-engine": "aggregation", "fields.s.aggregate-function": "sum",
  "fields.m.aggregate-function": "merge_map_with_keytime", "fields.m.ts-field": "ts",
  "fields.k.aggregate-function": "merge_map_with_keytime",
  "fields.n.aggregate-function": "nested_partial_update", "fields.n.nested-key": "k"`
	commits := `[{"rows": [{"id": 1, "s": 1,
    "m": [{"key": "product_name", "value": {"ts": "100", "v": "iPhone"}}, {"key": "color", "value": {"ts": "100", "v": "Black"}}],
    "k": [{"key": 1, "value": {"v": "a", "t": "5"}}, {"key": 17, "value": {"v": "b", "t": "5"}}],
    "n": [{"k": 1, "a": "a", "b": null}, {"k": 17, "a": "b", "b": 2}]}]},
  {"rows": [{"id": 1, "s": 2,
    "m": [{"key": "product_name", "value": {"ts": "200", "v": "iPad"}}, {"key": "price", "value": {"ts": "200", "v": "999"}}, {"key": "color", "value": {"ts": "50", "v": "White"}}],
    "k": [{"key": 1, "value": {"v": "x", "t": null}}, {"key": 17, "value": null}, {"key": 33, "value": {"v": "c", "t": "1"}}],
    "n": [{"k": 1, "a": null, "b": 5}, {"k": 2, "a": "c", "b": null}, null, {"k": 17, "a": "z", "b": null}]},
   {"id": 2, "s": 1, "m": [{"key": "a", "value": {"ts": "1", "v": "x"}}], "k": null, "n": [{"k": null, "a": "nk", "b": 3}]}]}]`
	more := `[{"rows": [{"id": 2, "s": 5,
    "m": [{"key": "a", "value": {"ts": "0", "v": "older"}}, {"key": "b", "value": {"ts": "9", "v": "new"}}],
    "k": [{"key": 5, "value": {"v": "e", "t": "9"}}], "n": [{"k": null, "a": null, "b": 4}, {"k": 7, "a": "q", "b": 7}]},
   {"id": 1, "s": 1, "m": [{"key": "color", "value": {"ts": "300", "v": "Red"}}, {"key": "price", "value": null}],
    "k": [{"key": 49, "value": {"v": "d", "t": "2"}}], "n": [{"k": 33, "a": "d", "b": null}, {"k": 2, "a": null, "b": 8}]}]}]`
	java131 := known{finding: "F27", reader: "java-1.3.1", message: "merge_map_with_keytime"}
	cases = append(cases,
		tableCase{
			name: "javawrites_agg_keytime_nested",
			create: javaCreate("1.4.2", `{"columns": [`+columns+`], "primaryKeys": ["id"], "options": {`+options+`},
 "commits": `+commits+`}`),
			steps: []string{
				javaCommits("1.4.2", more),
				javaRun("1.4.2", "compact"),
				`INSERT INTO t (id, s) VALUES (3, 1), (1, 1)`,
				`UPDATE t SET s = s + 10 WHERE id = 1`,
				`CALL sys.compact('t')`,
				javaCommits("1.4.2", `[{"rows": [{"id": 3, "s": 1, "m": [{"key": "z", "value": {"ts": "1", "v": "zz"}}], "k": null, "n": [{"k": 3, "a": "c", "b": 3}]}]}]`),
				`CALL sys.compact('t')`,
			},
			known: []known{java131, {finding: "F26", reader: "pypaimon-", message: "ArrowTypeError: Could not convert"}},
		},
		tableCase{
			name: "javawrites_agg_keytime_nested_retract",
			create: javaCreate("1.4.2", `{"columns": [`+columns+`], "primaryKeys": ["id"], "options": {`+options+`,
  "fields.m.ignore-retract": "true", "fields.k.ignore-retract": "true", "fields.n.ignore-retract": "true"},
 "commits": `+commits+`}`),
			steps: []string{
				javaCommits("1.4.2", `[{"rows": [{"id": 2, "s": 1, "m": null, "k": null, "n": null},
   {"id": 1, "s": 1, "m": [{"key": "color", "value": {"ts": "900", "v": "gone"}}], "k": null, "n": [{"k": 1, "a": "gone", "b": 0}]}], "kinds": ["-D", "-U"]}]`),
				javaRun("1.4.2", "compact"),
				`INSERT INTO t (id, s) VALUES (3, 1), (1, 1)`,
				`UPDATE t SET s = s + 10 WHERE id = 1`,
				`DELETE FROM t WHERE id = 3`,
				`CALL sys.compact('t')`,
				javaCommits("1.4.2", more),
				`CALL sys.compact('t')`,
			},
			known: []known{java131, {finding: "F26", reader: "pypaimon-", message: "does not yet implement: fields.k.ignore-retract"}},
		},
	)
}

// collect with fields.<f>.distinct and merge_map over DECIMAL (compact and
// not), TIMESTAMP and TIME: Java's HashSet and HashMap orders follow the
// hash codes of Paimon's Decimal and Timestamp objects, which lakesql
// reproduces. -U retracts elements and keys. (BYTES elements are unit
// tested only: lakesql's JSON of a nested BYTES value is not the readers'
// base64.)
func init() {
	dec := func(n int, scale string) string {
		var vs []string
		for i := range n {
			vs = append(vs, fmt.Sprintf(`"%d.%s"`, (i*7919)%1000-500, scale))
		}
		return "[" + strings.Join(vs, ", ") + "]"
	}
	cases = append(cases, tableCase{
		name: "javawrites_agg_collect_java_hashes",
		create: javaCreate("1.4.2", `{"columns": [{"name": "id", "type": "INT NOT NULL"}, {"name": "s", "type": "INT"},
  {"name": "cd", "type": {"type": "ARRAY", "element": "DECIMAL(10, 2)"}},
  {"name": "cb", "type": {"type": "ARRAY", "element": "DECIMAL(38, 4)"}},
  {"name": "ct", "type": {"type": "ARRAY", "element": "TIMESTAMP(6)"}},
  {"name": "cm", "type": {"type": "ARRAY", "element": "TIME(3)"}},
  {"name": "md", "type": {"type": "MAP", "key": "DECIMAL(38, 4) NOT NULL", "value": "INT"}},
  {"name": "mt", "type": {"type": "MAP", "key": "TIMESTAMP(3) NOT NULL", "value": "STRING"}}],
 "primaryKeys": ["id"], "options": {"bucket": "1", "merge-engine": "aggregation", "fields.s.aggregate-function": "sum",
  "fields.cd.aggregate-function": "collect", "fields.cd.distinct": "true",
  "fields.cb.aggregate-function": "collect", "fields.cb.distinct": "true",
  "fields.ct.aggregate-function": "collect", "fields.ct.distinct": "true",
  "fields.cm.aggregate-function": "collect", "fields.cm.distinct": "true",
  "fields.md.aggregate-function": "merge_map", "fields.mt.aggregate-function": "merge_map"},
 "commits": [{"rows": [{"id": 1, "s": 1, "cd": `+dec(14, "25")+`, "cb": ["123456789012345678901234.5678", "-1.0000", "0.0001"],
    "ct": ["2026-01-01 00:00:00.000001", "1969-12-31 23:59:59.999999", "2026-01-01 00:00:00.000001"],
    "cm": ["00:00:00.001", "23:59:59.999", "12:00:00.000"],
    "md": [{"key": "99999999999999999999999.9999", "value": 1}, {"key": "0.5000", "value": 2}],
    "mt": [{"key": "2026-05-01 10:00:00.123", "value": "a"}, {"key": "1970-01-01 00:00:00.000", "value": "epoch"}]}]},
  {"rows": [{"id": 1, "s": 2, "cd": `+dec(20, "75")+`, "cb": ["-1.0000", "98765432109876543210.0001"],
    "ct": ["2030-06-01 12:34:56.789012", "1969-12-31 23:59:59.999999"],
    "cm": ["12:00:00.000", "06:30:00.500"],
    "md": [{"key": "0.5000", "value": 20}, {"key": "-7.2500", "value": 3}],
    "mt": [{"key": "2026-05-01 10:00:00.123", "value": "b"}, {"key": "2000-02-29 23:59:59.999", "value": "leap"}]}]}]}`),
		steps: []string{
			javaCommits("1.3.1", `[{"rows": [{"id": 2, "s": 5, "cd": `+dec(30, "50")+`, "cb": null, "ct": null, "cm": null, "md": null, "mt": null},
   {"id": 1, "s": 1, "cd": ["-500.25"], "cb": ["-1.0000"], "ct": ["1969-12-31 23:59:59.999999"], "cm": ["12:00:00.000"],
    "md": [{"key": "0.5000", "value": 0}], "mt": [{"key": "1970-01-01 00:00:00.000", "value": null}]}],
  "kinds": ["+I", "-U"]}]`),
			javaRun("1.4.2", "compact"),
			`INSERT INTO t (id, s) VALUES (3, 1), (1, 1)`,
			`UPDATE t SET s = s + 10 WHERE id = 2`,
			`CALL sys.compact('t')`,
			javaCommits("1.4.2", `[{"rows": [{"id": 3, "s": 1, "cd": `+dec(9, "10")+`, "cb": ["7.0000"], "ct": ["2026-01-01 00:00:00.000001"],
    "cm": ["00:00:00.001"], "md": [{"key": "1.0000", "value": 1}], "mt": [{"key": "2026-05-01 10:00:00.123", "value": "c"}]}]}]`),
			`CALL sys.compact('t')`,
		},
		known: []known{aggRetractF26, {finding: "F26", reader: "pypaimon-", message: "first pair differs in c"}},
	})
}

// A table lakesql creates with rbm64: lakesql unions Java's bitmaps on its
// writes and compaction, and both Java versions read the bytes lakesql
// wrote.
func init() {
	cases = append(cases, tableCase{
		name: "pk_agg_rbm64",
		create: `CREATE TABLE t (id INT NOT NULL, s INT, b BLOB, PRIMARY KEY (id))
  COMMENT 'paimon:{"merge-engine":"aggregation","fields.s.aggregate-function":"sum","fields.b.aggregate-function":"rbm64"}'
  PARTITION BY KEY (id) PARTITIONS 1`,
		steps: []string{
			`INSERT INTO t VALUES (1, 1, x'0102000000000000000002000200000000010004000000000000000000000000000000000004000000000001000000010000000000000001000000fe0200000001020200000001000500010201000000000002000000000000000000000001000000'), (2, 1, x'01140000000000000002140005000000000007060504030201000f0e0d0c0b0a0908ffffffff13121110ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff0400000000000000000000000000000000000400000000000000000101000000000000000400000000000000000202000000000000000400000000000000000303000000000000000400000000000000000404000000000000000400000000000000000505000000000000000400000000000000000606000000000000000400000000000000000707000000000000000400000000000000000808000000000000000400000000000000000909000000000000000400000000000000000a0a000000000000000400000000000000000b0b000000000000000400000000000000000c0c000000000000000400000000000000000d0d000000000000000400000000000000000e0e000000000000000400000000000000000f0f0000000000000004000000000000000010100000000000000004000000000000000011110000000000000004000000000000000012120000000000000004000000000000000013130000000000000001000000fe1c00000001020100000007000102010000000700010201000000070001020100000007000102010000000700010201000000070001020100000007000102010000000700010201000000070001020100000007000102010000000700010201000000070001020100000007000102010000000700010201000000070001020100000007000102010000000700010201000000070001020100000007000102010000000700000000000000000014000000000000000000000013000000')`,
			`INSERT INTO t VALUES (1, 1, x'010400000000000000000200000000ff000002000100000001000002000200000000010004000000000000000000000000000000000004000000000000000001010000000000000004000000000001000000020000000000000004000000ffffffffffff030000000000000001000000fe04000000010201000000030001020100000070110102010000000200010201000000ffff04000000000000000000000003000000'), (2, 1, x'01060000000000000001060004000000020000050403020100000000000000000004000000000000020000000000000000000004000000000000020100010000000000000004000000000000020200020000000000000004000000000000020300030000000000000004000000000000020400040000000000000004000000000000020500050000000000000001000000fe0600000001020100000000000102010000000000010201000000000001020100000000000102010000000000010201000000000006000000000000000000000005000000'), (3, 1, x'0102000000000000000002000200000000020004000000000000000000000000000000000004000000000002000000010000000000000001000000fe020000000102010000000700010201000000000002000000000000000000000001000000')`,
			`INSERT INTO t VALUES (1, 1, x'0102000000000000000002000500000000000000050004000000000000000000000000000000000004000000000000000005010000000000000001000000fe020000000102010000006300010201000000000002000000000000000000000001000000')`,
			`CALL sys.compact('t')`,
			`INSERT INTO t VALUES (3, 1, x'0102000000000000000002000200000000010004000000000000000000000000000000000004000000000001000000010000000000000001000000fe0200000001020200000001000500010201000000000002000000000000000000000001000000')`,
		},
		known: []known{{finding: "F26", reader: "pypaimon-", message: "other aggregators (rbm64) are not yet supported"}},
	})
}
