package sqlbackend

import (
	"slices"
	"testing"
)

// groupedConn is a session in database w with table t (k, g, amt, id):
// groups by g: a {1, 2}, b {2, 3}, c {3}.
func groupedConn(t *testing.T) *conn {
	t.Helper()
	c := newHarness(t, t.TempDir()).connect()
	c.mustExec("CREATE DATABASE w", "USE w",
		"CREATE TABLE t (k INT, g VARCHAR(4), amt DECIMAL(12,2), id BIGINT)",
		`INSERT INTO t VALUES (1, 'a', 2.50, 1), (2, 'a', 3.25, 2), (2, 'b', 1.00, 3),
			(3, 'b', NULL, 4), (3, 'c', 7.00, 5)`)
	return c
}

// Window functions run after GROUP BY and HAVING, over the groups, and
// may use grouping columns and aggregates; GMS refused every window
// function beside an aggregate with error 1140.
func TestWindowOverGroups(t *testing.T) {
	c := groupedConn(t)
	queries := map[string][]string{
		"SELECT SUM(k) AS c0, ROW_NUMBER() OVER (ORDER BY k DESC) AS c1 FROM t GROUP BY k": {
			"[1 3]", "[4 2]", "[6 1]",
		},
		"SELECT g, k, SUM(amt), RANK() OVER (ORDER BY SUM(amt) DESC), SUM(COUNT(*)) OVER (PARTITION BY g) FROM t GROUP BY g, k": {
			"[a 1 2.50 3 2]", "[a 2 3.25 2 2]", "[b 2 1.00 4 2]", "[b 3 <nil> 5 2]", "[c 3 7.00 1 1]",
		},
		"SELECT COUNT(*), ROW_NUMBER() OVER () FROM t": {"[5 1]"},
		// HAVING names a select alias and runs before the window.
		"SELECT g AS c0, SUM(k) AS s, DENSE_RANK() OVER (ORDER BY SUM(k)) AS r FROM t GROUP BY g HAVING s > 3": {"[b 5 1]"},
		"SELECT DISTINCT g, COUNT(*) OVER () FROM t GROUP BY g, k":                                             {"[a 5]", "[b 5]", "[c 5]"},
		"SELECT k DIV 2 AS h, COUNT(*), SUM(COUNT(*)) OVER (ORDER BY k DIV 2) FROM t GROUP BY k DIV 2":         {"[0 1 1]", "[1 4 5]"},
		"SELECT ROW_NUMBER() OVER (ORDER BY g), g, SUM(k) FROM t GROUP BY 2":                                   {"[1 a 3]", "[2 b 5]", "[3 c 3]"},
		"SELECT g, (SELECT COUNT(*) FROM t x WHERE x.g = t.g), RANK() OVER (ORDER BY g DESC) FROM t GROUP BY g": {
			"[a 2 3]", "[b 2 2]", "[c 1 1]",
		},
		// A correlated subquery that groups.
		"SELECT o.id, (SELECT SUM(COUNT(*)) OVER () FROM t i WHERE i.k <= o.k GROUP BY i.g LIMIT 1) FROM t o": {
			"[1 1]", "[2 3]", "[3 3]", "[4 5]", "[5 5]",
		},
	}
	for q, want := range queries {
		wantQueryRows(t, c, q, want)
	}
	// ORDER BY and LIMIT apply after the window functions.
	wantRows(t, c, "SELECT g, MAX(amt) mx, ROW_NUMBER() OVER (ORDER BY g) FROM t GROUP BY g ORDER BY mx LIMIT 2",
		"[b 1.00 2]", "[a 3.25 1]")
	wantRows(t, c, "SELECT g, COUNT(*) FROM t GROUP BY g ORDER BY ROW_NUMBER() OVER (ORDER BY g DESC)",
		"[c 1]", "[b 2]", "[a 2]")
}

// The columns of a grouped block with window functions keep MySQL's
// names and types (SUM of an integer or a DECIMAL is a DECIMAL).
func TestWindowOverGroupsSchema(t *testing.T) {
	c := groupedConn(t)
	var got []string
	for _, col := range querySchema(t, c, "SELECT g, SUM(amt), SUM(k) AS s, RANK() OVER (ORDER BY SUM(amt)), SUM(SUM(k)) OVER () FROM t GROUP BY g") {
		got = append(got, col.Name+" "+col.Type.String())
	}
	want := []string{"g varchar(4)", "SUM(amt) decimal(34,2)", "s decimal(32,0)",
		"RANK() OVER (ORDER BY SUM(amt)) bigint unsigned", "SUM(SUM(k)) OVER () decimal(54,0)"}
	if !slices.Equal(got, want) {
		t.Errorf("columns %q, want %q", got, want)
	}
}

// OVER w takes w's ORDER BY, and with it MySQL's default frame (RANGE
// BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW); GMS gave it the frame of
// a window without ORDER BY, the whole partition.
func TestNamedWindow(t *testing.T) {
	c := groupedConn(t)
	want := []string{"[a 1 1]", "[a 2 3]", "[b 2 2]", "[b 3 5]", "[c 3 3]"}
	wantQueryRows(t, c, "SELECT g, k, SUM(k) OVER w FROM t WINDOW w AS (PARTITION BY g ORDER BY k)", want)
	wantQueryRows(t, c, "SELECT g, k, SUM(k) OVER (w ORDER BY k) FROM t WINDOW w AS (PARTITION BY g)", want)
	wantQueryRows(t, c, "SELECT g, k, SUM(k) OVER w2 FROM t WINDOW w AS (PARTITION BY g), w2 AS (w ORDER BY k)", want)
	wantQueryRows(t, c, "SELECT g, SUM(k) OVER w FROM t GROUP BY g, k WINDOW w AS (PARTITION BY g ORDER BY k)",
		[]string{"[a 1]", "[a 3]", "[b 2]", "[b 5]", "[c 3]"})
}
