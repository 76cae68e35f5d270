package sqlbackend

import (
	"strings"
	"testing"
)

// A table's rows come in key order only within a bucket: DISTINCT of key
// columns, and the distinct side of an EXISTS turned into a join, keep
// each value once over several partitions (differential seed 444: the
// COUNT(*) of an EXISTS was 5 of 3 rows).
func TestDistinctOfKeyColumnsAcrossPartitions(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE t2 (id BIGINT NOT NULL, day VARCHAR(10) NOT NULL, region VARCHAR(8) NOT NULL, PRIMARY KEY (day, region, id)) PARTITION BY LIST COLUMNS (day, region) SUBPARTITION BY KEY (id) SUBPARTITIONS 4",
		"CREATE TABLE t3 (id BIGINT NOT NULL, PRIMARY KEY (id))",
		"INSERT INTO t2 VALUES (29, '2024-01-03', 'apac')",
		"INSERT INTO t2 VALUES (17, '2024-01-05', 'eu'), (14, '2024-01-03', 'us')",
		"INSERT INTO t3 VALUES (29), (17)")
	for q, want := range map[string]string{
		"SELECT COUNT(*) FROM t2 a1 WHERE EXISTS (SELECT 1 FROM t3 a3 JOIN t2 a4 ON TRUE WHERE a4.day = a1.day)": "[3]",
		"SELECT DISTINCT day FROM t2":                          "[2024-01-03] [2024-01-05]",
		"SELECT COUNT(*) FROM (SELECT DISTINCT day FROM t2) d": "[2]",
	} {
		for _, mode := range []string{"ON", "OFF"} {
			c.mustExec("SET lakesql_planner_rewrites = " + mode)
			if got := strings.Join(sortedLines(c.mustQuery(q)), " "); got != want {
				t.Errorf("rewrites %s: %s:\n got %s\nwant %s", mode, q, got, want)
			}
		}
	}
}
