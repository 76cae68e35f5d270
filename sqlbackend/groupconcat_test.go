package sqlbackend

import (
	"slices"
	"testing"
)

// TestGroupConcatOfSeveralExpressions: GROUP_CONCAT concatenates all its
// expressions per row and skips rows where any is NULL. The answers are
// MariaDB 10.11's for the same statements.
func TestGroupConcatOfSeveralExpressions(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	for _, q := range []string{
		"CREATE DATABASE gc",
		"CREATE TABLE gc.t (id INT PRIMARY KEY, g INT, v VARCHAR(10))",
		"INSERT INTO gc.t VALUES (1,1,'a'),(2,1,NULL),(3,1,'c'),(4,2,'d'),(5,2,'d')",
	} {
		c.mustQuery(q)
	}
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"SELECT g, GROUP_CONCAT(id, ':', v ORDER BY id DESC SEPARATOR '|') FROM gc.t GROUP BY g ORDER BY g", []string{"[1 3:c|1:a]", "[2 5:d|4:d]"}},
		{"SELECT GROUP_CONCAT(DISTINCT g, v ORDER BY g, v) FROM gc.t", []string{"[1a,1c,2d]"}},
		{"SELECT GROUP_CONCAT(v, id) FROM gc.t WHERE g = 2", []string{"[d4,d5]"}},
	} {
		if got := format(c.mustQuery(tc.query)); !slices.Equal(got, tc.want) {
			t.Errorf("%s\n got %v\nwant %v", tc.query, got, tc.want)
		}
	}
}

// TestGroupConcatOfRewrittenArgument: GROUP_CONCAT of an IFNULL, IF or
// COALESCE, which typeFlowFunctions rewrites, keeps its column (GMS
// v0.20.0's GroupConcat.WithChildren drops the aggregate's id; see
// gmsfix.keepExpressionIds), with the rewrites on and off, over a table
// and a system table. Answers as MariaDB gives them (regression case
// group-concat-of-ifnull-loses-its-column.sql).
func TestGroupConcatOfRewrittenArgument(t *testing.T) {
	_, c := paymentsHistory(t)
	for _, rewrites := range []string{"ON", "OFF"} {
		c.mustExec("SET lakesql_planner_rewrites = " + rewrites)
		wantRows(t, c, "SELECT GROUP_CONCAT(IFNULL(amount, 'n') ORDER BY pay_id) FROM payments", "[10.50,n,5.00]")
		wantRows(t, c, "SELECT dt, GROUP_CONCAT(IF(amount IS NULL, 0, amount) ORDER BY pay_id SEPARATOR '/') FROM payments GROUP BY dt ORDER BY dt",
			"[2026-04-16 10.50/0.00]", "[2026-04-17 5.00]")
		wantRows(t, c, "SELECT GROUP_CONCAT(COALESCE(status, pay_id) ORDER BY pay_id) FROM payments", "[SUCCESS,PENDING,SUCCESS]")
		wantRows(t, c, "SELECT COUNT(*) FROM (SELECT GROUP_CONCAT(IFNULL(first_row_id, 'null')) AS ids FROM `payments$files`) d WHERE ids LIKE 'null%'", "[1]")
	}
}
