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
