package sqlbackend

import (
	"strings"
	"testing"
)

// x IN (subquery) compares as MySQL does when the subquery's type is
// narrower than x's: a DATETIME with DATEs as DATETIMEs, a DECIMAL with
// integers or DECIMALs of a smaller scale as DECIMALs, a DOUBLE with
// exact numbers as DOUBLEs. GMS converted x to the subquery's type, so a
// DELETE … WHERE ts IN (SELECT dt …) removed rows of other times that day.
func TestInSubqueryComparesInTheWiderType(t *testing.T) {
	for _, mode := range []string{"ON", "OFF"} {
		h := newHarness(t, t.TempDir())
		c := h.connect()
		c.mustExec("CREATE DATABASE d", "USE d",
			"CREATE TABLE t1 (id BIGINT NOT NULL, ts DATETIME, k INT NOT NULL, d DECIMAL(6,2), f DOUBLE, PRIMARY KEY (k, id))",
			"CREATE TABLE t2 (dt DATE NOT NULL, k INT, n BIGINT, q DECIMAL(6,1))",
			"INSERT INTO t2 VALUES ('2024-01-04', -2, 2, 1.5), ('2024-01-05', 3, NULL, NULL)",
			"INSERT INTO t1 VALUES (25, '2024-01-04 23:30:59', -2, 1.50, 1.5), (26, '2024-01-04 00:00:00', -2, 2.00, 2.0), (27, '2024-01-05 00:00:00', 3, 1.55, 2.5)",
			"SET lakesql_planner_rewrites = "+mode)
		q := "SELECT id, ts IN (SELECT dt FROM t2), ts IN (SELECT a1.dt FROM t2 a1 WHERE a1.k = t1.k), " +
			"d IN (SELECT n FROM t2), f IN (SELECT n FROM t2), d IN (SELECT q FROM t2) FROM t1 ORDER BY id"
		want := "[25 false false <nil> <nil> true] [26 true true true true <nil>] [27 true true <nil> <nil> <nil>]"
		if got := strings.Join(format(c.mustQuery(q)), " "); got != want {
			t.Errorf("rewrites %s: %s:\n got %s\nwant %s", mode, q, got, want)
		}
		c.mustExec("DELETE FROM t1 WHERE t1.ts IN (SELECT a1.dt FROM t2 a1 WHERE a1.k = t1.k)")
		if got := strings.Join(format(c.mustQuery("SELECT id FROM t1 ORDER BY id")), " "); got != "[25]" {
			t.Errorf("rewrites %s: the DELETE left %s, want [25]", mode, got)
		}
	}
}

// A string IN (numbers), or a number IN (strings), compares as numbers:
// GMS converted the left value to the subquery's type, so '7.5' was IN
// (SELECT 8), and 'abc', not a number, matched nothing though it is 0.
func TestInSubqueryStringAndNumber(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE a (id BIGINT NOT NULL, s VARCHAR(20), i INT, PRIMARY KEY (id))",
		"CREATE TABLE b (id BIGINT NOT NULL, s VARCHAR(20), i INT, PRIMARY KEY (id))",
		"INSERT INTO a VALUES (1, '7.5', 7), (2, '8', 8), (3, '2024-01-04', 0), (4, 'abc', NULL)",
		"INSERT INTO b VALUES (1, '8', 8), (2, '2024-01-04 10:00:00', 0), (3, '07', 7)")
	q := "SELECT a.id, a.s IN (SELECT b.i FROM b), a.i IN (SELECT b.s FROM b), a.s NOT IN (SELECT b.i FROM b) FROM a ORDER BY a.id"
	want := "[1 false true true] [2 true true false] [3 false false true] [4 true <nil> false]"
	if got := strings.Join(format(c.mustQuery(q)), " "); got != want {
		t.Errorf("%s:\n got %s\nwant %s", q, got, want)
	}
}
