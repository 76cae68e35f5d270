package sqlbackend

import (
	"fmt"
	"strings"
	"testing"
)

// notExistsTables has NULLs on both sides of every correlation below.
func notExistsTables(t *testing.T) *conn {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE p (id BIGINT NOT NULL, oid BIGINT, cust BIGINT, PRIMARY KEY (id))",
		"CREATE TABLE o (id BIGINT NOT NULL, cust BIGINT, PRIMARY KEY (id))",
		"CREATE TABLE q (k BIGINT, v BIGINT)",
		"INSERT INTO p VALUES (1, 10, 1), (2, 20, 2), (3, NULL, 3), (4, 40, NULL), (5, 50, 1), (6, NULL, NULL)",
		"INSERT INTO o VALUES (10, 1), (20, NULL), (30, 3), (50, 1)",
		"INSERT INTO q VALUES (1, NULL), (NULL, 2), (3, 3)")
	return c
}

// NOT EXISTS is true when no row of the subquery makes its condition
// TRUE: an outer row whose correlated column is NULL, or inner rows whose
// column is NULL, keep the outer row (MySQL 8.0 reference manual, 15.2.15.6),
// unlike NOT IN. GMS's anti join dropped them, in both modes.
func TestNotExistsKeepsRowsWithNullCorrelation(t *testing.T) {
	c := notExistsTables(t)
	wantRowsInBothModes(t, c, map[string]string{
		// outer NULLs (p 3, 6)
		"SELECT p.id FROM p WHERE NOT EXISTS (SELECT 1 FROM o WHERE o.id = p.oid)": "[3] [4] [6]",
		// inner NULLs (o 20) and outer NULLs (p 4, 6)
		"SELECT p.id FROM p WHERE NOT EXISTS (SELECT 1 FROM o WHERE o.cust = p.cust)": "[2] [4] [6]",
		// the inner side of a left join in the subquery is all NULL but for o 30
		"SELECT p.id FROM p WHERE NOT EXISTS (SELECT 1 FROM o LEFT JOIN q ON q.k = o.cust WHERE q.v = p.cust)": "[1] [2] [4] [5] [6]",
		// no equality: the anti join stays, reading NULL as no match
		"SELECT p.id FROM p WHERE NOT EXISTS (SELECT 1 FROM q WHERE q.k > p.cust)": "[3] [4] [6]",
		// nested in an EXISTS, which GMS unnests in the same pass
		"SELECT p.id FROM p WHERE EXISTS (SELECT 1 FROM o WHERE o.id = p.oid AND NOT EXISTS (SELECT 1 FROM q WHERE q.k = o.cust))": "[2]",
		// two of them
		"SELECT p.id FROM p WHERE NOT EXISTS (SELECT 1 FROM o WHERE o.cust = p.cust) AND NOT EXISTS (SELECT 1 FROM q WHERE q.v = p.cust)": "[4] [6]",
	})
}

// NOT EXISTS with an equality correlation stays a hash or lookup join
// (a left join keeping the unmatched rows), not a nested loop over both
// tables.
func TestNotExistsStaysHashOrLookupJoin(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE p (id BIGINT NOT NULL, oid BIGINT, PRIMARY KEY (id))",
		"CREATE TABLE o (id BIGINT NOT NULL, cust BIGINT, PRIMARY KEY (id))")
	var ps, os []string
	for i := range 2000 {
		oid := fmt.Sprint(i * 2)
		if i%100 == 0 {
			oid = "NULL"
		}
		ps = append(ps, fmt.Sprintf("(%d, %s)", i, oid))
		os = append(os, fmt.Sprintf("(%d, %d)", i, i%7))
	}
	c.mustExec("INSERT INTO p VALUES "+strings.Join(ps, ", "), "INSERT INTO o VALUES "+strings.Join(os, ", "))
	for q, want := range map[string]string{
		// p 1000..1999 point past o, and 20 have no order id
		"SELECT COUNT(*) FROM p WHERE NOT EXISTS (SELECT 1 FROM o WHERE o.id = p.oid)": "[1010]",
		// only oid 0, 2, 4, 6 are customers, and oid 0 is NULL
		"SELECT COUNT(*) FROM p WHERE NOT EXISTS (SELECT 1 FROM o WHERE o.cust = p.oid)": "[1997]",
	} {
		plan := strings.Join(format(c.mustQuery("EXPLAIN PLAN "+q)), "\n")
		if strings.Contains(plan, "AntiJoin") || !strings.Contains(plan, "HashJoin") && !strings.Contains(plan, "LookupJoin") {
			t.Errorf("%s is no hash or lookup join:\n%s", q, plan)
		}
		if got := strings.Join(format(c.mustQuery(q)), " "); got != want {
			t.Errorf("%s: got %s, want %s", q, got, want)
		}
	}
}

// A NOT EXISTS beside an EXISTS is a left join under a semi join. GMS's
// join reordering put the semi join below the left join and dropped the
// IS NULL filter that made the left join an anti join, returning the
// rows the NOT EXISTS excludes.
func TestNotExistsBesideExistsKeepsItsFilter(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE t (tag VARCHAR(8), rate VARCHAR(8))",
		"CREATE TABLE u (tag VARCHAR(8))",
		"INSERT INTO t VALUES ('ab', 'x'), ('cd', 'y'), (NULL, 'z'), ('ef', NULL)",
		"INSERT INTO u VALUES ('ab'), (NULL)")
	wantRowsInBothModes(t, c, map[string]string{
		"SELECT a1.tag FROM t a1 WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.tag = a1.tag) AND EXISTS (SELECT 1 FROM t a3 WHERE a3.rate = a1.rate) AND a1.tag = 'ab'":          "",
		"SELECT a1.tag FROM t a1 WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.tag = a1.tag) AND EXISTS (SELECT 1 FROM t a3 WHERE a3.rate = a1.rate) AND a1.tag IN ('ab', 'cd')": "[cd]",
		"SELECT a1.tag FROM t a1 WHERE NOT EXISTS (SELECT 1 FROM t a2 WHERE a2.tag = a1.tag) AND EXISTS (SELECT 1 FROM t a3 WHERE a3.rate = a1.rate) AND a1.tag = 'ab'":      "",
		"SELECT a1.rate FROM t a1 WHERE EXISTS (SELECT 1 FROM t a3 WHERE a3.rate = a1.rate) AND NOT EXISTS (SELECT 1 FROM u WHERE u.tag = a1.tag)":                           "[y] [z]",
	})
}

// wantRowsInBothModes checks each query's sorted rows, with the planner
// rewrites on and off.
func wantRowsInBothModes(t *testing.T, c *conn, wants map[string]string) {
	t.Helper()
	for q, want := range wants {
		for _, mode := range []string{"ON", "OFF"} {
			c.mustExec("SET lakesql_planner_rewrites = " + mode)
			if got := strings.Join(sortedLines(c.mustQuery(q)), " "); got != want {
				t.Errorf("rewrites %s: %s:\n got %s\nwant %s", mode, q, got, want)
			}
		}
	}
}
