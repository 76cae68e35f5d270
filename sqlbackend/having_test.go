package sqlbackend

import (
	"strings"
	"testing"
)

// HAVING may aggregate a column another table of the FROM has too: GMS
// failed with "table not found" when an earlier table had a column of that
// name. The result keeps the select list's columns only.
func TestHavingAggregateOfAnotherTablesColumn(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE t1 (score DOUBLE, id BIGINT NOT NULL, note VARCHAR(16), n BIGINT, k INT, PRIMARY KEY (id))",
		"CREATE TABLE t2 (k INT, rate DECIMAL(9,3), id BIGINT NOT NULL, n BIGINT, PRIMARY KEY (id))",
		"INSERT INTO t1 VALUES (1.5, 1, 'a', 10, 1), (2.5, 2, 'b', 20, 2), (3.5, 3, 'a', NULL, 8)",
		"INSERT INTO t2 VALUES (1, 1.500, 1, 5), (8, 2.250, 2, 6), (2, NULL, 3, 7)")
	for q, want := range map[string]string{
		"SELECT SUM(a3.id) AS c0 FROM t2 a1 JOIN t2 a2 ON TRUE JOIN t1 a3 ON TRUE HAVING SUM(a2.rate) > 3.000":                                                           "[54]",
		"SELECT a1.note AS c0, MIN(a2.id) AS c1, SUM(a1.k) AS c2 FROM t1 a1 JOIN t1 a2 ON a2.id = a1.id GROUP BY a1.note HAVING MAX(a2.k) = 8 ORDER BY c0":               "[a 1 9]",
		"SELECT a1.note AS c0, COUNT(*) AS c1 FROM t1 a1 JOIN t2 a2 ON a2.k = a1.k GROUP BY a1.note HAVING MAX(a2.n) > 5 AND MIN(a2.n) < 9 ORDER BY c1 DESC, c0 LIMIT 5": "[a 2] [b 1]",
		"SELECT a1.note AS c0, MAX(a2.k) AS c1 FROM t1 a1 LEFT JOIN t2 a2 ON a2.k = a1.k GROUP BY a1.note HAVING MAX(a2.k) <> 2 ORDER BY c0":                             "[a 8]",
		"SELECT a1.note AS c0, MAX(a2.k) FROM t1 a1 LEFT JOIN t2 a2 ON a2.k = a1.k GROUP BY a1.note HAVING MAX(a2.k) <> 2 ORDER BY c0":                                   "[a 8]",
	} {
		for _, mode := range []string{"ON", "OFF"} {
			c.mustExec("SET lakesql_planner_rewrites = " + mode)
			if got := strings.Join(format(c.mustQuery(q)), " "); got != want {
				t.Errorf("rewrites %s: %s:\n got %s\nwant %s", mode, q, got, want)
			}
		}
	}
}
