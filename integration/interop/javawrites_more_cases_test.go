//go:build interop

package interop

import (
	"fmt"
	"strings"
)

// More tables Java writes (issue 14, part 2): manifest and data-file
// encodings Java can choose, statistics modes, several pages and row
// groups, 64-bit deletion vectors, tags whose snapshots Java expired.
func init() {
	cases = append(cases,
		tableCase{
			// strings longer than the truncate(4) statistics, a column
			// without statistics and one with full ones: the filters
			// subtests compare lakesql's pruned reads with Java's.
			name: "javawrites_stats_modes",
			create: javaCreate("1.4.2", `{"columns": [{"name": "id", "type": "INT NOT NULL"}, {"name": "s", "type": "STRING"},
  {"name": "n", "type": "BIGINT"}, {"name": "full", "type": "STRING"}],
 "primaryKeys": ["id"], "options": {"bucket": "1", "metadata.stats-mode": "truncate(4)",
  "fields.n.stats-mode": "none", "fields.full.stats-mode": "full"},
 "commits": [{"rows": [{"id": 1, "s": "abcdefgh", "n": 10, "full": "abcdefgh"}, {"id": 2, "s": "abcdzzzz", "n": 20, "full": "abcdzzzz"}]},
  {"rows": [{"id": 3, "s": "abce", "n": 30, "full": "abce"}, {"id": 4, "s": "ab", "n": null, "full": "ab"}]},
  {"rows": [{"id": 5, "s": "\uffff\uffffxyz", "n": 50, "full": "\uffff\uffffxyz"}, {"id": 6, "s": null, "n": 60, "full": null}]}]}`),
			steps: []string{
				expect(`SELECT COUNT(*) FROM t WHERE s = 'abcdzzzz'`, "1"),
				expect(`SELECT COUNT(*) FROM t WHERE s > 'abcdefgh'`, "3"),
				expect(`SELECT COUNT(*) FROM t WHERE n > 25`, "3"),
				`INSERT INTO t VALUES (7, 'abcdefgi', 70, 'abcdefgi')`,
				`CALL sys.compact('t')`,
			},
		},
		tableCase{
			// 64-bit deletion vectors (Java 1.4.2 only).
			name: "javawrites_dv_bitmap64",
			create: javaCreate("1.4.2", `{"columns": [{"name": "id", "type": "INT NOT NULL"}, {"name": "v", "type": "STRING"}],
 "primaryKeys": ["id"], "options": {"bucket": "1", "deletion-vectors.enabled": "true", "deletion-vectors.bitmap64": "true"},
 "commits": [{"rows": [{"id": 1, "v": "a"}, {"id": 2, "v": "b"}, {"id": 3, "v": "c"}]},
  {"rows": [{"id": 2, "v": "b2"}, {"id": 3, "v": "c"}], "kinds": ["+U", "-D"]}]}`),
			steps: []string{
				javaCommits("1.4.2", `[{"rows": [{"id": 1, "v": "a2"}, {"id": 4, "v": "d"}]}]`),
				// lakesql's compaction extends Java's 64-bit vectors.
				`INSERT INTO t VALUES (5, 'lakesql'), (1, 'lakesql')`,
				`DELETE FROM t WHERE id = 4`,
				javaCommits("1.4.2", `[{"rows": [{"id": 5, "v": "java"}]}]`),
			},
			known: []known{{finding: "F14", reader: "pypaimon-", message: "Invalid magic number"}},
		},
		tableCase{
			// tags Java made, then Java expires their snapshots: lakesql
			// reads the tags from the tag files alone.
			name: "javawrites_tags_expired",
			create: javaCreate("1.4.2", `{"columns": [{"name": "id", "type": "INT NOT NULL"}, {"name": "v", "type": "STRING"}],
 "primaryKeys": ["id"], "partitionKeys": [], "options": {"bucket": "2"},
 "commits": [{"rows": [{"id": 1, "v": "a"}]}, {"rows": [{"id": 2, "v": "b"}]}]}`),
			steps: []string{
				javaRun("1.4.2", "tag", "--name", "first", "--snapshot", "1"),
				javaTag("1.3.1", "second"),
				javaCommits("1.3.1", `[{"rows": [{"id": 1, "v": "a2"}]}, {"rows": [{"id": 3, "v": "c"}]}]`),
				javaRun("1.4.2", "compact"),
				javaRun("1.4.2", "expire", "--retain", "1"),
				expect("SELECT COUNT(*) FROM t FOR VERSION AS OF 'first'", "1"),
				`INSERT INTO t VALUES (4, 'lakesql')`,
				`CALL sys.create_tag('t', 'lakesql-tag')`,
				javaCommits("1.4.2", `[{"rows": [{"id": 4, "v": "java"}]}]`),
			},
		},
		tableCase{
			// an aggregation table whose other columns take
			// fields.default-aggregate-function.
			name: "javawrites_agg_default_function",
			create: javaCreate("1.3.1", `{"columns": [{"name": "id", "type": "INT NOT NULL"}, {"name": "a", "type": "BIGINT"},
  {"name": "b", "type": "DOUBLE"}, {"name": "s", "type": "STRING"}],
 "primaryKeys": ["id"], "options": {"bucket": "1", "merge-engine": "aggregation",
  "fields.default-aggregate-function": "sum", "fields.s.aggregate-function": "last_non_null_value"},
 "commits": [{"rows": [{"id": 1, "a": 1, "b": 0.5, "s": "x"}]}, {"rows": [{"id": 1, "a": 2, "b": 0.25, "s": null}]}]}`),
			steps: []string{
				javaCommits("1.4.2", `[{"rows": [{"id": 1, "a": 4, "b": null, "s": "y"}]}]`),
				`INSERT INTO t VALUES (1, 8, 1.0, NULL), (2, 1, 1.0, 'z')`,
				`CALL sys.compact('t')`,
			},
		},
	)
	for _, codec := range []string{"lz4", "gzip", "snappy", "none"} {
		second := "1.3.1"
		if codec == "none" {
			second = "1.4.2" // F15: Java 1.3.1 cannot write file.compression = none
		}
		cases = append(cases, tableCase{
			name: "javawrites_compression_" + codec,
			create: javaCreate("1.4.2", `{"columns": [{"name": "id", "type": "INT NOT NULL"}, {"name": "v", "type": "STRING"}, {"name": "d", "type": "DECIMAL(20,4)"}],
 "primaryKeys": ["id"], "options": {"bucket": "1", "file.compression": "`+codec+`"},
 "commits": [{"rows": [{"id": 1, "v": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "d": "1.0000"}, {"id": 2, "v": null, "d": "-99999999.9999"}]}]}`),
			steps: []string{
				javaCommits(second, `[{"rows": [{"id": 3, "v": "ccc", "d": "3.1415"}]}]`),
				`INSERT INTO t VALUES (4, 'lakesql', 4.0)`,
				`CALL sys.compact('t')`,
			},
		})
	}
	// Several pages and row groups per file, with and without dictionaries.
	for _, dict := range []string{"true", "false"} {
		var rows []string
		for i := 1; i <= 3000; i++ {
			v := "null"
			if i%7 != 0 {
				v = fmt.Sprintf(`"value-%d-%s"`, i%50, strings.Repeat("x", i%13))
			}
			rows = append(rows, fmt.Sprintf(`{"id": %d, "v": %s, "n": %d, "d": %q}`, i, v, i*i, fmt.Sprintf("%d.%02d", i, i%100)))
		}
		cases = append(cases, tableCase{
			name: "javawrites_pages_dict_" + dict,
			create: javaCreate("1.4.2", `{"columns": [{"name": "id", "type": "INT NOT NULL"}, {"name": "v", "type": "STRING"},
  {"name": "n", "type": "BIGINT"}, {"name": "d", "type": "DECIMAL(12,2)"}],
 "primaryKeys": ["id"], "options": {"bucket": "2", "parquet.page.size": "1024", "parquet.block.size": "8192",
  "parquet.enable.dictionary": "`+dict+`", "parquet.page.row.count.limit": "100"},
 "commits": [{"rows": [`+strings.Join(rows[:2000], ",")+`]}]}`),
			steps: []string{
				javaCommits("1.3.1", `[{"rows": [`+strings.Join(rows[2000:], ",")+`]}]`),
				`UPDATE t SET v = 'lakesql' WHERE id % 11 = 0`,
				`DELETE FROM t WHERE id % 13 = 0`,
				`CALL sys.compact('t')`,
			},
		})
	}
}
