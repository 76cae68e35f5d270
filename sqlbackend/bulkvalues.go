package sqlbackend

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unsafe"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/lakesql/lakesql/planner/ingest"
	"github.com/lakesql/lakesql/storage/spec"
)

// A multi-row INSERT … VALUES of literals that a client sends as its
// statement is not given to the SQL parser whole: vitess would build an
// AST of every value, and GMS a plan of it, costing more than writing the
// rows and holding many times the statement's size in memory. Instead
// (bulkValues):
//
//  1. When the statement is parsed, planner/ingest scans its tuples, and
//     every value is converted into the table's column exactly as the
//     literal path (literalinsert.go) would. Anything it cannot take, or
//     any value it cannot convert exactly, leaves the statement to the
//     parser as before, so that MySQL's coercions, warnings and errors
//     stay GMS's.
//  2. The parser gets only the statement's head and first tuple: GMS
//     resolves the table, checks privileges and opens the transaction on
//     that one-row INSERT.
//  3. Building it, the literal path finds the session's pending bulk
//     values of this very statement and streams all tuples into the
//     table's writer: the rows step 1 converted, for a statement of up to
//     maxKeptBytes, else each tuple converted again, so that a large
//     statement is never held as rows.
//
// The statement is recognized by identity: the pending values name the
// query string object the client's statement arrived in, which only that
// statement's context carries (sql.Context.Query). Statements GMS parses
// on its own (views, PREPARE, stored definitions) never match it, and a
// prepared statement is parsed by ParseOneWithOptions, which never takes
// this path. The client's statement arrives through ParseWithOptions, or
// through Parse when the client allows several statements a query (the
// scanner takes only a text that is one statement). A one-row plan whose
// pending values are missing cannot occur without a second parse of the
// same string object within the statement, and a bulk plan the literal
// path cannot write fails the statement (errBulkValuesUnwritable) instead
// of writing its first row alone.

// minBulkRows is the fewest tuples worth the scan: a few rows parse fast.
const minBulkRows = 8

// maxKeptBytes bounds the statements whose rows the parse keeps converted
// for the write, rather than converting them again: a 5000-row INSERT is
// about 0.5 MB, and its rows cost a few times that. Tests set it to 0 to
// stream.
var maxKeptBytes = 4 << 20

// pendingValues are the tuples of the INSERT being run (see above).
type pendingValues struct {
	query  string
	db     string
	table  string
	values *ingest.ValuesInsert
	// rows are the tuples converted for schemaID with columnOf, when the
	// statement is small enough to keep them (maxKeptBytes).
	rows     [][]any
	schemaID int64
	columnOf []int
}

// setPendingValues records the bulk values of the statement being parsed;
// nil clears them.
func (s *Session) setPendingValues(v *pendingValues) {
	s.overwriteMu.Lock()
	s.values = v
	s.overwriteMu.Unlock()
}

// takePendingValues returns and clears the pending values if they belong
// to query, the statement being run.
func (s *Session) takePendingValues(query string) *pendingValues {
	s.overwriteMu.Lock()
	defer s.overwriteMu.Unlock()
	v := s.values
	if v == nil || !sameString(v.query, query) {
		return nil
	}
	s.values = nil
	return v
}

// sameString reports whether a and b are the same string object, not
// only equal: a client sending one statement twice sends two.
func sameString(a, b string) bool {
	return len(a) == len(b) && unsafe.StringData(a) == unsafe.StringData(b)
}

// parseBulkValues parses the head of query, when query is the client's
// statement and a bulk INSERT of exact literals, and records its values
// for the literal path; ok is false when query is to be parsed whole.
// A head that does not parse leaves the whole statement to the parser,
// whose error names the right place.
func (p rewritingParser) parseBulkValues(ctx context.Context, query string, options ast.ParserOptions) (ast.Statement, bool) {
	sc, isSQL := ctx.(*sql.Context)
	if !isSQL {
		return nil, false
	}
	s, isLakesql := sc.Session.(*Session)
	if !isLakesql || !sameString(query, sc.Query()) {
		return nil, false
	}
	s.setPendingValues(nil)
	pending, ok := s.bulkValues(sc, query)
	if !ok {
		return nil, false
	}
	stmt, _, _, err := p.Parser.ParseWithOptions(ctx, pending.values.Head, ';', false, options)
	if err != nil {
		return nil, false
	}
	// The statement skips rewrite, which clears what an earlier statement
	// that failed before writing left pending.
	s.setPendingOverwrite(nil)
	s.setPendingValues(pending)
	return stmt, true
}

