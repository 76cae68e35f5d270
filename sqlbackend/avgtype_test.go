package sqlbackend

import "testing"

// AVG of an integer or a DECIMAL is a DECIMAL with 4 more decimals,
// computed exactly and rounded half away from zero, as in MySQL; AVG of a
// DOUBLE stays a DOUBLE.
func TestAvgOfExactValuesIsDecimal(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id BIGINT NOT NULL, k INT, n BIGINT, amt DECIMAL(12,2), score DOUBLE, g INT, PRIMARY KEY (id))",
		"INSERT INTO t VALUES (1, 5, 9007199254740993, 1.25, 1.5, 1), (2, 6, 9007199254740993, 1.30, 2.5, 1),"+
			" (3, NULL, NULL, NULL, NULL, 2), (4, -3, -7, -1.11, 0, 3), (5, -4, -8, -1.12, 0, 3), (6, 2, 1, 0.01, 0, 4),"+
			" (7, 0, 1, 0.01, 0, 4), (8, 0, 0, 0.00, 0, 4)")
	c.expectTyped(t, "SELECT g, AVG(k), AVG(n), AVG(amt), AVG(score) FROM t GROUP BY g", false,
		[]string{"int", "decimal(14,4)", "decimal(23,4)", "decimal(16,6)", "double"},
		"1 | 5.5000 | 9007199254740993.0000 | 1.275000 | 2",
		"2 | NULL | NULL | NULL | NULL",
		"3 | -3.5000 | -7.5000 | -1.115000 | 0",
		"4 | 0.6667 | 0.6667 | 0.006667 | 0")
	c.expectTyped(t, "SELECT AVG(DISTINCT k) FROM t WHERE g = 4", false, []string{"decimal(14,4)"}, "1.0000")
	c.expectTyped(t, "SELECT AVG(k) FROM t WHERE id > 100", false, []string{"decimal(14,4)"}, "NULL")
	c.expectTyped(t, "SELECT s.a FROM (SELECT g, AVG(amt) AS a FROM t GROUP BY g) s WHERE s.a IS NOT NULL ORDER BY s.a", true,
		[]string{"decimal(16,6)"}, "-1.115000", "0.006667", "1.275000")
}
