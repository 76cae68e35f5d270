package sqlbackend

import (
	"slices"
	"strings"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// createEdgeTable makes a partitioned primary-key table whose rows hold
// the values where MySQL's comparison semantics are easy to get wrong:
// case and trailing spaces of strings, integers beyond 2^53, DECIMALs
// between two of the column's steps, doubles without an exact decimal,
// NULLs in every column, DATEs next to DATETIMEs. The row with id 6 was
// updated, so a read of the old row must merge it away.
func createEdgeTable(t *testing.T, c *conn) {
	t.Helper()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id BIGINT NOT NULL, dt DATE NOT NULL, ts DATETIME, s VARCHAR(20), n INT, b BIGINT,"+
			" d DECIMAL(10,2), f DOUBLE, PRIMARY KEY (dt, id)) PARTITION BY LIST COLUMNS (dt)",
		`INSERT INTO t VALUES
		(1, '2024-01-01', '2024-01-01 00:00:00', 'SUCCESS', 5, 9007199254740993, 1.10, 1.1),
		(2, '2024-01-01', '2024-01-01 10:30:00', 'success', -1, 9007199254740992, 1.15, 0.30000000000000004),
		(3, '2024-01-01', NULL, 'SUCCESS ', NULL, NULL, NULL, NULL),
		(4, '2024-01-02', '2024-01-02 00:00:00', '', 0, -9223372036854775808, -0.01, -0.0),
		(5, '2024-01-02', '2023-12-31 23:59:59', NULL, 2147483647, 9223372036854775807, 99999999.99, 1e300),
		(6, '2024-01-02', '2024-01-01 00:00:00', 'OLD', 7, 7, 7.00, 7)`,
		"UPDATE t SET s = 'NEW', n = 8 WHERE id = 6")
}

