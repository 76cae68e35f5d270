package sqlbackend

import (
	"strings"
	"testing"
)

// An uncorrelated [NOT] EXISTS beside another one is a condition on the
// whole statement; GMS unnested both into joins its join planner then
// failed on ('failed to replan join: unknown type for rel output cols',
// 'index out of range'), in both modes.
func TestUncorrelatedExistsBesideOthers(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE t1 (k INT, note VARCHAR(16) NOT NULL)",
		"CREATE TABLE t2 (n BIGINT, k INT NOT NULL, region VARCHAR(8) NOT NULL, note VARCHAR(16) NOT NULL, PRIMARY KEY (k, region))",
		"CREATE TABLE t3 (k INT, n BIGINT)",
		"INSERT INTO t1 VALUES (1, 'a')",
		"INSERT INTO t2 VALUES (1, 1, 'x', 'x'), (2, 1, 'y', 'z')",
		"INSERT INTO t3 VALUES (1, 1), (2, 2), (3, NULL)")
	for q, want := range map[string]string{
		"SELECT COUNT(*) FROM t3 a1 WHERE EXISTS (SELECT 1 FROM t1 a2) AND NOT EXISTS (SELECT 1 FROM t1 a3)":                                     "[0]",
		"SELECT COUNT(*) FROM t3 a1 WHERE EXISTS (SELECT 1 FROM t1 a2) AND NOT EXISTS (SELECT 1 FROM t1 a3 WHERE a3.k = 7)":                      "[3]",
		"SELECT a1.k FROM t3 a1 WHERE EXISTS (SELECT 1 FROM t2 a2 WHERE a2.region = a2.note) AND EXISTS (SELECT 1 FROM t2 a3 WHERE a3.n = a1.n)": "[1] [2]",
	} {
		for _, mode := range []string{"ON", "OFF"} {
			c.mustExec("SET lakesql_planner_rewrites = " + mode)
			if got := strings.Join(sortedLines(c.mustQuery(q)), " "); got != want {
				t.Errorf("rewrites %s: %s:\n got %s\nwant %s", mode, q, got, want)
			}
		}
	}
}

// The answer of an uncorrelated EXISTS is the statement's: a prepared
// statement run again after a write sees the write.
func TestUncorrelatedExistsIsEvaluatedPerStatement(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE t1 (k INT)", "CREATE TABLE t3 (k INT)",
		"INSERT INTO t3 VALUES (1), (2)",
		"PREPARE s FROM 'SELECT COUNT(*) FROM t3 WHERE NOT EXISTS (SELECT 1 FROM t1 WHERE t1.k = 5) AND EXISTS (SELECT 1 FROM t3 x)'")
	for _, step := range []struct{ write, want string }{
		{"", "[2]"},
		{"INSERT INTO t1 VALUES (5)", "[0]"},
		{"DELETE FROM t1", "[2]"},
	} {
		if step.write != "" {
			c.mustExec(step.write)
		}
		if got := strings.Join(format(c.mustQuery("EXECUTE s")), " "); got != step.want {
			t.Errorf("after %q: got %s, want %s", step.write, got, step.want)
		}
	}
}
