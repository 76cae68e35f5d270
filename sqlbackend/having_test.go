package sqlbackend

import (
	"strings"
	"testing"
)

// HAVING may aggregate a column another table of the FROM has too: GMS
// failed with "table not found" when an earlier table had a column of that
// name. The result keeps the select list's columns only, also where the
// HAVING is a derived table's.
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
		// In a derived table, whose columns the outer query reads by name.
		"SELECT * FROM (SELECT a1.note AS c0, COUNT(*) AS c1 FROM t1 a1 JOIN t2 a2 ON a2.k = a1.k GROUP BY a1.note HAVING MAX(a2.n) > 5) AS d ORDER BY c0":         "[a 2] [b 1]",
		"SELECT d.c1 FROM (SELECT a1.note AS c0, COUNT(*) AS c1 FROM t1 a1 JOIN t2 a2 ON a2.k = a1.k GROUP BY a1.note HAVING MAX(a2.n) > 5) AS d WHERE d.c0 = 'b'": "[1]",
	} {
		for _, mode := range []string{"ON", "OFF"} {
			c.mustExec("SET lakesql_planner_rewrites = " + mode)
			if got := strings.Join(format(c.mustQuery(q)), " "); got != want {
				t.Errorf("rewrites %s: %s:\n got %s\nwant %s", mode, q, got, want)
			}
		}
	}
}

// A derived table's HAVING beside a window function: the grouped-window
// rewrite nests the HAVING a level deeper, where GMS took a2.dt for
// MIN(a3.dt) and failed with "table not found: a3" (differential seed
// 150).
func TestHavingAggregateInDerivedTableWithWindow(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE t1 (n BIGINT, id BIGINT NOT NULL, note VARCHAR(16) NOT NULL, dt DATE, PRIMARY KEY (id))",
		"CREATE TABLE t3 (day VARCHAR(10) NOT NULL, k INT, dt DATE, id BIGINT NOT NULL, PRIMARY KEY (day, id))",
		"CREATE TABLE t4 (k INT, note VARCHAR(16), region VARCHAR(8) NOT NULL)",
		"INSERT INTO t1 VALUES (1, 1, 'n', '2023-12-31'), (2, 2, 'm', '2024-01-05')",
		"INSERT INTO t3 VALUES ('d', 7, '2024-01-01', 1)",
		"INSERT INTO t4 VALUES (1, 'b', 'eu'), (2, 'a', 'us')")
	for q, want := range map[string]string{
		"SELECT * FROM (SELECT RANK() OVER (ORDER BY MAX(a1.note) DESC) AS c0, MIN(a2.k) AS c1 FROM t4 a1 JOIN t3 a2 ON TRUE JOIN t1 a3 ON TRUE HAVING MIN(a3.dt) <=> '2023-12-31') AS ordered":                                   "[1 7]",
		"SELECT * FROM (SELECT a1.region AS c0, RANK() OVER (ORDER BY MAX(a1.note) DESC) AS c1 FROM t4 a1 JOIN t3 a2 ON TRUE JOIN t1 a3 ON TRUE GROUP BY a1.region HAVING MIN(a3.dt) < '2024-01-01') AS ordered ORDER BY c0 DESC": "[us 2] [eu 1]",
	} {
		for _, mode := range []string{"ON", "OFF"} {
			c.mustExec("SET lakesql_planner_rewrites = " + mode)
			if got := strings.Join(format(c.mustQuery(q)), " "); got != want {
				t.Errorf("rewrites %s: %s:\n got %s\nwant %s", mode, q, got, want)
			}
		}
	}
}