// A filter the scan decides exactly leaves the Filter node above it, so
// GMS no longer evaluates it per row; every other conjunct stays there.
// Each query answers what it answers with the planner rewrites off, where
// GMS evaluates the whole filter over a full scan.
func TestExactPushdownLeavesOnlyTheResidualFilter(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	createEdgeTable(t, c)
	// Each query maps to the conjuncts that must stay in the Filter node
	// above the scan, as EXPLAIN prints them; none means no Filter node.
	for q, residual := range map[string][]string{
		// Partition key: equality, IN, ranges, with DATE text, DATETIME
		// text and typed literals.
		"SELECT id FROM t WHERE dt = '2024-01-01'":                              nil,
		"SELECT id FROM t WHERE dt = '2024-01-01 00:00:00'":                     nil,
		"SELECT id FROM t WHERE dt = '2024-01-01 10:00:00'":                     nil,
		"SELECT id FROM t WHERE dt = DATE '2024-01-02'":                         nil,
		"SELECT id FROM t WHERE dt IN ('2024-01-02', '2023-01-01')":             nil,
		"SELECT id FROM t WHERE dt > '2024-01-01'":                              nil,
		"SELECT id FROM t WHERE dt BETWEEN '2024-01-01' AND '2024-01-01 12:00'": {"(t.dt <= 2024-01-01 12:00:00 +0000 UTC)"},
		"SELECT id FROM t WHERE dt = '2024-1-2'":                                {"(t.dt = 2024-01-02 00:00:00 +0000 UTC)"},
		"SELECT id FROM t WHERE dt = 20240102":                                  {"(t.dt = 20240102)"},
		// Strings compare under utf8mb4_0900_bin: case and trailing spaces
		// count. An explicit collation makes the comparison GMS's alone.
		"SELECT id FROM t WHERE s = 'SUCCESS'":                                  nil,
		"SELECT id FROM t WHERE s = 'SUCCESS '":                                 nil,
		"SELECT id FROM t WHERE s <> 'SUCCESS'":                                 nil,
		"SELECT id FROM t WHERE s = 'success' COLLATE utf8mb4_0900_ai_ci":       {"utf8mb4_0900_ai_ci"},
		"SELECT id FROM t WHERE s IN ('SUCCESS', 'success', NULL)":              nil,
		"SELECT id FROM t WHERE s LIKE 'SUC%'":                                  nil,
		"SELECT id FROM t WHERE s LIKE '%CESS'":                                 {"LIKE"},
		"SELECT id FROM t WHERE s > ''":                                         nil,
		"SELECT id FROM t WHERE dt = '2024-01-01' AND s = 'SUCCESS'":            nil,
		"SELECT id FROM t WHERE dt = '2024-01-01' AND UPPER(s) = 'SUCCESS'":     {"upper"},
		"SELECT id FROM t WHERE dt = '2024-01-02' AND (s = 'NEW' OR n IS NULL)": nil,
		"SELECT id FROM t WHERE s = 'OLD'":                                      nil,
		"SELECT id FROM t WHERE s = CONCAT(id, '')":                             {"concat"},
		"SELECT id FROM t WHERE s = 'SUCCESS' AND id % 2 = 1":                   {"((t.id % 2) = 1)"},
		"SELECT id FROM t WHERE NOT (s = 'SUCCESS')":                            nil,
		"SELECT id FROM t WHERE s IS NULL":                                      nil,
		"SELECT id FROM t WHERE s <=> NULL":                                     nil,
		"SELECT id FROM t WHERE s = NULL":                                       nil,
		"SELECT id FROM t WHERE ts = '2024-01-01'":                              nil,
		"SELECT id FROM t WHERE ts >= '2024-01-01 10:30:00'":                    nil,
		"SELECT id FROM t WHERE ts < DATE '2024-01-01'":                         nil,
		"SELECT id FROM t WHERE ts = '2024-01-01T00:00:00'":                     {"(t.ts = 2024-01-01 00:00:00 +0000 UTC)"},
		// Integers against text and beyond 2^53.
		"SELECT id FROM t WHERE n = '5'":                  nil,
		"SELECT id FROM t WHERE n = '5.0'":                nil,
		"SELECT id FROM t WHERE n = ' 5'":                 {"' 5'"},
		"SELECT id FROM t WHERE n IN (5, -1, NULL)":       nil,
		"SELECT id FROM t WHERE NOT (n IN (5, NULL))":     nil,
		"SELECT id FROM t WHERE b = 9007199254740993":     nil,
		"SELECT id FROM t WHERE b = 9007199254740993.0":   nil,
		"SELECT id FROM t WHERE b = 9007199254740993e0":   {"9.007199254740992e+15"},
		"SELECT id FROM t WHERE b > 9223372036854775806":  nil,
		"SELECT id FROM t WHERE b = 18446744073709551615": {"18446744073709551615"},
		// DECIMAL against decimal, double and text literals.
		"SELECT id FROM t WHERE d = 1.1":                   nil,
		"SELECT id FROM t WHERE d = 1.15":                  nil,
		"SELECT id FROM t WHERE d = 1.155":                 {"1.155"},
		"SELECT id FROM t WHERE d = 1.1e0":                 {"convert(t.d, double)"},
		"SELECT id FROM t WHERE d > '1.1'":                 nil,
		"SELECT id FROM t WHERE d < 0":                     nil,
		"SELECT id FROM t WHERE f = 1.1":                   nil,
		"SELECT id FROM t WHERE f = 1.1e0":                 nil,
		"SELECT id FROM t WHERE f = 0.30000000000000004e0": nil,
		"SELECT id FROM t WHERE f = 0":                     nil,
		"SELECT id FROM t WHERE f > 1e299":                 nil,
		"SELECT id FROM t WHERE f IS TRUE":                 nil,
		// Columns of other tables are not the scan's to decide.
		"SELECT o.id FROM t o WHERE EXISTS (SELECT 1 FROM t i WHERE i.dt = '2024-01-01' AND o.s = 'SUCCESS')": nil,
	} {
		on, off, errOn, errOff := rewritesOnAndOff(c, q)
		if errOn != nil || errOff != nil || !slices.Equal(on, off) {
			t.Errorf("%s: pushed %v (%v), unpushed %v (%v)", q, on, errOn, off, errOff)
		}
		plan := explainPlan(c, q)
		filters := filterNodes(plan)
		if residual == nil {
			if !strings.Contains(plan, "pushed[") {
				t.Errorf("%s: nothing pushed:\n%s", q, plan)
			}
			if len(filters) > 0 && !strings.Contains(q, "EXISTS") {
				t.Errorf("%s: filters %v left above the scan:\n%s", q, filters, plan)
			}
			continue
		}
		for _, want := range residual {
			if !slices.ContainsFunc(filters, func(f string) bool { return strings.Contains(f, want) }) {
				t.Errorf("%s: %q is not in the residual filters %v:\n%s", q, want, filters, plan)
			}
		}
	}
}

