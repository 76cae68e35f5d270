package sqlbackend

import "testing"

// CAST to DECIMAL(M,D) rounds half away from zero to D digits and clamps
// what does not fit to the type's extreme, and GREATEST and LEAST of
// DECIMALs answer a DECIMAL of the largest scale, as in MariaDB 10.11;
// GMS gave 0 (or 99999 for DECIMAL(3,0)) and failed on DECIMAL arguments.
func TestDecimalCastsAndExtremes(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id BIGINT NOT NULL, n BIGINT, amt DECIMAL(12,3), s VARCHAR(20), PRIMARY KEY (id))",
		"INSERT INTO t VALUES (1, 123456, 1.005, '99999'), (2, -123456, -99.995, '-99999'), (3, NULL, NULL, NULL)")
	for _, rewrites := range []string{"ON", "OFF"} {
		c.mustExec("SET lakesql_planner_rewrites = " + rewrites)
		for q, want := range map[string]string{
			"SELECT CAST(123456 AS DECIMAL(4,2))":                  "99.99",
			"SELECT CAST(-123456.789 AS DECIMAL(5,1))":             "-9999.9",
			"SELECT CAST(1e10 AS DECIMAL(4,2))":                    "99.99",
			"SELECT CAST(-1e100 AS DECIMAL(4,2))":                  "-99.99",
			"SELECT CAST('99999' AS DECIMAL(3,0))":                 "999",
			"SELECT CAST('-99999' AS DECIMAL(3))":                  "-999",
			"SELECT CAST(1.005 AS DECIMAL(3,2))":                   "1.01",
			"SELECT CAST(-1.005 AS DECIMAL(3,2))":                  "-1.01",
			"SELECT CAST(99.995 AS DECIMAL(4,2))":                  "99.99",
			"SELECT CAST(NULL AS DECIMAL(3,1))":                    "NULL",
			"SELECT CAST(12.5 AS DECIMAL(10,2))":                   "12.50",
			"SELECT GREATEST(1.5, 2.25)":                           "2.25",
			"SELECT LEAST(1.5, 2.25)":                              "1.50",
			"SELECT GREATEST(1, 2.5)":                              "2.5",
			"SELECT LEAST(3, 2.50)":                                "2.50",
			"SELECT GREATEST(1.5, NULL)":                           "NULL",
			"SELECT GREATEST(-1.5, -2)":                            "-1.5",
			"SELECT LEAST(2, 1.999)":                               "1.999",
			"SELECT CAST(' 12abc' AS DECIMAL(5,1))":                "12.0",
			"SELECT CAST('abc' AS DECIMAL(5,1))":                   "0.0",
			"SELECT CAST('1e3' AS DECIMAL(5,1))":                   "1000.0",
			"SELECT CAST('123456.7' AS DECIMAL(5,1))":              "9999.9",
			"SELECT GREATEST(3, 7)":                                "7",
			"SELECT CAST(n AS DECIMAL(4,2)) FROM t WHERE id = 1":   "99.99",
			"SELECT CAST(amt AS DECIMAL(3,2)) FROM t WHERE id = 1": "1.01",
			"SELECT CAST(amt AS DECIMAL(4,2)) FROM t WHERE id = 2": "-99.99",
			"SELECT CAST(s AS DECIMAL(3,0)) FROM t WHERE id = 2":   "-999",
			"SELECT CAST(n AS DECIMAL(5,1)) FROM t WHERE id = 3":   "NULL",
			"SELECT GREATEST(n, amt) FROM t WHERE id = 1":          "123456.000",
			"SELECT LEAST(n, amt) FROM t WHERE id = 2":             "-123456.000",
			"SELECT LEAST(n, amt, 1) FROM t WHERE id = 3":          "NULL",
		} {
			c.expectTyped(t, q, false, nil, want)
		}
	}
}
