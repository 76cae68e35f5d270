//go:build interop

package interop

// Append tables whose rows lakesql's UPDATE and DELETE remove
// (storage/rowdelete): by rewriting the files that hold them, or by
// deletion vectors, in tables of unaware and of fixed buckets, with Java
// writing and compacting in between. Every snapshot must read the same
// in every reader, and Java's compaction must honour lakesql's vectors.
func init() {
	cases = append(cases,
		appendRowsCase("append_rows_rewrite", `"bucket":"-1"`),
		appendRowsCase("append_rows_rewrite_buckets", `"bucket":"2","bucket-key":"id"`),
		appendRowsCase("append_rows_vectors", `"bucket":"-1","deletion-vectors.enabled":"true"`),
		appendRowsCase("append_rows_vectors_buckets", `"bucket":"2","bucket-key":"id","deletion-vectors.enabled":"true"`),
		withKnown(appendRowsCase("append_rows_vectors64", `"bucket":"-1","deletion-vectors.enabled":"true","deletion-vectors.bitmap64":"true"`),
			known{finding: "F14", reader: "pypaimon-", message: "Invalid magic number"}),
		tableCase{
			// Java writes the table and its first rows; lakesql's
			// deletion vectors join them, and Java compacts them away.
			name: "javawrites_dv_append_rows",
			create: javaCreate("1.4.2", `{"columns": [{"name": "id", "type": "INT NOT NULL"}, {"name": "v", "type": "STRING"}],
 "options": {"bucket": "-1", "deletion-vectors.enabled": "true"},
 "commits": [{"rows": [{"id": 1, "v": "a"}, {"id": 2, "v": "b"}, {"id": 3, "v": "c"}]}, {"rows": [{"id": 4, "v": "d"}]}]}`),
			steps: []string{
				`DELETE FROM t WHERE id = 2`,
				`UPDATE t SET v = 'd2' WHERE id = 4`,
				javaCommits("1.3.1", `[{"rows": [{"id": 5, "v": "e"}]}]`),
				`DELETE FROM t WHERE v = 'e' OR id = 1`,
				javaRun("1.4.2", "compact"),
				`DELETE FROM t WHERE id = 3`,
				javaCommits("1.4.2", `[{"rows": [{"id": 6, "v": "f"}]}]`),
			},
		},
	)
}

// appendRowsCase is a partitioned append table with the options given,
// changed row by row by lakesql between Java's commits and compactions.
func appendRowsCase(name, options string) tableCase {
	return tableCase{
		name: name,
		create: `CREATE TABLE t (dt VARCHAR(10) NOT NULL, id INT, v VARCHAR(20), amount DECIMAL(18,2), ts DATETIME(6))
  COMMENT 'paimon:{` + options + `}' PARTITION BY LIST COLUMNS (dt)`,
		steps: []string{
			`INSERT INTO t VALUES ('2026-04-16', 1, 'a', 1.00, '2026-04-16 01:00:00.000001'), ('2026-04-16', 2, 'b', 2.00, NULL),
  ('2026-04-17', 3, 'c', 3.00, '2026-04-17 01:00:00'), ('2026-04-17', 3, 'c', 3.00, '2026-04-17 01:00:00')`,
			`INSERT INTO t SELECT '2026-04-18', i, CONCAT('n', i), i / 100, NULL FROM ` + numbers(3000),
			`DELETE FROM t WHERE id = 2`,
			`DELETE FROM t WHERE dt = '2026-04-17' LIMIT 1`,
			`UPDATE t SET v = 'updated', amount = amount * 2 WHERE id % 7 = 0 OR id = 1`,
			javaCommits("1.4.2", `[{"rows": [{"dt": "2026-04-16", "id": 10, "v": "java"}, {"dt": "2026-04-18", "id": 11, "v": "java"}]}]`),
			`DELETE FROM t WHERE v = 'java' AND dt = '2026-04-18'`,
			`DELETE FROM t WHERE id BETWEEN 100 AND 1999 AND id % 3 = 0`,
			javaRun("1.4.2", "compact"),
			`UPDATE t SET ts = '2026-01-01 00:00:00' WHERE id < 50`,
			javaCommits("1.3.1", `[{"rows": [{"dt": "2026-04-17", "id": 12, "v": "java 1.3"}]}]`),
			`DELETE FROM t WHERE dt = '2026-04-16'`,
			`DELETE FROM t WHERE id > 2900`,
		},
	}
}

func withKnown(c tableCase, k ...known) tableCase {
	c.known = append(c.known, k...)
	return c
}
