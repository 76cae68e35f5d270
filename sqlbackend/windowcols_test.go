package sqlbackend

import "testing"

// A correlated subquery beside a window function reads its outer columns
// through the Window: GMS's Window (and the Project over it) did not pass
// them on, and the subquery read another field of the row ('unable to
// find field with index 5 in row of 3 columns', a DATETIME where a
// DECIMAL was expected).
func TestWindowBesideCorrelatedSubquery(t *testing.T) {
	c := newHarness(t, t.TempDir()).connect()
	c.mustExec("CREATE DATABASE w", "USE w",
		"CREATE TABLE t (id BIGINT, k INT, tag VARCHAR(8), note VARCHAR(16), ts DATETIME, rate DECIMAL(9,3))",
		`INSERT INTO t VALUES (37, NULL, 'abc', 'euum8', '2024-01-01 23:30:00', 2.875),
			(38, 2, 'abc', 'zz', '2024-01-02 00:00:00', 1.5), (39, 3, 'x', 'aa', NULL, NULL)`)
	queries := map[string][]string{
		"SELECT (SELECT MAX(b.note) FROM t b WHERE b.tag = a.tag) AS c0, COUNT(*) OVER () AS c1 FROM t a": {
			"[aa 3]", "[zz 3]", "[zz 3]",
		},
		"SELECT (SELECT MAX(b.note) FROM t b WHERE b.rate = a.rate) AS c0, a.ts, a.id, ROW_NUMBER() OVER (PARTITION BY a.k ORDER BY a.id) FROM t a": {
			"[<nil> <nil> 39 1]", "[euum8 2024-01-01 23:30:00 +0000 UTC 37 1]", "[zz 2024-01-02 00:00:00 +0000 UTC 38 1]",
		},
		"SELECT (SELECT MAX(b.note) FROM t b WHERE b.tag = a.tag), COUNT(*) OVER (PARTITION BY a.tag) FROM t a ORDER BY 1, 2": {
			"[aa 1]", "[zz 2]", "[zz 2]",
		},
		"SELECT a.id, (SELECT COUNT(*) FROM t b WHERE b.id < a.id) + ROW_NUMBER() OVER (ORDER BY a.id) FROM t a": {
			"[37 1]", "[38 3]", "[39 5]",
		},
		"SELECT x.id FROM (SELECT a.id, (SELECT MAX(b.note) FROM t b WHERE b.tag = a.tag) AS c0, SUM(a.k) OVER () AS c1 FROM t a) x WHERE x.c0 = 'zz'": {
			"[37]", "[38]",
		},
	}
	for q, want := range queries {
		wantQueryRows(t, c, q, want)
	}
}
