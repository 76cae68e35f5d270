package sqlbackend

import "testing"

// TestOnlyReadsRunOnDuckDB: the SELECT of a write keeps reading through
// GMS, whose read paths the write's checks are built on.
func TestOnlyReadsRunOnDuckDB(t *testing.T) {
	for q, want := range map[string]bool{
		"SELECT 1": true,
		"/* c */ (SELECT a FROM t) UNION ALL (SELECT 1)": true,
		"with x as (select 1) select * from x":           true,
		"EXPLAIN PLAN SELECT a FROM t":                   true,
		"EXPLAIN FORMAT=TREE SELECT a":                   true,
		"INSERT INTO t SELECT * FROM u":                  false,
		"EXPLAIN INSERT INTO t SELECT * FROM u":          false,
		"CREATE TABLE t AS SELECT 1":                     false,
		"UPDATE t SET a = 1":                             false,
	} {
		if got := readOnlyStatement(q); got != want {
			t.Errorf("readOnlyStatement(%q) = %v, want %v", q, got, want)
		}
	}
}
