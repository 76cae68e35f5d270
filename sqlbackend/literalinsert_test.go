package sqlbackend

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dolthub/go-mysql-server/sql/plan"
)

const literalColumns = `(id INT NOT NULL, b BOOLEAN, ti TINYINT, si SMALLINT, bi BIGINT, f DOUBLE,
	d DECIMAL(10,2), v VARCHAR(5), c CHAR(3), dt DATE, ts DATETIME(3), PRIMARY KEY (id))`

// literalRows are INSERT values over literalColumns: exact values of
// every type the literal path converts, and values MySQL rounds, cuts or
// refuses, which it leaves to GMS.
var literalRows = []string{
	`(1, 1, 127, -32768, 9223372036854775807, 1.5, 1.25, 'abcde', 'ab', '2024-02-29', '2024-01-01 10:11:12.123')`,
	`(2, 0, -128, 0, -9223372036854775808, '1e3', '-0.5', 'héllo', 'abc', '2024-1-5', '2024-01-01')`,
	`(3, 2, '12', '007', '+5', -0.0, 12345678.99, '', '', '1999-12-31', '2024-01-01 23:59:59.999')`,
	`(4, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`,
	`(5, '1', '-0', 1, 1, '.5', '5.', 'a', 'a  ', '2024-12-31', '2024-01-01T00:00:01')`,
	`(6, 1, 128, 1, 1, 1, 1, 'a', 'a', '2024-01-01', NULL)`,
	`(7, 1, 1, 1, 1, 1, 1, 'abcdef', 'a', '2024-01-01', NULL)`,
	`(8, 1, 1, 1, 1, 1, 1.005, 'a', 'a', '2024-01-01', NULL)`,
	`(9, 1, 1, 1, 1, 1, 1, 'abcde  ', 'a', '2024-01-01', NULL)`,
	`(10, 1, 1, 1, 1, 1, 1, 'a', 'a', '2023-02-29', NULL)`,
	`(11, 1, 1, 1, 1, 1, '1e2', 'a', 'a', '2024-01-01', NULL)`,
	`(12, 1, ' 12', 1, 1, 1, 1, 'a', 'a', '2024-01-01', NULL)`,
	`(13, 1, 1, 1, 1, 1, 1, 'a', 'a', '2024-01-01', '2024-01-01 10:00:00.12345')`,
	`(14, 1, '12abc', 1, 1, 1, 1, 'a', 'a', '2024-01-01', NULL)`,
	`(15, 1, 1, 1, 1, 1, 99999999.999, 'a', 'a', '2024-01-01', NULL)`,
	`(16, 1, 1, 1, '9223372036854775808', 1, 1, 'a', 'a', '2024-01-01', NULL)`,
	`(17, 1, 1, 1, 1, 1, 1, 'a', 'abcd', '2024-01-01', NULL)`,
	`(18, 1, 1, 1, 1, 1, 1, 'a', 'a', '20240101', NULL)`,
	`(19, NULL, 1, 1, 1, 1, 1, 'a', 'a', '2024-01-01', NULL), (20, 1, 1, 1, 1, 1, 1, 'a', 'a', '2024-01-01', NULL)`,
	`(NULL, 1, 1, 1, 1, 1, 1, 'a', 'a', '2024-01-01', NULL)`,
}

// An INSERT of literals writes the same rows, or fails with the same
// error, with the literal path (rewrites on) as on GMS (rewrites off).
func TestLiteralInsertMatchesGMS(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE lit", "USE lit",
		"CREATE TABLE fast "+literalColumns, "CREATE TABLE slow "+literalColumns)
	taken := 0
	for _, values := range literalRows {
		c.mustExec("SET lakesql_planner_rewrites = ON")
		if literalPathRows(t, h, c, "INSERT INTO fast VALUES "+values) > 0 {
			taken++
		}
		_, fastErr := c.query("INSERT INTO fast VALUES " + values)
		fastCount := format(c.mustQuery("SELECT ROW_COUNT()"))
		c.mustExec("SET lakesql_planner_rewrites = OFF")
		_, slowErr := c.query("INSERT INTO slow VALUES " + values)
		slowCount := format(c.mustQuery("SELECT ROW_COUNT()"))
		if outcome(fastErr) != outcome(slowErr) || !slices.Equal(fastCount, slowCount) {
			t.Errorf("%s: literal path %v, ROW_COUNT() %v; GMS %v, %v", values, fastErr, fastCount, slowErr, slowCount)
		}
	}
	if taken < 5 {
		t.Errorf("%d statements took the literal path", taken)
	}
	c.mustExec("SET lakesql_planner_rewrites = OFF")
	fast := format(c.mustQuery("SELECT * FROM fast ORDER BY id"))
	slow := format(c.mustQuery("SELECT * FROM slow ORDER BY id"))
	if !slices.Equal(fast, slow) || len(fast) < 5 {
		t.Errorf("literal path:\n%s\nGMS:\n%s", strings.Join(fast, "\n"), strings.Join(slow, "\n"))
	}
}

// outcome is a statement's error number, or ok.
func outcome(err error) string {
	if err == nil {
		return "ok"
	}
	return fmt.Sprint(errorCode(err))
}

// The literal path takes a bulk INSERT of exact values, and leaves one
// with a column left to its default to GMS.
func TestBulkInsertTakesTheLiteralPath(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE lit", "USE lit", "CREATE TABLE fast "+literalColumns)
	literalRowsOf := func(q string) int { return literalPathRows(t, h, c, q) }
	if n := literalRowsOf("INSERT INTO fast (dt, id, v) VALUES ('2024-01-01', 1, 'a'), ('2024-01-02', 2, NULL)"); n != -1 {
		t.Errorf("a column list leaving columns to their defaults took the literal path")
	}
	exact := "INSERT INTO fast VALUES " + literalRows[0] + "," + literalRows[1] + "," + literalRows[3]
	if n := literalRowsOf(exact); n != 3 {
		t.Errorf("an INSERT of three rows of exact values took the literal path with %d rows", n)
	}
	// The engine builds it so, unless rewrites are off.
	for _, on := range []bool{true, false} {
		c.mustExec(fmt.Sprintf("SET lakesql_planner_rewrites = %v", on))
		n, err := h.engine.AnalyzeQuery(c.context(), exact)
		if err != nil {
			t.Fatal(err)
		}
		iter, err := h.engine.Analyzer.ExecBuilder.Build(c.context(), n, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, literal := iter.(*writeOnceIter); literal != on {
			t.Errorf("rewrites %v: the engine built %T", on, iter)
		}
		_ = iter.Close(c.context())
	}
}

// literalPathRows is the number of rows the literal path writes for the
// INSERT q, or -1 when GMS runs it.
func literalPathRows(t *testing.T, h *harness, c *conn, q string) int {
	t.Helper()
	n, err := h.engine.AnalyzeQuery(c.context(), q)
	if err != nil {
		t.Fatal(err)
	}
	insert, ok := n.(*plan.InsertInto)
	if !ok {
		return -1
	}
	node, ok := newLiteralInsertNode(insert)
	if !ok {
		return -1
	}
	return len(node.rows)
}
