//go:build interop

package interop

import (
	"encoding/json"
	"fmt"
	"time"
)

// Co-write cases: Java writes on top of what lakesql wrote, to the same
// keys and partitions. A key lakesql put into another bucket than Java's
// hash gives it, or a partition directory named otherwise, shows as a
// duplicate row or a second directory, which the expect steps catch (both
// sides would read the duplicate alike, so comparing readers cannot).
func init() {
	cases = append(cases, cowriteCases...)
}

// keyRow is row i of the bucket-key cases, in the interop encoding; the
// SQL of keyRowsSQL computes the same values.
func keyRow(i int, v string) map[string]any {
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i)
	ts := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * 1234567 * time.Microsecond)
	return map[string]any{
		"k1": i, "k2": fmt.Sprintf("key-%d", i), "k3": day.Format("2006-01-02"),
		"k4": fmt.Sprintf("%d.%04d", i*10001/10000, i*10001%10000),
		"k5": ts.Format("2006-01-02 15:04:05.000000"), "k6": int64(i) * 1000000007, "v": v,
	}
}

const keyRowsSQL = `SELECT i, CONCAT('key-', i), DATE_ADD('2026-01-01', INTERVAL i DAY), i * 1.0001,
  TIMESTAMPADD(MICROSECOND, i * 1234567, '2026-01-01 00:00:00'), i * 1000000007, 'lakesql' FROM `

// javaRows is one commit of rows 1 … n made by row.
func javaRows(n int, row func(int) map[string]any) string {
	var rows []map[string]any
	for i := 1; i <= n; i++ {
		rows = append(rows, row(i))
	}
	b, _ := json.Marshal([]map[string]any{{"rows": rows}})
	return string(b)
}

const keyColumns = `k1 INT NOT NULL, k2 VARCHAR(20) NOT NULL, k3 DATE NOT NULL, k4 DECIMAL(20,4) NOT NULL,
  k5 DATETIME(6) NOT NULL, k6 BIGINT NOT NULL, v VARCHAR(20)`

// filesDirs counts the distinct partition directories of the live files;
// Java's and lakesql's files of one partition must share one.
const (
	filesDirs  = "SELECT COUNT(DISTINCT SUBSTRING_INDEX(file_path, '/bucket-', 1)) FROM `t$files`"
	partitions = "(SELECT COUNT(*) FROM `t$partitions`)"
)

// expectBucketKey checks that a filter on the whole bucket key of the
// fixed-bucket append case finds lakesql's and Java's row of key i.
func expectBucketKey(i int) string {
	r := keyRow(i, "")
	return expect(fmt.Sprintf("SELECT COUNT(*) FROM t WHERE k4 = %s AND k5 = '%s'", r["k4"], r["k5"]), "2")
}

func javaVersionRow(v string) func(int) map[string]any {
	return func(i int) map[string]any { return keyRow(i, v) }
}

var cowriteCases = []tableCase{
	{
		name: "cowrite_pk_bucket_keys",
		create: `CREATE TABLE t (` + keyColumns + `, PRIMARY KEY (k1, k2, k3, k4, k5, k6))
  PARTITION BY KEY (k1, k2, k3, k4, k5, k6) PARTITIONS 7`,
		steps: []string{
			`INSERT INTO t ` + keyRowsSQL + numbers(300),
			javaCommits("1.4.2", javaRows(300, javaVersionRow("java-1.4.2"))),
			expect("SELECT COUNT(*) FROM t", "300"),
			expect("SELECT COUNT(*) FROM t WHERE v = 'java-1.4.2'", "300"),
			`CALL sys.compact('t')`,
			expect("SELECT COUNT(*) FROM t", "300"),
			javaCommits("1.3.1", javaRows(150, javaVersionRow("java-1.3.1"))),
			expect("SELECT COUNT(*) FROM t WHERE v = 'java-1.3.1'", "150"),
			`UPDATE t SET v = 'lakesql-again' WHERE k1 <= 100`,
			expect("SELECT COUNT(*) FROM t", "300"),
			javaRun("1.4.2", "compact"),
			check,
			javaRun("1.4.2", "expire", "--retain", "2"),
			`INSERT INTO t ` + keyRowsSQL + numbers(10),
			expect("SELECT COUNT(*) FROM t", "300"),
			expect("SELECT COUNT(*) FROM t WHERE v = 'lakesql'", "10"),
			javaRun("1.3.1", "compact"),
		},
	},
	{
		name: "cowrite_pk_string_bucket",
		create: `CREATE TABLE t (` + keyColumns + `, PRIMARY KEY (k2, k1))
  PARTITION BY KEY (k2) PARTITIONS 5`,
		steps: []string{
			`INSERT INTO t ` + keyRowsSQL + numbers(200),
			javaCommits("1.4.2", javaRows(200, javaVersionRow("java"))),
			expect("SELECT COUNT(*) FROM t", "200"),
			`CALL sys.compact('t')`,
			expect("SELECT COUNT(*) FROM t WHERE v = 'java'", "200"),
		},
	},
	{
		name: "cowrite_pk_partitioned_legacy",
		create: `CREATE TABLE t (` + keyColumns + `, PRIMARY KEY (k3, k1, k2))
  PARTITION BY LIST COLUMNS (k3) SUBPARTITION BY KEY (k1) SUBPARTITIONS 3`,
		steps: []string{
			`INSERT INTO t ` + keyRowsSQL + numbers(40),
			javaCommits("1.4.2", javaRows(40, javaVersionRow("java"))),
			expect("SELECT COUNT(*) FROM t", "40"),
			expect(filesDirs, partitions),
		},
	},
	{
		name: "cowrite_pk_partitioned_nonlegacy",
		create: `CREATE TABLE t (` + keyColumns + `, PRIMARY KEY (k3, k4, k1, k2))
  COMMENT 'paimon:{"partition.legacy-name":"false"}'
  PARTITION BY LIST COLUMNS (k3, k4) SUBPARTITION BY KEY (k1) SUBPARTITIONS 3`,
		steps: []string{
			`INSERT INTO t ` + keyRowsSQL + numbers(40),
			javaCommits("1.4.2", javaRows(40, javaVersionRow("java"))),
			expect("SELECT COUNT(*) FROM t", "40"),
			expect(filesDirs, partitions),
		},
	},
	{
		name:        "cowrite_append_partitioned_timestamp",
		incremental: true,
		create: `CREATE TABLE t (` + keyColumns + `) COMMENT 'paimon:{"partition.legacy-name":"false"}'
  PARTITION BY LIST COLUMNS (k5, k2)`,
		steps: []string{
			`INSERT INTO t ` + keyRowsSQL + numbers(10),
			javaCommits("1.4.2", javaRows(10, javaVersionRow("java"))),
			expect("SELECT COUNT(*) FROM t", "20"),
			expect(filesDirs, partitions),
			`CALL sys.compact('t')`,
			expect("SELECT COUNT(*) FROM t", "20"),
		},
	},
	{
		name:   "cowrite_append_fixed_bucket",
		create: `CREATE TABLE t (` + keyColumns + `) PARTITION BY KEY (k4, k5) PARTITIONS 4`,
		steps: []string{
			`INSERT INTO t ` + keyRowsSQL + numbers(100),
			javaCommits("1.4.2", javaRows(100, javaVersionRow("java"))),
			expect("SELECT COUNT(*) FROM t", "200"),
			// lakesql reads only the bucket its hash gives a key: both rows
			// of a key, lakesql's and Java's, must be found there.
			expectBucketKey(1), expectBucketKey(37), expectBucketKey(100),
		},
	},
}
