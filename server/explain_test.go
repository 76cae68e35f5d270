package server_test

import (
	"strings"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
)

// TestExplainOfOneRowQueries checks that EXPLAIN prints the whole plan of a
// query that returns one row: GMS marks an ungrouped aggregate as a
// one-row query, and its handler then refused the plan's second line.
func TestExplainOfOneRowQueries(t *testing.T) {
	s := start(t, testConfig(t))
	db := s.Connect(t, "root", "")
	servertest.Exec(t, db,
		"CREATE DATABASE d",
		"CREATE TABLE d.t (id INT PRIMARY KEY, v INT)",
		"INSERT INTO d.t VALUES (1, 10), (2, 20)",
	)
	// COUNT(*) is answered from the table's row count (GMS's table_count);
	// the other aggregates from a pushed-down scan of the pinned snapshot.
	for q, want := range map[string]string{
		"EXPLAIN PLAN SELECT COUNT(*) FROM d.t":                     "table_count(t)",
		"EXPLAIN FORMAT=TREE SELECT COUNT(*) FROM d.t":              "table_count(t)",
		"EXPLAIN PLAN SELECT SUM(v), MAX(id) FROM d.t WHERE id = 1": "snapshot=1",
		// Plain EXPLAIN prints the same plan instead of GMS's placeholder
		// row, which drivers could not scan.
		"EXPLAIN SELECT * FROM d.t WHERE id = 2": "snapshot=1",
	} {
		lines := servertest.Column[string](t, db, q)
		if len(lines) < 2 || !strings.Contains(strings.Join(lines, "\n"), want) {
			t.Errorf("%s printed %q, want a plan of several lines with %q", q, lines, want)
		}
	}
	if got := queryString(t, db, "SELECT COUNT(*) FROM d.t"); got != "2" {
		t.Errorf("COUNT(*) = %s, want 2", got)
	}
}
