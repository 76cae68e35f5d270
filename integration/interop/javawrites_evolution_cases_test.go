//go:build interop

package interop

// Row-tracking and data-evolution append tables, and tables with global
// indexes, written by Java (issue 14, part 2): lakesql reads them (it
// ignores the global indexes) and refuses to write them.
//
// A data-evolution table's partial writes come from the Java tool's
// "writeColumns" and "firstRowId" (PaimonTool.writeCommit): a
// BatchTableWrite with a write type of some columns, whose new files get
// the first row id of the rows they update, as Paimon's own
// DataEvolutionTableTest writes them (Spark's MERGE INTO and Paimon's
// column backfill make the same files). Each such file covers exactly the
// row ids of one earlier full write: 5 rows at row id 0, 3 at row id 5.

// rowTrackingWriteRefused is lakesql's answer to a write into a
// row-tracking (or data-evolution) table.
const rowTrackingWriteRefused = "row tracking (row-tracking.enabled)"

// rowTrackingCompactRefused is lakesql's answer to CALL sys.compact on
// one.
const rowTrackingCompactRefused = "cannot compact a row-tracking table"

func init() {
	cases = append(cases,
		tableCase{
			// a partitioned row-tracking append table: commits of both
			// Java versions numbering their rows, Java's compaction of
			// each partition's files (which keeps the row ids), a tag,
			// and more commits after it.
			name: "javawrites_row_tracking",
			create: javaCreate("1.4.2", `{"columns": [{"name": "p", "type": "STRING NOT NULL"}, {"name": "id", "type": "BIGINT NOT NULL"},
  {"name": "v", "type": "STRING"}, {"name": "d", "type": "DOUBLE"}, {"name": "amount", "type": "DECIMAL(12,2)"}],
 "primaryKeys": [], "partitionKeys": ["p"],
 "options": {"bucket": "-1", "row-tracking.enabled": "true", "compaction.min.file-num": "2"},
 "commits": [{"rows": [{"p": "x", "id": 1, "v": "a", "d": 1.5, "amount": "1.00"}, {"p": "y", "id": 2, "v": null, "d": null, "amount": "2.00"},
   {"p": "x", "id": 3, "v": "c", "d": -0.25, "amount": null}]},
  {"rows": [{"p": "x", "id": 4, "v": "d", "d": 4.0, "amount": "-4.00"}, {"p": "z", "id": 5, "v": "", "d": 0.0, "amount": "0.00"}]}]}`),
			steps: []string{
				javaCommits("1.3.1", `[{"rows": [{"p": "y", "id": 6, "v": "java-1.3.1", "d": 6.5, "amount": "6.00"}, {"p": "x", "id": 7, "v": null, "d": 7.0, "amount": null}]},
 {"rows": [{"p": "y", "id": 8, "v": "h", "d": -8.0, "amount": "8.88"}]}]`),
				javaRun("1.4.2", "compact-append"),
				javaTag("1.4.2", "compacted"),
				javaCommits("1.4.2", `[{"rows": [{"p": "x", "id": 9, "v": "i", "d": 9.0, "amount": "9.00"}, {"p": "z", "id": 10, "v": null, "d": null, "amount": null}]}]`),
				javaCommits("1.3.1", `[{"rows": [{"p": "x", "id": 11, "v": "k", "d": 11.0, "amount": "11.00"}]}]`),
				javaRun("1.3.1", "compact-append"),
				expect("SELECT COUNT(*) FROM t", "11"),
				expect("SELECT SUM(amount) FROM t WHERE p = 'x'", "17.00"),
				expectError("INSERT INTO t VALUES ('x', 12, 'lakesql', 12.0, 12.00)", rowTrackingWriteRefused),
				expectError("DELETE FROM t WHERE id = 1", rowTrackingWriteRefused),
				expectError("CALL sys.compact('t')", rowTrackingCompactRefused),
			},
			incremental: true,
		},
		tableCase{
			// a data-evolution table: full writes of rows, then writes of
			// some of their columns (by both Java versions, NULLs
			// included, one column written three times), a column added
			// and backfilled, a written column renamed, Java's
			// data-evolution compaction, a column dropped, more rows.
			name: "javawrites_data_evolution",
			create: javaCreate("1.4.2", `{"columns": [{"name": "id", "type": "INT NOT NULL"}, {"name": "name", "type": "STRING"},
  {"name": "score", "type": "BIGINT"}, {"name": "amount", "type": "DECIMAL(10,2)"}, {"name": "ts", "type": "TIMESTAMP(6)"}, {"name": "flag", "type": "BOOLEAN"}],
 "primaryKeys": [],
 "options": {"bucket": "-1", "row-tracking.enabled": "true", "data-evolution.enabled": "true", "compaction.min.file-num": "2"},
 "commits": [{"rows": [{"id": 1, "name": "a", "score": 10, "amount": "1.00", "ts": "2026-01-01 00:00:00.000001", "flag": true},
   {"id": 2, "name": "b", "score": 20, "amount": null, "ts": null, "flag": false},
   {"id": 3, "name": null, "score": 30, "amount": "3.00", "ts": "1969-12-31 23:59:59.999999", "flag": null},
   {"id": 4, "name": "d", "score": 40, "amount": "-4.00", "ts": "2000-02-29 12:00:00", "flag": true},
   {"id": 5, "name": "e", "score": null, "amount": "5.55", "ts": null, "flag": false}]}]}`),
			steps: []string{
				// row ids 0-4: score, then name and amount
				javaCommits("1.4.2", `[{"writeColumns": ["score"], "firstRowId": 0,
  "rows": [{"score": 500}, {"score": null}, {"score": 150}, {"score": -7}, {"score": 9000000000}]}]`),
				javaCommits("1.3.1", `[{"writeColumns": ["name", "amount"], "firstRowId": 0,
  "rows": [{"name": "A", "amount": "9.99"}, {"name": null, "amount": "2.50"}, {"name": "C", "amount": null}, {"name": "d", "amount": "-4.00"}, {"name": "E", "amount": null}]}]`),
				// row ids 5-7: full rows, then flag and ts
				javaCommits("1.3.1", `[{"rows": [{"id": 6, "name": "f", "score": 60, "amount": "6.00", "ts": "2026-06-06 06:06:06.666666", "flag": true},
  {"id": 7, "name": "g", "score": null, "amount": null, "ts": null, "flag": null},
  {"id": 8, "name": "h", "score": 80, "amount": "-0.01", "ts": "1970-01-01 00:00:00", "flag": false}]}]`),
				javaCommits("1.4.2", `[{"writeColumns": ["flag", "ts"], "firstRowId": 5,
  "rows": [{"flag": false, "ts": "1999-12-31 23:59:59.999999"}, {"flag": true, "ts": null}, {"flag": null, "ts": "2026-12-06 00:00:00"}]}]`),
				// score of row ids 0-4 a second time: the newest file wins
				javaCommits("1.4.2", `[{"writeColumns": ["score"], "firstRowId": 0,
  "rows": [{"score": 11}, {"score": 22}, {"score": null}, {"score": 44}, {"score": 55}]}]`),
				javaTag("1.4.2", "partial"),
				expect("SELECT COUNT(*) FROM t", "8"),
				expect("SELECT COUNT(score) FROM t", "6"),
				expect("SELECT SUM(score) FROM t", "272"),
				expect("SELECT MIN(score) FROM t", "11"),
				expect("SELECT MAX(score) FROM t", "80"),
				expect("SELECT SUM(amount) FROM t", "14.48"),
				expect("SELECT GROUP_CONCAT(id ORDER BY id) FROM t WHERE score > 40", "4,5,6,8"),
				// values only a superseded file holds
				expect("SELECT COUNT(*) FROM t WHERE score = 500 OR score = 10 OR score = 9000000000", "0"),
				expect("SELECT COUNT(*) FROM t WHERE name = 'a'", "0"),
				expect("SELECT GROUP_CONCAT(id ORDER BY id) FROM t WHERE name = 'A' OR name = 'C' OR name = 'E'", "1,3,5"),
				expect("SELECT GROUP_CONCAT(id ORDER BY id) FROM t WHERE flag", "1,4,7"),
				expect("SELECT GROUP_CONCAT(id ORDER BY id) FROM t WHERE ts > '2026-06-01'", "8"),
				expect("SELECT GROUP_CONCAT(id ORDER BY id) FROM t WHERE amount IS NULL", "3,5,7"),
				// a column added, then written for the rows already there
				javaAlter("1.4.2", `[{"op": "add", "name": "note", "type": "STRING"}]`),
				javaCommits("1.4.2", `[{"writeColumns": ["note"], "firstRowId": 0,
  "rows": [{"note": "n1"}, {"note": null}, {"note": "n3"}, {"note": "n4"}, {"note": "n5"}]}]`),
				javaCommits("1.3.1", `[{"writeColumns": ["note", "score"], "firstRowId": 5,
  "rows": [{"note": "n6", "score": 600}, {"note": null, "score": 700}, {"note": "n8", "score": null}]}]`),
				// a column partial files wrote, renamed, then written again
				javaAlter("1.3.1", `[{"op": "rename", "name": "score", "to": "points"}]`),
				javaCommits("1.4.2", `[{"writeColumns": ["points"], "firstRowId": 5,
  "rows": [{"points": 6000}, {"points": null}, {"points": 8000}]}]`),
				javaTag("1.4.2", "renamed"),
				expect("SELECT SUM(points) FROM t", "14132"),
				expect("SELECT GROUP_CONCAT(id ORDER BY id) FROM t WHERE points > 1000", "6,8"),
				expect("SELECT GROUP_CONCAT(id ORDER BY id) FROM t WHERE note IS NULL", "2,7"),
				// Java's compaction merges the files of row ids 0-7 into one
				javaRun("1.4.2", "compact-append"),
				expect("SELECT SUM(points) FROM t", "14132"),
				javaCommits("1.3.1", `[{"writeColumns": ["name"], "firstRowId": 0,
  "rows": [{"name": "r0"}, {"name": "r1"}, {"name": null}, {"name": "r3"}, {"name": "r4"}, {"name": "r5"}, {"name": "r6"}, {"name": null}]}]`),
				javaAlter("1.4.2", `[{"op": "drop", "name": "amount"}]`),
				javaCommits("1.3.1", `[{"rows": [{"id": 9, "name": "i", "points": 9, "ts": null, "flag": true, "note": "n9"},
  {"id": 10, "name": null, "points": null, "ts": "2026-12-06 00:00:00.5", "flag": null, "note": null}]}]`),
				javaCommits("1.4.2", `[{"writeColumns": ["note", "flag"], "firstRowId": 8, "rows": [{"note": null, "flag": false}, {"note": "n10", "flag": true}]}]`),
				javaTag("1.4.2", "last"),
				expect("SELECT COUNT(*) FROM t", "10"),
				expect("SELECT SUM(points) FROM t", "14141"),
				expect("SELECT GROUP_CONCAT(id ORDER BY id) FROM t WHERE name IS NULL", "3,8,10"),
				expect("SELECT GROUP_CONCAT(id ORDER BY id) FROM t WHERE flag", "1,4,7,10"),
				expect("SELECT GROUP_CONCAT(note ORDER BY id) FROM t WHERE id >= 8", "n8,n10"),
				expectError("INSERT INTO t (id) VALUES (11)", rowTrackingWriteRefused),
				expectError("UPDATE t SET name = 'x' WHERE id = 1", rowTrackingWriteRefused),
				expectError("CALL sys.compact('t')", rowTrackingCompactRefused),
			},
			known: []known{
				// pypaimon 2.1.0 takes a partial file's column by its
				// current name: after the rename, the score files no
				// longer count for points (F34).
				{finding: "F34", reader: "pypaimon-", point: "snapshot=9", message: "differs in points"},
				{finding: "F34", reader: "pypaimon-", point: "tag=renamed", message: "differs in points"},
				// Java's $files reads a partial file's value stats as if
				// they were the first columns of the table (F36): garbage,
				// or an exception when the bytes do not fit a type.
				{finding: "F36", reader: "java-", point: "tag=$files", message: "differs in max_value_stats (lakesql {"},
				{finding: "F36", reader: "java-", point: "tag=$files", message: "IllegalArgumentException"},
			},
		},
		tableCase{
			// btree global indexes (Java 1.4.2's BTreeGlobalIndexBuilder)
			// of two columns of a partitioned data-evolution table, rows
			// added after them (not indexed), a second index of a column:
			// Java's filtered reads go through the indexes; lakesql skips
			// the row-id groups they refute and reads the rows they do
			// not cover.
			name: "javawrites_global_index",
			create: javaCreate("1.4.2", `{"columns": [{"name": "p", "type": "STRING NOT NULL"}, {"name": "id", "type": "INT NOT NULL"},
  {"name": "tag", "type": "STRING"}, {"name": "n", "type": "BIGINT"}, {"name": "v", "type": "DOUBLE"}],
 "primaryKeys": [], "partitionKeys": ["p"],
 "options": {"bucket": "-1", "row-tracking.enabled": "true", "data-evolution.enabled": "true"},
 "commits": [{"rows": [{"p": "x", "id": 1, "tag": "red", "n": 1, "v": 0.5}, {"p": "y", "id": 2, "tag": "blue", "n": 2, "v": null},
   {"p": "x", "id": 3, "tag": null, "n": null, "v": -1.0}, {"p": "y", "id": 4, "tag": "red", "n": 2, "v": 4.25}]},
  {"rows": [{"p": "x", "id": 5, "tag": "green", "n": 500, "v": 5.0}, {"p": "z", "id": 6, "tag": "pink", "n": -6, "v": 6.0}]}]}`),
			steps: []string{
				javaRun("1.4.2", "global-index", "--column", "tag", "--type", "btree"),
				javaRun("1.4.2", "global-index", "--column", "n", "--type", "btree"),
				javaTag("1.4.2", "indexed"),
				javaCommits("1.3.1", `[{"rows": [{"p": "y", "id": 7, "tag": "red", "n": 7, "v": 7.5}, {"p": "x", "id": 8, "tag": "blue", "n": null, "v": null}]}]`),
				javaCommits("1.4.2", `[{"rows": [{"p": "z", "id": 9, "tag": "red", "n": 2, "v": 9.0}]}]`),
				javaRun("1.4.2", "global-index", "--column", "v", "--type", "btree"),
				// Java's filtered reads return only the rows an index
				// covers (F35): index tag and n again, over every row.
				javaRun("1.4.2", "global-index", "--column", "tag", "--type", "btree"),
				javaRun("1.4.2", "global-index", "--column", "n", "--type", "btree"),
				expect("SELECT GROUP_CONCAT(id ORDER BY id) FROM t WHERE tag = 'red'", "1,4,7,9"),
				expect("SELECT GROUP_CONCAT(id ORDER BY id) FROM t WHERE n = 2", "2,4,9"),
				expect("SELECT COUNT(*) FROM t", "9"),
				expect("SELECT COUNT(*) FROM t WHERE tag = 'nothing'", "0"),
				expect("SELECT GROUP_CONCAT(id ORDER BY id) FROM t WHERE n > 100 OR tag < 'c'", "2,5,8"),
				javaExpect("1.4.2", `[{"column": "tag", "op": "=", "value": "green"}]`, `"id":5`),
				expectError("INSERT INTO t VALUES ('x', 10, 'lakesql', 10, 10.0)", rowTrackingWriteRefused),
			},
		},
		tableCase{
			// a bitmap global index (built as Paimon's
			// DataEvolutionTableTest builds one), which lakesql reads to
			// skip row-id groups, and a btree index of an unpartitioned
			// data-evolution table, whose rows' other columns partial
			// writes then change.
			name: "javawrites_global_index_bitmap",
			create: javaCreate("1.4.2", `{"columns": [{"name": "id", "type": "INT NOT NULL"}, {"name": "kind", "type": "STRING"},
  {"name": "level", "type": "INT"}, {"name": "note", "type": "STRING"}],
 "primaryKeys": [],
 "options": {"bucket": "-1", "row-tracking.enabled": "true", "data-evolution.enabled": "true"},
 "commits": [{"rows": [{"id": 1, "kind": "a", "level": 1, "note": "one"}, {"id": 2, "kind": "b", "level": 2, "note": null},
   {"id": 3, "kind": "a", "level": null, "note": "three"}, {"id": 4, "kind": null, "level": 2, "note": "four"}]},
  {"writeColumns": ["note"], "firstRowId": 0, "rows": [{"note": "uno"}, {"note": "dos"}, {"note": null}, {"note": "cuatro"}]}]}`),
			steps: []string{
				javaRun("1.4.2", "global-index", "--column", "level", "--type", "bitmap"),
				javaRun("1.4.2", "global-index", "--column", "kind", "--type", "btree"),
				javaCommits("1.3.1", `[{"rows": [{"id": 5, "kind": "a", "level": 2, "note": "five"}]}]`),
				javaCommits("1.4.2", `[{"writeColumns": ["note"], "firstRowId": 0, "rows": [{"note": "I"}, {"note": "II"}, {"note": "III"}, {"note": null}]}]`),
				// indexed again, over every row (F35)
				javaRun("1.4.2", "global-index", "--column", "level", "--type", "bitmap"),
				javaRun("1.4.2", "global-index", "--column", "kind", "--type", "btree"),
				expect("SELECT GROUP_CONCAT(id ORDER BY id) FROM t WHERE level = 2", "2,4,5"),
				expect("SELECT GROUP_CONCAT(note ORDER BY id) FROM t WHERE kind = 'a'", "I,III,five"),
				// lakesql skips the row-id groups the bitmap index of
				// level refutes; rows it does not cover are read.
				expect("SELECT COUNT(*) FROM t WHERE level = 9", "0"),
				expect("SELECT GROUP_CONCAT(id ORDER BY id) FROM t WHERE level = 1 OR level IS NULL", "1,3"),
				expectError("INSERT INTO t VALUES (6, 'a', 6, 'six')", rowTrackingWriteRefused),
			},
			known: []known{
				// Java's $files shows the stats of the partial files of
				// note as those of id (F36), or throws.
				{finding: "F36", reader: "java-", point: "tag=$files", message: "(lakesql {id=null, kind=null, level=null, note="},
				{finding: "F36", reader: "java-", point: "tag=$files", message: "IllegalArgumentException"},
			},
		},
	)
}
