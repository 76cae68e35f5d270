package sqlbackend

import "testing"

// A UNION column has the type MySQL aggregates over all its SELECTs, and
// each SELECT's values are converted straight to it.
func TestUnionColumnTypes(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id BIGINT NOT NULL, k INT, amt DECIMAL(12,2), rate DECIMAL(9,3), score DOUBLE, dt DATE, ts DATETIME, PRIMARY KEY (id))",
		"INSERT INTO t VALUES (1, 5, 22.00, 1.125, 1.5, '2024-01-01', '2024-01-05 23:59:00')")
	for _, tc := range []struct {
		q     string
		types []string
		rows  []string
	}{
		{"SELECT score FROM t UNION ALL SELECT id FROM t", []string{"double"}, []string{"1.5", "1"}},
		{"SELECT score FROM t UNION SELECT rate FROM t UNION SELECT amt FROM t", []string{"double"}, []string{"1.5", "1.125", "22"}},
		{"SELECT k FROM t UNION SELECT amt FROM t", []string{"decimal(12,2)"}, []string{"5.00", "22.00"}},
		{"SELECT id FROM t UNION ALL SELECT amt FROM t UNION ALL SELECT rate FROM t", []string{"decimal(22,3)"}, []string{"1.000", "22.000", "1.125"}},
		{"SELECT dt FROM t UNION ALL SELECT ts FROM t", []string{"datetime"}, []string{"2024-01-01 00:00:00", "2024-01-05 23:59:00"}},
		// DATE with DATETIME and a string is a string: the DATE is its date.
		{"SELECT dt FROM t UNION ALL SELECT ts FROM t UNION ALL SELECT 'x'", []string{"longtext"},
			[]string{"2024-01-01", "2024-01-05 23:59:00", "x"}},
		{"SELECT NULL UNION ALL SELECT amt FROM t", []string{"decimal(12,2)"}, []string{"NULL", "22.00"}},
		// A DECIMAL expression and a column DECIMAL of the same precision
		// and scale, which GMS's union validation tells apart.
		{"SELECT id / 2 FROM t UNION ALL SELECT k FROM t", []string{"decimal(65,4)"}, []string{"0.5000", "5.0000"}},
		{"SELECT u.c FROM (SELECT k AS c FROM t UNION SELECT amt FROM t) u WHERE u.c > 5.5", []string{"decimal(12,2)"}, []string{"22.00"}},
	} {
		c.expectTyped(t, tc.q, false, tc.types, tc.rows...)
	}
}

// ORDER BY, LIMIT and OFFSET after the last SELECT apply to the whole
// union: the offset counts sorted rows, and the sort compares the union's
// type, not the first SELECT's.
func TestUnionOrderByLimitOffset(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id BIGINT NOT NULL, k INT, amt DECIMAL(12,2), region VARCHAR(8), PRIMARY KEY (id))",
		"INSERT INTO t VALUES (1, 3, 62.25, 'us'), (2, 4, 61.75, 'eu'), (3, 5, 61.80, 'apac')")
	c.expectTyped(t, "SELECT region AS c0 FROM t WHERE id < 3 UNION SELECT region FROM t WHERE id < 3 ORDER BY c0 DESC LIMIT 4 OFFSET 1", true,
		[]string{"varchar(8)"}, "eu")
	c.expectTyped(t, "SELECT k AS c0 FROM t WHERE id > 9 UNION SELECT amt FROM t ORDER BY c0", true,
		[]string{"decimal(12,2)"}, "61.75", "61.80", "62.25")
	c.expectTyped(t, "SELECT k AS c0 FROM t UNION SELECT amt FROM t ORDER BY c0 DESC LIMIT 2 OFFSET 2", true,
		[]string{"decimal(12,2)"}, "61.75", "5.00")
	c.expectTyped(t, "SELECT k AS c0 FROM t UNION ALL SELECT k FROM t ORDER BY c0 LIMIT 3 OFFSET 1", true,
		[]string{"int"}, "3", "4", "4")
}
