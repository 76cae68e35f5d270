package rewrite

import "testing"

// Typed date and time literals become the CASTs of their MySQL types; the
// same words as names, time-travel values and column defaults stay.
func TestRewriteTypedLiterals(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"SELECT DATE '2024-01-02'", "SELECT CAST('2024-01-02' AS DATE)"},
		{"select date\t\"2024-01-02\" AS d", "select CAST(\"2024-01-02\" AS DATE) AS d"},
		{"SELECT TIMESTAMP '2024-01-02 06:30:00'", "SELECT CAST('2024-01-02 06:30:00' AS DATETIME)"},
		{"SELECT TIMESTAMP '2024-01-02 06:30:00.25'", "SELECT CAST('2024-01-02 06:30:00.25' AS DATETIME(2))"},
		{"SELECT TIMESTAMP '2024-01-02 06:30:00.1234567'", "SELECT CAST('2024-01-02 06:30:00.1234567' AS DATETIME(6))"},
		{"SELECT TIME '10:00:00'", "SELECT CAST('10:00:00' AS TIME)"},
		{"SELECT * FROM t WHERE dt = DATE '2024-01-02' AND ts < TIMESTAMP '2024-01-03 00:00:00'",
			"SELECT * FROM t WHERE dt = CAST('2024-01-02' AS DATE) AND ts < CAST('2024-01-03 00:00:00' AS DATETIME)"},
		{"SELECT a FROM t UNION SELECT DATE /* d */ '2024-01-02'", "SELECT a FROM t UNION SELECT CAST('2024-01-02' AS DATE)"},
		// Not typed literals.
		{"SELECT t.date 'd' FROM t", "SELECT t.date 'd' FROM t"},
		{"SELECT CAST(x AS DATE) FROM t", "SELECT CAST(x AS DATE) FROM t"},
		{"CREATE TABLE t (d DATE DEFAULT '2024-01-01' COMMENT 'day')", "CREATE TABLE t (d DATE DEFAULT '2024-01-01' COMMENT 'day')"},
		{"ALTER TABLE t ALTER d SET DEFAULT DATE '2024-01-01'", "ALTER TABLE t ALTER d SET DEFAULT DATE '2024-01-01'"},
		{"SELECT * FROM t AS OF TIMESTAMP '2026-04-16 10:00:00'", "SELECT * FROM t AS OF TIMESTAMP '2026-04-16 10:00:00'"},
		{"SELECT * FROM t FOR SYSTEM_TIME AS OF DATE '2026-04-16' WHERE d = DATE '2026-04-16'",
			"SELECT * FROM t FOR SYSTEM_TIME AS OF DATE '2026-04-16' WHERE d = CAST('2026-04-16' AS DATE)"},
		{"SELECT 'DATE ''x''' FROM t", "SELECT 'DATE ''x''' FROM t"},
	} {
		got, err := Rewrite(tc.in)
		if err != nil {
			t.Errorf("Rewrite(%q): %v", tc.in, err)
			continue
		}
		if got.Query != tc.want {
			t.Errorf("Rewrite(%q)\n got %q\nwant %q", tc.in, got.Query, tc.want)
		}
		if _, err := parseAll(got.Query); err != nil {
			t.Errorf("parse %q: %v", got.Query, err)
		}
	}
}
