package sqlbackend

import (
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
)

// AVG over a window is MySQL's: a DECIMAL with 4 more decimals of an
// integer or a DECIMAL, a DOUBLE of a DOUBLE, NULL over no values (GMS:
// an INT rounded, a panic on NaN, NaN); SUM of a DOUBLE over no values is
// NULL too (GMS: 0).
func TestWindowAvg(t *testing.T) {
	c := newHarness(t, t.TempDir()).connect()
	c.mustExec("CREATE DATABASE w", "USE w",
		"CREATE TABLE t (id BIGINT, k INT, rate DECIMAL(9,3), score DOUBLE, g VARCHAR(8))",
		`INSERT INTO t VALUES (1, 5, NULL, NULL, 'a'), (2, 6, 1.5, 2.5, 'b'), (3, NULL, 2.25, 3.5, 'b')`)
	q := `SELECT id, AVG(k) OVER (), AVG(k) OVER (ORDER BY id), AVG(rate) OVER (PARTITION BY g),
		AVG(score) OVER (PARTITION BY g), SUM(score) OVER (PARTITION BY g) FROM t`
	wantQueryRows(t, c, q, []string{
		"[1 5.5000 5.0000 <nil> <nil> <nil>]",
		"[2 5.5000 5.5000 1.8750000 3 6]",
		"[3 5.5000 5.5000 1.8750000 3 6]",
	})
	want := []string{"bigint", "decimal(14,4)", "decimal(14,4)", "decimal(13,7)", "double", "double"}
	for i, col := range querySchema(t, c, q) {
		if got := col.Type.String(); got != want[i] {
			t.Errorf("column %d (%s) is %s, want %s", i, col.Name, got, want[i])
		}
	}
}

// querySchema is the result schema of q.
func querySchema(t *testing.T, c *conn, q string) sql.Schema {
	t.Helper()
	ctx := c.context().WithQuery(q)
	sch, iter, _, err := c.h.engine.Query(ctx, q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	if _, err := drainWindowInput(ctx, iter); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return sch
}
