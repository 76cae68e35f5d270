package sqlbackend

import (
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
