package duckplan

import (
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/gmsplan"
)

// TestQueryBoundAndOrder checks what Translate proves about a query's
// result: the executor keeps a result it cannot bound in a table that
// spills, and keeps the order of an ordered one.
func TestQueryBoundAndOrder(t *testing.T) {
	h := gmsplan.New(t)
	h.Exec(t, "CREATE TABLE t (a BIGINT PRIMARY KEY, b BIGINT)")
	for _, c := range []struct {
		query   string
		bound   int64
		ordered bool
	}{
		{"SELECT a FROM t WHERE b > 1", 0, false},
		{"SELECT b, COUNT(*) FROM t GROUP BY b", 0, false},
		{"SELECT COUNT(*), SUM(b) FROM t", 1, false},
		{"SELECT a FROM t ORDER BY b", 0, true},
		{"SELECT a FROM t ORDER BY b LIMIT 7", 7, true},
		{"SELECT a FROM t LIMIT 3", 3, false},
		{"SELECT a FROM t LIMIT 5 OFFSET 2", 5, false},
		{"SELECT * FROM (SELECT a FROM t LIMIT 4) d WHERE a > 1", 4, false},
		{"SELECT b FROM t GROUP BY b ORDER BY COUNT(*) DESC LIMIT 10", 10, true},
		{"SELECT a FROM t UNION ALL SELECT b FROM t", 0, false},
	} {
		q, _, err := Translate(planOf(t, h, c.query), gmsplan.IsTableRead)
		if err != nil {
			t.Fatalf("%s: %v", c.query, err)
		}
		if q.MaxRows != c.bound || q.Ordered != c.ordered {
			t.Errorf("%s: bound %d ordered %v, want %d and %v", c.query, q.MaxRows, q.Ordered, c.bound, c.ordered)
		}
	}
}