// rewritesOnAndOff runs q with lakesql_planner_rewrites ON and OFF, and
// returns the sorted rows and the error of each.
func rewritesOnAndOff(c *conn, q string) (on, off []string, errOn, errOff error) {
	run := func(setting string) ([]string, error) {
		c.mustExec("SET lakesql_planner_rewrites = " + setting)
		rows, err := c.query(q)
		return sortedLines(rows), err
	}
	off, errOff = run("OFF")
	on, errOn = run("ON")
	return on, off, errOn, errOff
}

func explainPlan(c *conn, q string) string {
	return strings.Join(format(c.mustQuery("EXPLAIN PLAN "+q)), "\n")
}

// filterNodes returns the expressions of the Filter nodes of an EXPLAIN
// PLAN: the line after each "Filter" line.
func filterNodes(plan string) []string {
	lines := strings.Split(plan, "\n")
	var out []string
	for i, l := range lines {
		if strings.HasSuffix(strings.Trim(l, "[] "), "Filter") && i+1 < len(lines) {
			out = append(out, strings.Trim(lines[i+1], "[] "))
		}
	}
	return out
}

// UPDATE and DELETE push their filter through LookupForExpressions, which
// returns the residual filter: rows the scan decides are changed without
// GMS evaluating the conjuncts again, and the residual still selects.
func TestExactPushdownInDML(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	createEdgeTable(t, c)
	for q, filter := range map[string]string{
		"UPDATE t SET n = 10 WHERE dt = '2024-01-01' AND s = 'SUCCESS '":       "",
		"UPDATE t SET n = 11 WHERE dt = '2024-01-01' AND UPPER(s) = 'SUCCESS'": "(upper(t.s) = 'SUCCESS')",
		"DELETE FROM t WHERE dt = '2024-01-02' AND b > 9223372036854775806":    "",
	} {
		got := filterNodes(explainPlan(c, q))
		if filter == "" && len(got) > 0 || filter != "" && !slices.ContainsFunc(got, func(f string) bool { return strings.Contains(f, filter) }) {
			t.Errorf("%s: filters %v above the scan, want %q", q, got, filter)
		}
		c.mustExec(q)
	}
	want := []string{"[1 11]", "[2 11]", "[3 10]", "[4 0]", "[6 8]"}
	if got := sortedLines(c.mustQuery("SELECT id, n FROM t")); !slices.Equal(got, want) {
		t.Errorf("rows %v, want %v", got, want)
	}
}

// A text literal compared with a DATE or DATETIME operand in a filter the
// scan cannot decide is converted once, when the statement is planned:
// EXPLAIN shows the DATETIME value instead of the text GMS parsed again on
// every row. Answers (and errors, for text that does not convert) are
// those of the plan without the rewrites.
func TestTemporalLiteralsConvertedOnce(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	createEdgeTable(t, c)
	for q, converted := range map[string]string{
		"SELECT id FROM t WHERE DATE(ts) = '2024-01-01'":                      "(DATE(t.ts) = 2024-01-01 00:00:00 +0000 UTC)",
		"SELECT id FROM t WHERE DATE(ts) >= '2024-1-1'":                       "(DATE(t.ts) >= 2024-01-01 00:00:00 +0000 UTC)",
		"SELECT id FROM t WHERE dt = '2024-01-01' OR s LIKE '%CESS'":          "(t.dt = 2024-01-01 00:00:00 +0000 UTC)",
		"SELECT id FROM t WHERE ts <=> '2024-01-01 10:30' OR id = 3":          "(t.ts <=> 2024-01-01 10:30:00 +0000 UTC)",
		"SELECT id FROM t WHERE '2024-01-01 10:30:00' < ts OR s LIKE '%CESS'": "(2024-01-01 10:30:00 +0000 UTC < t.ts)",
		"SELECT id FROM t WHERE ts = '0000-00-00' OR id = 3":                  "(t.ts = 0000-01-01 00:00:00 +0000 UTC)",
		"SELECT id FROM t WHERE ts > '2024-01-01 10:29:59.9999995' OR id = 3": "(t.ts > 2024-01-01 10:30:00 +0000 UTC)",
		"SELECT id FROM t WHERE dt = '2024-13-45' OR id = 3":                  "(t.dt = '2024-13-45')",
	} {
		on, off, errOn, errOff := rewritesOnAndOff(c, q)
		if (errOn == nil) != (errOff == nil) || !slices.Equal(on, off) {
			t.Errorf("%s: converted %v (%v), as written %v (%v)", q, on, errOn, off, errOff)
		}
		plan := explainPlan(c, q)
		if !strings.Contains(plan, converted) {
			t.Errorf("%s: plan does not show %s:\n%s", q, converted, plan)
		}
	}
}