// bulkValues scans query and converts every value (see above).
func (s *Session) bulkValues(ctx *sql.Context, query string) (*pendingValues, bool) {
	if !rewritesOn(ctx) || len(query) < minBulkRows*4 || !strings.HasPrefix(strings.ToUpper(strings.TrimLeft(query[:min(len(query), 16)], " \t\r\n")), "INSERT") {
		return nil, false
	}
	if sql.LoadSqlMode(ctx).ModeEnabled("NO_BACKSLASH_ESCAPES") {
		return nil, false
	}
	v, ok := ingest.ScanValuesInsert(query)
	if !ok || v.Rows < minBulkRows {
		return nil, false
	}
	db := v.Database
	if db == "" {
		db = ctx.GetCurrentDatabase()
	}
	t, err := s.backend.OpenTable(ctx, db, v.Table)
	if err != nil {
		return nil, false
	}
	schema, err := t.LatestSchema(ctx)
	if err != nil {
		return nil, false
	}
	columnOf, ok := tupleColumns(schema.Fields, v.Columns, v.Width)
	if !ok {
		return nil, false
	}
	convert, ok := newTupleConverter(schema.Fields, columnOf)
	if !ok {
		return nil, false
	}
	pending := &pendingValues{query: query, db: db, table: v.Table, values: v, schemaID: schema.ID, columnOf: columnOf}
	keep := len(query) <= maxKeptBytes
	err = v.Each(func(lits []ingest.Literal) error {
		row, err := convert.row(lits)
		if keep && err == nil {
			pending.rows = append(pending.rows, row)
		}
		return err
	})
	return pending, err == nil
}

// tupleColumns maps each value of a tuple to its table column: every
// column exactly once, as the literal path requires.
func tupleColumns(fields []spec.DataField, names []string, width int) ([]int, bool) {
	if width != len(fields) {
		return nil, false
	}
	columnOf := make([]int, width)
	if names == nil {
		for i := range columnOf {
			columnOf[i] = i
		}
		return columnOf, true
	}
	seen := make([]bool, len(fields))
	for i, name := range names {
		col := -1
		for j, f := range fields {
			if strings.EqualFold(f.Name, name) {
				col = j
			}
		}
		if col < 0 || seen[col] {
			return nil, false
		}
		seen[col], columnOf[i] = true, col
	}
	return columnOf, true
}

// tupleConverter turns the literals of a tuple into a table row, taking
// only what literalRow takes: a string into any column, an integer into a
// numeric one, a decimal number into a DECIMAL or floating-point one,
// NULL into a nullable one; each converted exactly.
type tupleConverter struct {
	fields     []spec.DataField
	columnOf   []int
	converters []ingest.Converter
}

func newTupleConverter(fields []spec.DataField, columnOf []int) (*tupleConverter, bool) {
	c := &tupleConverter{fields: fields, columnOf: columnOf, converters: make([]ingest.Converter, len(fields))}
	for i, f := range fields {
		var ok bool
		if c.converters[i], ok = ingest.ExactConverterFor(f.Type); !ok {
			return nil, false
		}
	}
	return c, true
}

// errInexactLiteral stops a scan at the first value the literal path does
// not take.
var errInexactLiteral = fmt.Errorf("a value is not converted exactly")

func (c *tupleConverter) row(lits []ingest.Literal) ([]any, error) {
	row := make([]any, len(c.fields))
	for i, lit := range lits {
		col := c.columnOf[i]
		t := c.fields[col].Type
		switch lit.Kind {
		case ingest.Null:
			if !t.Nullable {
				return nil, errInexactLiteral
			}
			continue
		case ingest.Integer, ingest.DecimalNumber:
			if !numberFits(lit.Kind, t.Root) {
				return nil, errInexactLiteral
			}
		}
		v, err := c.converters[col](numberText(lit))
		if err != nil {
			return nil, errInexactLiteral
		}
		row[col] = v
	}
	return row, nil
}

