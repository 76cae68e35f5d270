package sqlbackend

import (
	"slices"
	"strings"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
)

// The empty string is a value like any other: a filter on it finds the
// rows holding it, though it is the smallest value of their data file.
func TestFilterOnEmptyString(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE keyed (k VARCHAR(6) PRIMARY KEY, v INT)",
		"CREATE TABLE plain (k VARCHAR(6), v INT)",
		"INSERT INTO keyed VALUES ('', 0), ('a', 1)",
		"INSERT INTO plain VALUES ('', 0), ('a', 1)")
	for _, tbl := range []string{"keyed", "plain"} {
		wantRows(t, c, "SELECT v FROM "+tbl+" WHERE k = ''", "[0]")
		wantRows(t, c, "SELECT v FROM "+tbl+" WHERE k IN ('', 'b')", "[0]")
		wantRows(t, c, "SELECT v FROM "+tbl+" WHERE k < 'a'", "[0]")
	}
}

// A scalar subquery answered by the storage layer's aggregate works inside
// a query that reads rows: GMS puts the outer row in front of every row of
// the subquery, and the aggregate used to return its results alone
// ("unable to find field with index 3 in row of 1 columns").
func TestScalarSubqueryOfPushedAggregate(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE db", "USE db",
		"CREATE TABLE d (id BIGINT PRIMARY KEY, g INT, amt DECIMAL(10,2))",
		"CREATE TABLE e (x INT)",
		"INSERT INTO d VALUES (1, 1, 1.25), (2, 1, 2.25), (3, 2, 3.25)",
		"INSERT INTO e VALUES (1), (2)")
	for q, want := range map[string][]string{
		"SELECT id FROM d WHERE amt = (SELECT MAX(amt) FROM d)":                      {"[3]"},
		"SELECT id FROM d WHERE amt = (SELECT MAX(amt) FROM d x)":                    {"[3]"},
		"SELECT id FROM d WHERE amt < (SELECT MAX(amt) FROM d WHERE g = 1)":          {"[1]"},
		"SELECT id FROM d WHERE amt > (SELECT SUM(x) FROM e) ORDER BY id":            {"[3]"},
		"SELECT id, (SELECT COUNT(amt) FROM d) FROM d ORDER BY id":                   {"[1 3]", "[2 3]", "[3 3]"},
		"SELECT id FROM d WHERE id IN (SELECT MIN(id) FROM d) OR id = 2 ORDER BY id": {"[1]", "[2]"},
	} {
		wantRows(t, c, q, want...)
	}
	// EXPLAIN shows the subquery unnested into a join, which is not what runs.
	q := "SELECT id FROM d WHERE amt = (SELECT MAX(amt) FROM d)"
	n, err := h.engine.AnalyzeQuery(c.context().WithQuery(q), q)
	if err != nil {
		t.Fatal(err)
	}
	if plan := sql.DebugString(n); !strings.Contains(plan, "LakesqlAggregate") {
		t.Errorf("the subquery's aggregate is not pushed; the test does not test what it should:\n%s", plan)
	}
}

// SUM of an exact value (an integer or a DECIMAL, aggregated or over a
// window) is an exact DECIMAL(p+22, s), as in MySQL 8.0; SUM of a FLOAT or
// DOUBLE stays a DOUBLE. GMS made window sums and sums of integers DOUBLE
// and computed them as float64 (0.1 + 0.2, 2^53 + 3).
func TestSumOfExactValueIsExactDecimal(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id INT PRIMARY KEY, g INT, amt DECIMAL(10,2), s VARCHAR(10), f DOUBLE, b BIGINT)",
		"INSERT INTO t VALUES (1, 1, 0.10, 'ab', 0.5, 9007199254740993), (2, 1, 0.20, 'abc', 1.5, 1), "+
			"(3, 2, NULL, NULL, NULL, NULL), (4, 1, 0.30, '', 2.5, 1)")
	for _, tc := range []struct {
		q, typ string
		want   []string
	}{
		{"SELECT SUM(amt) OVER (PARTITION BY g ORDER BY id) FROM t ORDER BY id", "decimal(32,2)", []string{"[0.10]", "[0.30]", "[<nil>]", "[0.60]"}},
		{"SELECT SUM(amt) OVER (PARTITION BY g) FROM t ORDER BY id", "decimal(32,2)", []string{"[0.60]", "[0.60]", "[<nil>]", "[0.60]"}},
		{"SELECT SUM(amt) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t ORDER BY id", "decimal(32,2)", []string{"[0.10]", "[0.30]", "[0.20]", "[0.30]"}},
		{"SELECT SUM(b) OVER (ORDER BY id) FROM t ORDER BY id", "decimal(41,0)", []string{"[9007199254740993]", "[9007199254740994]", "[9007199254740994]", "[9007199254740995]"}},
		{"SELECT SUM(LENGTH(s)) FROM t", "decimal(32,0)", []string{"[5]"}},
		{"SELECT SUM(LENGTH(s)) FROM t GROUP BY g ORDER BY g", "decimal(32,0)", []string{"[5]", "[<nil>]"}},
		{"SELECT SUM(b) FROM t", "decimal(41,0)", []string{"[9007199254740995]"}},                  // storage's sum
		{"SELECT SUM(b) FROM t WHERE id + 0 > 0", "decimal(41,0)", []string{"[9007199254740995]"}}, // GMS's
		{"SELECT SUM(id) FROM t WHERE id + 0 > 0", "decimal(32,0)", []string{"[10]"}},
		{"SELECT SUM(f) FROM t", "double", []string{"[4.5]"}},
		{"SELECT SUM(f) OVER (ORDER BY id) FROM t ORDER BY id", "double", []string{"[0.5]", "[2]", "[2]", "[4.5]"}},
		// COALESCE and IFNULL of an exact SUM keep its DECIMAL (interop F21:
		// GMS typed them DOUBLE and answered 1.00025e+06).
		{"SELECT COALESCE(SUM(amt), 0) FROM t", "decimal(32,2)", []string{"[0.60]"}},
		{"SELECT COALESCE(SUM(amt), 0) FROM t WHERE id + 0 > 0", "decimal(32,2)", []string{"[0.60]"}},
		{"SELECT IFNULL(SUM(b), 0) FROM t GROUP BY g ORDER BY g", "decimal(41,0)", []string{"[9007199254740995]", "[0]"}},
	} {
		schema, rows := queryWithSchema(t, h, c, tc.q)
		if got := schema[len(schema)-1].Type.String(); got != tc.typ {
			t.Errorf("%s: type %s, want %s", tc.q, got, tc.typ)
		}
		if got := format(rows); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.q, got, tc.want)
		}
	}
}

func queryWithSchema(t *testing.T, h *harness, c *conn, q string) (sql.Schema, []sql.Row) {
	t.Helper()
	ctx := c.context().WithQuery(q)
	schema, iter, _, err := h.engine.Query(ctx, q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	rows, err := sql.RowIterToRows(ctx, iter)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return schema, rows
}
