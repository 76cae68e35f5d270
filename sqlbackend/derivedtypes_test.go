package sqlbackend

import (
	"slices"
	"testing"
)

// A derived table's columns keep the types lakesql gives its
// expressions: SUM of an integer or a DECIMAL is a DECIMAL through it too
// (GMS typed the references as its own DOUBLE).
func TestDerivedTableTypes(t *testing.T) {
	c := newHarness(t, t.TempDir()).connect()
	c.mustExec("CREATE DATABASE w", "USE w", "CREATE TABLE t (k INT, g VARCHAR(4), amt DECIMAL(12,2))",
		"INSERT INTO t VALUES (1, 'a', 2.50), (2, 'a', 3.25), (3, 'b', NULL)")
	q := "SELECT x.a, x.s, y.s FROM (SELECT g, SUM(k) s, SUM(amt) a FROM t GROUP BY g) x JOIN (SELECT SUM(x2.s) s FROM (SELECT SUM(k) s FROM t) x2) y ON TRUE"
	var got []string
	for _, col := range querySchema(t, c, q) {
		got = append(got, col.Type.String())
	}
	if want := []string{"decimal(34,2)", "decimal(32,0)", "decimal(54,0)"}; !slices.Equal(got, want) {
		t.Errorf("types %q, want %q", got, want)
	}
	wantQueryRows(t, c, q, []string{"[5.75 3 6]", "[<nil> 3 6]"})
}