// numberFits is literalText's rule: the columns that read a number literal
// as its digits.
func numberFits(kind ingest.ValueKind, root spec.TypeRoot) bool {
	switch root {
	case spec.Decimal, spec.Float, spec.Double:
		return true
	case spec.Boolean, spec.TinyInt, spec.SmallInt, spec.Int, spec.BigInt:
		return kind == ingest.Integer
	}
	return false
}

// numberText is a literal's text, with the sign of a negative zero
// dropped: MySQL reads -0 and -0.0 as zero, never as a negative zero
// double.
func numberText(lit ingest.Literal) []byte {
	if lit.Kind == ingest.String || len(lit.Text) == 0 || lit.Text[0] != '-' {
		return lit.Text
	}
	for _, c := range lit.Text[1:] {
		if c != '0' && c != '.' {
			return lit.Text
		}
	}
	return lit.Text[1:]
}

// errBulkValuesUnwritable fails a bulk INSERT whose plan the literal path
// cannot write, rather than let GMS insert the one row it planned.
var errBulkValuesUnwritable = mysql.NewSQLError(mysql.ERUnknownError, mysql.SSUnknownSQLState,
	"lakesql: the INSERT's rows could not be streamed into its table; run it again with lakesql_planner_rewrites = OFF")

// bulkInsertNode writes the pending values of an INSERT planned on its
// first tuple.
type bulkInsertNode struct {
	table   *Table
	values  *ingest.ValuesInsert
	convert *tupleConverter
	// rows are the rows the parse converted, when they fit this plan.
	rows [][]any
}

// newBulkInsertNode checks that insert is the one-row plan of pending and
// that the literal path can write into its table.
func newBulkInsertNode(insert *plan.InsertInto, pending *pendingValues) (*bulkInsertNode, error) {
	if insert.IsReplace || insert.Ignore || len(insert.OnDupExprs) > 0 || len(insert.Checks()) > 0 || len(insert.Returning) > 0 {
		return nil, errBulkValuesUnwritable
	}
	table, ok := destinationTable(insert.Destination)
	if !ok || table.timeTravel || table.readsItself || table.duplicates != nil ||
		!strings.EqualFold(table.db.name, pending.db) || !strings.EqualFold(table.name, pending.table) {
		return nil, errBulkValuesUnwritable
	}
	child, columnOf, ok := projectedSource(insert.Source, len(table.schema.Fields))
	if !ok {
		return nil, errBulkValuesUnwritable
	}
	if values, ok := child.(*plan.Values); !ok || len(values.ExpressionTuples) != 1 {
		return nil, errBulkValuesUnwritable
	}
	convert, ok := newTupleConverter(table.schema.Fields, columnOf)
	if !ok {
		return nil, errBulkValuesUnwritable
	}
	node := &bulkInsertNode{table: table, values: pending.values, convert: convert}
	if table.schema.ID == pending.schemaID && slices.Equal(columnOf, pending.columnOf) {
		node.rows = pending.rows
	}
	return node, nil
}

// write streams the tuples into the table as one statement of the
// transaction. A value that no longer converts (the table changed since
// the statement was parsed) fails the statement whole.
func (n *bulkInsertNode) write(ctx *sql.Context) (int64, error) {
	e := n.table.editor(ctx, false)
	if e.err != nil {
		return 0, e.err
	}
	if n.rows != nil {
		return n.writeKept(ctx, e)
	}
	var rows int64
	err := n.values.Each(func(lits []ingest.Literal) error {
		row, err := n.convert.row(lits)
		if err != nil {
			return errBulkValuesUnwritable
		}
		rows++
		return e.w.writer.Write(ctx, row, spec.RowKindInsert)
	})
	return rows, e.finishStatement(ctx, err)
}

// writeKept writes the rows the parse converted.
func (n *bulkInsertNode) writeKept(ctx *sql.Context, e *editor) (int64, error) {
	var err error
	for _, row := range n.rows {
		if err = e.w.writer.Write(ctx, row, spec.RowKindInsert); err != nil {
			break
		}
	}
	return int64(len(n.rows)), e.finishStatement(ctx, err)
}
