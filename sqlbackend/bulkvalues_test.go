package sqlbackend

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// bulkStatement is an INSERT into table of the tuples, each given its id
// from first on: literalRows' tuples with their id replaced.
func bulkStatement(table string, first int, tuples ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "INSERT INTO %s VALUES ", table)
	for i, tuple := range tuples {
		if i > 0 {
			b.WriteString(", ")
		}
		_, rest, _ := strings.Cut(tuple, ",")
		fmt.Fprintf(&b, "(%d,%s", first+i, rest)
	}
	return b.String()
}

// exactTuples are literalRows' tuples whose every value the literal path
// converts exactly, repeated to make a bulk statement.
func exactTuples(n int) []string {
	exact := []string{literalRows[0], literalRows[3], literalRows[4],
		`(0, 0, -0, -0, -0, -0.0, -0.00, 'it''s', '\'\\\n', '2024-02-29', '2024-01-01 00:00:00')`,
		`(0, 1, 5, 6, 7, 8, 9, '\%\_', '\t\0', '2000-01-01', NULL)`}
	var out []string
	for len(out) < n {
		out = append(out, exact[len(out)%len(exact)])
	}
	return out
}

// A bulk INSERT writes the same rows, or fails with the same error and
// writes nothing, with rewrites on (the bulk path, when it takes the
// statement) as on GMS; a statement with one value the bulk path cannot
// convert exactly is parsed whole.
func TestBulkValuesMatchGMS(t *testing.T) {
	t.Run("kept", testBulkValuesMatchGMS)
	t.Run("streamed", func(t *testing.T) {
		defer func(kept int) { maxKeptBytes = kept }(maxKeptBytes)
		maxKeptBytes = 0
		testBulkValuesMatchGMS(t)
	})
}

// testBulkValuesMatchGMS is TestBulkValuesMatchGMS with the rows kept from
// the parse or converted again as they are written (maxKeptBytes).
func testBulkValuesMatchGMS(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE lit", "USE lit",
		"CREATE TABLE fast "+literalColumns, "CREATE TABLE slow "+literalColumns)
	statements := map[string]bool{} // statement -> bulk path expected
	next := 1
	add := func(bulk bool, tuples []string) {
		statements[bulkStatement("target", next, tuples...)] = bulk
		next += len(tuples)
	}
	add(true, exactTuples(minBulkRows))
	add(true, exactTuples(300))
	add(false, exactTuples(minBulkRows-1))
	for _, odd := range literalRows[5:18] { // each has a value MySQL rounds, cuts or refuses
		add(false, append(exactTuples(minBulkRows), odd))
	}
	statements[bulkStatement("target", next, exactTuples(minBulkRows)...)+", (NULL, 1, 1, 1, 1, 1, 1, 'a', 'a', '2024-01-01', NULL)"] = false
	for _, q := range slices.Sorted(func(yield func(string) bool) {
		for q := range statements {
			if !yield(q) {
				return
			}
		}
	}) {
		c.mustExec("SET lakesql_planner_rewrites = ON")
		if took := takesBulkPath(t, h, c, into(q, "fast")); took != statements[q] {
			t.Errorf("%.120s…: bulk path %v, want %v", q, took, statements[q])
		}
		_, fastErr := c.query(into(q, "fast"))
		fastCount := format(c.mustQuery("SELECT ROW_COUNT()"))
		c.mustExec("SET lakesql_planner_rewrites = OFF")
		_, slowErr := c.query(into(q, "slow"))
		slowCount := format(c.mustQuery("SELECT ROW_COUNT()"))
		if outcome(fastErr) != outcome(slowErr) || !slices.Equal(fastCount, slowCount) {
			t.Errorf("%.120s…: rewrites on %v, ROW_COUNT() %v; off %v, %v", q, fastErr, fastCount, slowErr, slowCount)
		}
	}
	fast := format(c.mustQuery("SELECT * FROM fast ORDER BY id"))
	slow := format(c.mustQuery("SELECT * FROM slow ORDER BY id"))
	if !slices.Equal(fast, slow) || len(fast) < 300 {
		i := firstDifference(fast, slow)
		t.Errorf("rewrites on: %d rows, off: %d rows; first difference:\n%q\n%q", len(fast), len(slow), fast[i:i+1], slow[i:i+1])
	}
}

// into is the bulk statement q into table.
func into(q, table string) string {
	return strings.Replace(q, "INSERT INTO target", "INSERT INTO "+table, 1)
}

