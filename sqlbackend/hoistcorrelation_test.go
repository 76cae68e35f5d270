package sqlbackend

import (
	"strings"
	"testing"
)

// A derived table in a derived table whose WHERE has a correlated
// subquery beside an uncorrelated EXISTS (what a grouped window function
// in a derived table becomes) failed in both modes with "rule
// 'hoistOutOfScopeFilters' tried to hoist filters above root node": GMS
// took the inner block's own column for an outer one (differential seed
// 1012).
func TestNestedDerivedTablesKeepUncorrelatedExists(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE t2 (id BIGINT NOT NULL, amt DECIMAL(12,2), tag VARCHAR(8), PRIMARY KEY (id))",
		"CREATE TABLE t3 (tag VARCHAR(8), amt DECIMAL(12,2), id BIGINT NOT NULL, PRIMARY KEY (id))",
		"INSERT INTO t3 VALUES ('x', 1, 1), ('y', 2, 2), ('z', 3, 3), (NULL, 4, 4), ('w', 2, 5)",
		"INSERT INTO t2 VALUES (1, 1, 'x'), (2, 2, 'q'), (3, 3, NULL)")
	const grouped = "SELECT * FROM (SELECT a1.amt, ROW_NUMBER() OVER (ORDER BY a1.amt DESC) AS c0, COUNT(*) AS n FROM t3 a1 " +
		"WHERE a1.tag NOT IN (SELECT a3.tag FROM t2 a3 WHERE a3.amt = a1.amt) AND %s (SELECT 1 FROM t3 a4) GROUP BY a1.amt) AS ordered"
	for q, want := range map[string]string{
		strings.Replace(grouped, "%s", "EXISTS", 1):     "[2.00 2 2] [4.00 1 1]",
		strings.Replace(grouped, "%s", "NOT EXISTS", 1): "",
		"SELECT * FROM (SELECT g.x FROM (SELECT a1.id AS x FROM t3 a1 WHERE EXISTS (SELECT 1 FROM t2 a3 WHERE a3.amt = a1.amt) AND EXISTS (SELECT 1 FROM t2 a4)) g) AS o":           "[1] [2] [3] [5]",
		"SELECT * FROM (SELECT * FROM (SELECT a1.id AS x FROM t3 a1 WHERE a1.tag IN (SELECT a3.tag FROM t2 a3 WHERE a3.amt = a1.amt) AND NOT EXISTS (SELECT 1 FROM t2 a4)) g) AS o": "",
	} {
		for _, mode := range []string{"ON", "OFF"} {
			c.mustExec("SET lakesql_planner_rewrites = " + mode)
			if got := strings.Join(sortedLines(c.mustQuery(q)), " "); got != want {
				t.Errorf("rewrites %s: %s:\n got %s\nwant %s", mode, q, got, want)
			}
		}
	}
}
