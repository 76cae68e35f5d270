package sqlbackend

import (
	"strings"
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
	if _, err := sql.RowIterToRows(ctx, iter); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return sch
}

// ORDER BY the alias of a window AVG sorts by its DECIMAL values: the
// alias's column kept GMS's DOUBLE type and compared every value as equal,
// leaving a partitioned table's rows in scan order (differential seed 911).
func TestOrderByWindowAvgAlias(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE t2 (dt DATE, id BIGINT, day VARCHAR(10) NOT NULL, region VARCHAR(8) NOT NULL) PARTITION BY LIST COLUMNS (day, region)",
		"INSERT INTO t2 VALUES ('2024-01-05', 10, '2024-01-03', 'eu')",
		"INSERT INTO t2 VALUES ('2024-01-02', 29, '2024-01-05', 'eu'), (NULL, 20, '2024-01-01', 'apac')")
	for q, want := range map[string]string{
		"SELECT AVG(id) OVER (PARTITION BY region ORDER BY dt) AS c0 FROM t2 ORDER BY c0":     "[19.5000] [20.0000] [29.0000]",
		"SELECT AVG(id) OVER (PARTITION BY region) AS c0 FROM t2 ORDER BY c0 DESC":            "[20.0000] [19.5000] [19.5000]",
		"SELECT region, AVG(id) OVER (PARTITION BY region) AS c0 FROM t2 ORDER BY c0, region": "[eu 19.5000] [eu 19.5000] [apac 20.0000]",
	} {
		if got := strings.Join(format(c.mustQuery(q)), " "); got != want {
			t.Errorf("%s:\n got %s\nwant %s", q, got, want)
		}
	}
}
