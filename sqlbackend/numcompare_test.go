package sqlbackend

import (
	"fmt"
	"strings"
	"testing"
)

// A DOUBLE compared with a DECIMAL compares as floating point, and two
// DECIMALs compare exactly, as in MySQL: GMS compared in the DECIMAL
// column's type, rounding the other side to its scale, or failed when a
// value did not fit a literal's DECIMAL type.
func TestDecimalComparisons(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id BIGINT NOT NULL, score DOUBLE, qty DECIMAL(6,0), amt DECIMAL(12,2), rate DECIMAL(9,3), PRIMARY KEY (id))",
		"INSERT INTO t VALUES (1, 7.5, 8, 1.13, 1.125), (2, -14.4, -14, 2.00, 2.000), (3, -20.00, 31, 3.50, 3.500)")
	for _, rewrites := range []string{"ON", "OFF"} {
		c.mustExec("SET lakesql_planner_rewrites = " + rewrites)
		for q, want := range map[string][]string{
			"SELECT id FROM t WHERE score < qty":                                        {"1", "2", "3"},
			"SELECT id FROM t WHERE qty > score":                                        {"1", "2", "3"},
			"SELECT id FROM t WHERE score BETWEEN qty - 1 AND qty - 0.5":                {"1"},
			"SELECT id FROM t WHERE id IN (SELECT a.id FROM t a WHERE a.score < a.qty)": {"1", "2", "3"},
			"SELECT id FROM t WHERE rate IN (1.13, id + 10)":                            {},
			"SELECT id FROM t WHERE amt IN (1.125, id + 10)":                            {},
			"SELECT id FROM t WHERE score IN (-14.40, id + 10)":                         {"2"},
			"SELECT id FROM t WHERE score IN (7.4, 7.5, id + 10)":                       {"1"},
			"SELECT id FROM t WHERE amt = rate":                                         {"2", "3"},
			"SELECT id FROM t WHERE rate < amt":                                         {"1"},
			"SELECT id FROM t WHERE score = 3.50 OR score > 7.4":                        {"1"},
			"SELECT a.id, b.id FROM t a JOIN t b ON b.score = a.qty":                    {},
			"SELECT a.id, b.id FROM t a LEFT JOIN t b ON b.score = 3.50":                {"1 | NULL", "2 | NULL", "3 | NULL"},
			"SELECT a.id, b.id FROM t a JOIN t b ON b.rate = a.amt":                     {"2 | 2", "3 | 3"},
			"SELECT a.id, b.id FROM t a JOIN t b ON a.id = b.id AND b.qty > 7":          {"1 | 1", "3 | 3"},
		} {
			c.expectTyped(t, q, false, nil, want...)
		}
	}
	c.mustExec("UPDATE t SET score = 18.75 WHERE score < qty AND id = 1")
	c.expectTyped(t, "SELECT id, score FROM t WHERE id = 1", false, []string{"bigint", "double"}, "1 | 18.75")
}

// Hash joins find the matches of keys of different types: strings of
// different lengths, integers of different widths, DECIMALs of different
// scales, with no error.
func TestHashJoinKeysOfDifferentTypes(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE a (id BIGINT NOT NULL, day VARCHAR(10), n BIGINT, amt DECIMAL(12,2), PRIMARY KEY (id))",
		"CREATE TABLE b (id BIGINT NOT NULL, tag VARCHAR(8), k INT, qty DECIMAL(6,0))")
	var as, bs []string
	for i := range 200 {
		as = append(as, fmt.Sprintf("(%d, 'd%09d', %d, %d.%02d)", i, i, int64(i)*100_000_000, i, (i%2)*50))
		bs = append(bs, fmt.Sprintf("(%d, 'd%d', %d, %d)", i, i, i*100_000_000%2_000_000_000, i))
	}
	c.mustExec("INSERT INTO a VALUES "+strings.Join(as, ", "), "INSERT INTO b VALUES "+strings.Join(bs, ", "))
	for q, want := range map[string]string{
		// 'd000000007' is no tag: no match, and no "too large" error.
		"SELECT COUNT(*) FROM a JOIN b ON b.tag = a.day": "0",
		"SELECT COUNT(*) FROM b JOIN a ON a.day = b.tag": "0",
		// n runs past INT's range; k wraps below 2e9.
		"SELECT COUNT(*) FROM a JOIN b ON b.k = a.n": "200",
		// amt = i.50 for odd i never equals qty = i.
		"SELECT COUNT(*) FROM a JOIN b ON b.qty = a.amt": "100",
	} {
		plan := strings.Join(format(c.mustQuery("EXPLAIN PLAN "+q)), "\n")
		if !strings.Contains(plan, "HashJoin") {
			t.Errorf("%s is not a hash join:\n%s", q, plan)
		}
		c.expectTyped(t, q, false, []string{"bigint"}, want)
	}
}