func firstDifference(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// takesBulkPath parses q as the session's statement and reports whether
// the parser kept only its first tuple for GMS, leaving the session's
// pending values as they were before.
func takesBulkPath(t *testing.T, h *harness, c *conn, q string) bool {
	t.Helper()
	ctx := c.context().WithQuery(q)
	stmt, _, _, err := h.engine.Parser.ParseWithOptions(ctx, q, ';', false, sql.LoadSqlMode(ctx).ParserOptions())
	if err != nil {
		t.Fatalf("%.80s: %v", q, err)
	}
	c.session.setPendingValues(nil)
	insert, ok := stmt.(*ast.Insert)
	if !ok {
		t.Fatalf("%.80s parsed as %T", q, stmt)
	}
	values, ok := insert.Rows.(*ast.AliasedValues)
	if !ok {
		t.Fatalf("%.80s: rows parsed as %T", q, insert.Rows)
	}
	return len(values.Values) == 1
}

// Statements GMS parses on its own, and statements sent again, never find
// another statement's bulk values: a prepared bulk INSERT writes all its
// rows every time it runs, and a bulk INSERT whose plan the literal path
// cannot write fails instead of writing one row.
func TestBulkValuesBelongToTheirStatement(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE b", "USE b", "CREATE TABLE log (id INT, v VARCHAR(10))")
	q := logInsert(20)
	c.mustExec("PREPARE s FROM '"+strings.ReplaceAll(q, "'", "''")+"'", "EXECUTE s", "EXECUTE s")
	c.mustExec(q, strings.Clone(q))
	if got := format(c.mustQuery("SELECT COUNT(*), COUNT(DISTINCT id) FROM log")); !slices.Equal(got, []string{"[80 20]"}) {
		t.Errorf("two prepared runs and two sent statements wrote %v rows, want [80 20]", got)
	}

	c.mustExec("BEGIN", q)
	if got := format(c.mustQuery("SELECT COUNT(*) FROM log")); !slices.Equal(got, []string{"[100]"}) {
		t.Errorf("the transaction sees %v rows, want its own 20 more", got)
	}
	c.mustExec("ROLLBACK")
	if got := format(c.mustQuery("SELECT COUNT(*) FROM log")); !slices.Equal(got, []string{"[80]"}) {
		t.Errorf("after ROLLBACK: %v rows, want 80", got)
	}

	// An INSERT OVERWRITE that failed before writing leaves nothing for
	// the bulk INSERT after it: that one appends.
	if _, err := c.query("INSERT OVERWRITE log SELECT * FROM nosuch"); err == nil {
		t.Fatal("INSERT OVERWRITE from a missing table succeeded")
	}
	c.mustExec(q)
	if got := format(c.mustQuery("SELECT COUNT(*) FROM log")); !slices.Equal(got, []string{"[100]"}) {
		t.Errorf("a bulk INSERT after a failed INSERT OVERWRITE left %v rows, want 100", got)
	}

	// Parsed for this statement, but planned into another table: the
	// bulk plan fails to build rather than write its first row alone.
	ctx := c.context().WithQuery(q)
	pending, ok := c.session.bulkValues(ctx, q)
	if !ok {
		t.Fatal("no bulk values")
	}
	n, err := h.engine.AnalyzeQuery(ctx, pending.values.Head)
	if err != nil {
		t.Fatal(err)
	}
	pending.table = "other"
	c.session.setPendingValues(pending)
	if _, err := h.engine.Analyzer.ExecBuilder.Build(ctx, n, nil); err != errBulkValuesUnwritable {
		t.Errorf("a bulk plan for another table built with %v, want errBulkValuesUnwritable", err)
	}
}

// A client that allows several statements a query (the mysql command-line
// client) sends its INSERTs through Parse, which takes the bulk path too,
// for a text that is one statement.
func TestBulkValuesThroughMultiStatementParse(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE b", "USE b", "CREATE TABLE log (id INT, v VARCHAR(10))")
	for q, bulk := range map[string]bool{
		logInsert(10) + ";":          true,
		logInsert(10) + "; SELECT 1": false,
	} {
		ctx := c.context().WithQuery(q)
		stmt, _, rest, err := h.engine.Parser.Parse(ctx, q, true)
		c.session.setPendingValues(nil)
		if err != nil {
			t.Fatal(err)
		}
		insert := stmt.(*ast.Insert)
		if rows := len(insert.Rows.(*ast.AliasedValues).Values); (rows == 1) != bulk || (rest == "") != bulk {
			t.Errorf("%.60s…: %d rows parsed, remainder %q; bulk path expected: %v", q, rows, rest, bulk)
		}
	}
}

// logInsert is an INSERT of n rows into log (id INT, v VARCHAR(10)).
func logInsert(n int) string {
	tuples := make([]string, n)
	for i := range tuples {
		tuples[i] = fmt.Sprintf("(%d, 'v%d')", i, i)
	}
	return "INSERT INTO log VALUES " + strings.Join(tuples, ", ")
}
