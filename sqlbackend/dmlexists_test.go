package sqlbackend

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// A single-table DELETE or UPDATE with an EXISTS subquery runs, as MySQL
// runs it: GMS analyzed it without resolving the subquery and failed with
// "attempted to evaluate uninitialized subquery".
func TestDMLWithExistsSubquery(t *testing.T) {
	for _, c := range []struct{ stmt, affected, rows string }{
		{"DELETE FROM t1 WHERE NOT EXISTS (SELECT 1 FROM t4 WHERE t4.tag = t1.tag)", "3", "[1 a 1]"},
		{"DELETE FROM t1 WHERE EXISTS (SELECT 1 FROM t4 WHERE t4.n = t1.n) ORDER BY id LIMIT 1", "1", "[1 a 1] [3 <nil> 3] [4 d <nil>]"},
		{"DELETE FROM t1 WHERE EXISTS (SELECT 1 FROM t4 WHERE t4.id = 9) OR id = 4", "1", "[1 a 1] [2 b 2] [3 <nil> 3]"},
		{"UPDATE t1 SET n = 0 WHERE NOT EXISTS (SELECT 1 FROM t4 WHERE t4.tag = t1.tag)", "3", "[1 a 1] [2 b 0] [3 <nil> 0] [4 d 0]"},
		{"UPDATE t1 SET n = EXISTS (SELECT 1 FROM t4 WHERE t4.n = t1.n)", "4", "[1 a 0] [2 b 1] [3 <nil> 1] [4 d 0]"},
	} {
		for _, mode := range []string{"ON", "OFF"} {
			h := newHarness(t, t.TempDir())
			conn := h.connect()
			conn.mustExec("CREATE DATABASE d", "USE d",
				"CREATE TABLE t1 (id BIGINT NOT NULL, tag VARCHAR(8), n BIGINT, PRIMARY KEY (id))",
				"CREATE TABLE t4 (id BIGINT NOT NULL, tag VARCHAR(8), n BIGINT, PRIMARY KEY (id))",
				"INSERT INTO t1 VALUES (1, 'a', 1), (2, 'b', 2), (3, NULL, 3), (4, 'd', NULL)",
				"INSERT INTO t4 VALUES (1, 'a', 10), (2, 'x', 2), (3, NULL, 3)",
				"SET lakesql_planner_rewrites = "+mode)
			res := conn.mustQuery(c.stmt)
			if got := affectedRows(res); got != c.affected {
				t.Errorf("rewrites %s: %s: %s rows affected, want %s", mode, c.stmt, got, c.affected)
			}
			if got := strings.Join(sortedLines(conn.mustQuery("SELECT id, tag, n FROM t1")), " "); got != c.rows {
				t.Errorf("rewrites %s: %s left\n %s, want\n %s", mode, c.stmt, got, c.rows)
			}
		}
	}
}

// DELETE … WHERE NOT EXISTS, the reconciliation clean-up, is a hash or
// lookup join, not a subquery run per row.
func TestDeleteWhereNotExistsIsAJoin(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE p (id BIGINT NOT NULL, oid BIGINT, PRIMARY KEY (id))",
		"CREATE TABLE o (id BIGINT NOT NULL, PRIMARY KEY (id))")
	for _, q := range []string{
		"DELETE FROM p WHERE NOT EXISTS (SELECT 1 FROM o WHERE o.id = p.oid)",
		"UPDATE p SET oid = NULL WHERE NOT EXISTS (SELECT 1 FROM o WHERE o.id = p.oid)",
	} {
		plan := strings.Join(format(c.mustQuery("EXPLAIN PLAN "+q)), "\n")
		if strings.Contains(plan, "Subquery") || !strings.Contains(plan, "Join") {
			t.Errorf("%s runs its subquery per row:\n%s", q, plan)
		}
	}
}

// affectedRows is the row count of a DML statement's OK result.
func affectedRows(rows []sql.Row) string {
	if len(rows) == 1 && len(rows[0]) == 1 {
		if ok, isOK := rows[0][0].(types.OkResult); isOK {
			return fmt.Sprint(ok.RowsAffected)
		}
	}
	return fmt.Sprint(rows)
}