// Rows the scan converts before filtering them answer as GMS would: rows
// of files written before a column was added (NULL in it) or widened,
// staged rows of the open transaction, and rows of an older snapshot.
func TestExactPushdownOverEvolvedAndStagedRows(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	createEdgeTable(t, c)
	c.mustExec("ALTER TABLE t ADD COLUMN x INT", "ALTER TABLE t MODIFY COLUMN n BIGINT",
		"INSERT INTO t VALUES (7, '2024-01-01', NULL, 'SUCCESS', 5000000000, 1, 1.00, 1, 1)")
	queries := []string{
		"SELECT id FROM t WHERE x IS NULL",
		"SELECT id FROM t WHERE x = 1",
		"SELECT id FROM t WHERE NOT (x = 1)",
		"SELECT id FROM t WHERE n = 5",
		"SELECT id FROM t WHERE n > 2147483647",
		"SELECT id FROM t WHERE dt = '2024-01-01' AND s = 'SUCCESS'",
		"SELECT id FROM t AS OF 2 WHERE s = 'OLD'",
		"SELECT id FROM t AS OF 2 WHERE dt = '2024-01-02' AND n = 7",
	}
	check := func() {
		t.Helper()
		for _, q := range queries {
			on, off, errOn, errOff := rewritesOnAndOff(c, q)
			if errOn != nil || errOff != nil || !slices.Equal(on, off) {
				t.Errorf("%s: pushed %v (%v), unpushed %v (%v)", q, on, errOn, off, errOff)
			}
		}
	}
	check()
	if got := sortedLines(c.mustQuery("SELECT id FROM t WHERE x IS NULL AND n > 4")); !slices.Equal(got, []string{"[1]", "[5]", "[6]"}) {
		t.Errorf("rows added before x: %v", got)
	}
	c.mustExec("BEGIN", "INSERT INTO t VALUES (8, '2024-01-01', NULL, 'SUCCESS', 5, NULL, NULL, NULL, 1)",
		"UPDATE t SET s = 'FAILED' WHERE id = 1")
	check()
	c.mustExec("ROLLBACK")
}

// Only conjuncts over the scanned table's own columns, told by column id,
// are the scan's to decide: an outer query's column of the same name (a
// correlated reference) is not.
func TestOwnConjuncts(t *testing.T) {
	inner := expression.NewGetFieldWithTable(1, 0, types.Int64, "d", "t", "n", true)
	outer := expression.NewGetFieldWithTable(7, 0, types.Int64, "d", "t", "n", true)
	unknown := expression.NewGetFieldWithTable(0, 0, types.Int64, "d", "t", "n", true)
	five := expression.NewLiteral(int64(5), types.Int64)
	own, others := ownConjuncts(sql.NewColSet(1, 2), []sql.Expression{
		expression.NewEquals(inner, five),
		expression.NewEquals(outer, five),
		expression.NewEquals(inner, outer),
		expression.NewEquals(unknown, five),
		expression.NewLiteral(true, types.Boolean),
	})
	if len(own) != 2 || own[0].String() != "(t.n = 5)" || own[1].String() != "true" || len(others) != 3 {
		t.Errorf("own %v, others %v", own, others)
	}
	if own, _ := ownConjuncts(sql.ColSet{}, []sql.Expression{expression.NewEquals(inner, five)}); len(own) != 0 {
		t.Errorf("a table without column ids owns %v", own)
	}
}