// A decimal literal compared with a DECIMAL column keeps its value: GMS's
// planbuilder converted it to the column's type, rounding qty = 7.5 with
// qty DECIMAL(6,0) to qty = 8. Literals of the column's scale or less are
// still pushed into the scan.
func TestDecimalLiteralComparedWithColumn(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id BIGINT NOT NULL, qty DECIMAL(6,0), amt DECIMAL(12,2), PRIMARY KEY (id))",
		"INSERT INTO t VALUES (1, 8, 2.51), (2, 7, 2.50)")
	for _, rewrites := range []string{"ON", "OFF"} {
		c.mustExec("SET lakesql_planner_rewrites = " + rewrites)
		for q, want := range map[string][]string{
			"SELECT id FROM t WHERE qty = 7.5":                                  {},
			"SELECT id FROM t WHERE qty <> 7.5":                                 {"1", "2"},
			"SELECT id FROM t WHERE amt > 2.505":                                {"1"},
			"SELECT id FROM t WHERE 2.505 < amt":                                {"1"},
			"SELECT id FROM t WHERE amt <= 2.505":                               {"2"},
			"SELECT id FROM t WHERE qty IN (SELECT qty FROM t WHERE qty > 7.5)": {"1"},
			"SELECT a.id FROM t a JOIN t b ON b.qty = 7.5":                      {},
			"SELECT amt > 2.505, qty = 7.5 FROM t WHERE id = 1":                 {"1 | 0"},
		} {
			c.expectTyped(t, q, false, nil, want...)
		}
	}
	c.mustExec("SET lakesql_planner_rewrites = ON")
	plan := strings.Join(format(c.mustQuery("EXPLAIN PLAN SELECT id FROM t WHERE amt > 2.5")), "\n")
	if !strings.Contains(plan, "pushed[amt > 2.50]") {
		t.Errorf("amt > 2.5 is not pushed:\n%s", plan)
	}
	c.mustExec("UPDATE t SET amt = 0 WHERE qty = 7.5", "DELETE FROM t WHERE qty = 7.5")
	c.expectTyped(t, "SELECT id, amt FROM t", false, nil, "1 | 2.51", "2 | 2.50")
}

// A hash join of a DATE with a string (or a DATETIME) matches by the
// datetime values: the DATE key converted to the string's type read
// '2024-02-29 00:00:00' and never matched '2024-02-29'.
func TestHashJoinOnDateAndString(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id BIGINT NOT NULL, dt DATE, ts DATETIME, n BIGINT)",
		"INSERT INTO t VALUES (1, '2024-02-29', '2024-02-29 00:00:00', 17), (2, '2024-01-02', '2024-01-02 10:00:00', 27),"+
			" (3, '2024-01-05', '2024-01-02 00:00:00', 22)")
	var more []string
	for i := 4; i < 100; i++ {
		more = append(more, fmt.Sprintf("(%d, '2023-01-01', NULL, %d)", i, i))
	}
	c.mustExec("INSERT INTO t VALUES " + strings.Join(more, ", "))
	q := "SELECT COUNT(*), COUNT(a3.id) FROM t a1 LEFT JOIN t a3 ON a3.dt = '2024-02-29'"
	plan := strings.Join(format(c.mustQuery("EXPLAIN PLAN "+q)), "\n")
	if !strings.Contains(plan, "HashJoin") {
		t.Errorf("%s is not a hash join:\n%s", q, plan)
	}
	c.expectTyped(t, q, false, nil, "99 | 99")
	c.expectTyped(t, "SELECT a.id, b.id FROM t a JOIN t b ON b.ts = a.dt", false, nil, "1 | 1", "2 | 3")
}
