package sqlbackend

import (
	"strings"
	"testing"
)

// A UNION branch with a subquery over a join runs: GMS stripped the outer
// row from the join's inputs twice and panicked ('slice bounds out of
// range').
func TestUnionBranchWithSubqueryOverJoin(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE t1 (id BIGINT, k INT, note VARCHAR(16))",
		"CREATE TABLE t2 (id BIGINT NOT NULL, k INT, PRIMARY KEY (id))",
		"INSERT INTO t1 VALUES (20, -2, 'sur'), (21, 5, 'nor')",
		"INSERT INTO t2 VALUES (1, -2), (2, 7)")
	for q, want := range map[string]string{
		"SELECT a2.note FROM t1 a2 WHERE a2.k NOT IN (SELECT a4.k FROM t2 a3 JOIN t2 a4 ON TRUE) UNION ALL SELECT a5.note FROM t1 a5":            "[nor] [nor] [sur]",
		"SELECT a1.id FROM t1 a1 WHERE a1.id = (SELECT MIN(a3.id) + 19 FROM t2 a2 JOIN t2 a3 ON TRUE) UNION SELECT a4.id FROM t2 a4":             "[1] [20] [2]",
		"SELECT a1.note FROM t1 a1 WHERE a1.k IN (SELECT a3.k FROM t2 a2 JOIN t2 a3 ON a3.id = a2.id WHERE a2.id = a1.id - 19) UNION SELECT 'x'": "[sur] [x]",
	} {
		for _, mode := range []string{"ON", "OFF"} {
			c.mustExec("SET lakesql_planner_rewrites = " + mode)
			if got := strings.Join(sortedLines(c.mustQuery(q)), " "); got != want {
				t.Errorf("rewrites %s: %s:\n got %s\nwant %s", mode, q, got, want)
			}
		}
	}
}
