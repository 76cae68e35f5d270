package sqlbackend

import "testing"

// COALESCE, IFNULL, CASE and IF have the aggregate type of their values,
// as in MySQL: the literal's narrow DECIMAL does not reject a wider column
// value, a DATE stays a date when the aggregate is a string, and DECIMALs
// keep the largest scale.
func TestCoalesceAndCaseTypes(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id BIGINT NOT NULL, k INT, amt DECIMAL(12,2), rate DECIMAL(9,3), score DOUBLE, dt DATE, ts DATETIME, PRIMARY KEY (id))",
		"INSERT INTO t VALUES (1, 100, 115.25, 1.125, 7.5, '2024-01-01', '2024-01-05 23:59:00'), (2, NULL, NULL, NULL, NULL, NULL, NULL)")
	for _, tc := range []struct {
		q     string
		types []string
		rows  []string
	}{
		{"SELECT COALESCE(amt, 53.50) FROM t", []string{"decimal(12,2)"}, []string{"115.25", "53.50"}},
		{"SELECT COALESCE(k, 2.5) FROM t", []string{"decimal(11,1)"}, []string{"100.0", "2.5"}},
		{"SELECT COALESCE(rate, amt) FROM t", []string{"decimal(13,3)"}, []string{"1.125", "NULL"}},
		{"SELECT COALESCE(score, amt) FROM t", []string{"double"}, []string{"7.5", "NULL"}},
		{"SELECT COALESCE(dt, '2024-02-29') FROM t", []string{"longtext"}, []string{"2024-01-01", "2024-02-29"}},
		{"SELECT COALESCE(dt, ts) FROM t", []string{"datetime"}, []string{"2024-01-01 00:00:00", "NULL"}},
		{"SELECT CASE WHEN id = 1 THEN amt ELSE rate END FROM t", []string{"decimal(13,3)"}, []string{"115.250", "NULL"}},
		{"SELECT CASE id WHEN 2 THEN 2.5 ELSE k END FROM t", []string{"decimal(11,1)"}, []string{"100.0", "2.5"}},
		{"SELECT CASE WHEN id = 1 THEN dt ELSE 'none' END FROM t", []string{"longtext"}, []string{"2024-01-01", "none"}},
		{"SELECT IF(id = 1, amt, rate) FROM t", []string{"decimal(13,3)"}, []string{"115.250", "NULL"}},
		{"SELECT IF(id = 2, 0.5, k) FROM t", []string{"decimal(11,1)"}, []string{"100.0", "0.5"}},
		{"SELECT IFNULL(dt, 'none') FROM t", []string{"longtext"}, []string{"2024-01-01", "none"}},
		{"SELECT IFNULL(k, 2.5) FROM t", []string{"decimal(11,1)"}, []string{"100.0", "2.5"}},
	} {
		c.expectTyped(t, tc.q, false, tc.types, tc.rows...)
	}
	// References to the retyped column, from ORDER BY and from outside a
	// derived table, compare and report the new type.
	c.expectTyped(t, "SELECT s.c0 FROM (SELECT COALESCE(amt, 153.50) AS c0 FROM t) s ORDER BY s.c0 DESC", true,
		[]string{"decimal(12,2)"}, "153.50", "115.25")
	c.expectTyped(t, "SELECT COALESCE(amt, 153.50) AS c0 FROM t ORDER BY c0", true,
		[]string{"decimal(12,2)"}, "115.25", "153.50")
}

// A single-table UPDATE, which skips GMS's custom rule batches, assigns
// COALESCE of a column and a narrower DECIMAL literal.
func TestUpdateSetCoalesceOfNarrowLiteral(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id BIGINT NOT NULL, amt DECIMAL(12,2), PRIMARY KEY (id))",
		"INSERT INTO t VALUES (1, 156.75), (2, NULL)",
		"UPDATE t SET amt = COALESCE(amt, 98.75) WHERE id < 3")
	c.expectTyped(t, "SELECT id, amt FROM t", false, []string{"bigint", "decimal(12,2)"}, "1 | 156.75", "2 | 98.75")
}
