package sqlbackend

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/storage/spec"
)

// ruleKeyPlan is the analyzer rule id of recordKeyPlan.
const ruleKeyPlan analyzer.RuleId = 10_021

// errStaleKeyPlan fails a cached plan whose table changed; the server
// runs the statement through analysis instead (KeySelect.Stale).
var errStaleKeyPlan = errors.New("cached key-select plan no longer fits its table")

// keyPlan is the analyzed plan of a key-select shape.
type keyPlan struct {
	// root is the whole plan as analysis left it; access, the table read
	// in it, is what each statement replaces.
	root   sql.Node
	access *plan.IndexedTableAccess
	// db and table are the stored names of the table read, schema its
	// schema when analyzed and projection the columns read.
	db, table  string
	schema     *spec.TableSchema
	projection []string
	index      sql.Index
	// columns are the table columns of the shape's conditions, in order.
	columns []*sql.Column
}

// recordKeyPlan learns the plan of the statement the session records
// (KeySelect.Record), once analysis is complete: the plan as it is run.
func recordKeyPlan(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	s, ok := ctx.Session.(*Session)
	if !ok || !wholeStatement(scope, sel) {
		return n, transform.SameTree, nil
	}
	if rec := s.keyRecording.Load(); rec != nil {
		rec.recorded.Store(learnKeyPlan(ctx, n, rec.shape))
	}
	return n, transform.SameTree, nil
}

// learnKeyPlan returns the plan of shape analyzed as root, or nil when
// root is not a plan the cache can reuse.
func learnKeyPlan(ctx *sql.Context, root sql.Node, shape keyShape) *keyPlan {
	access, ok := keyAccess(root)
	if !ok {
		return nil
	}
	rt, ok := access.TableNode.(*plan.ResolvedTable)
	if !ok {
		return nil
	}
	t, ok := rt.Table.(*Table)
	if !ok || !t.plainKeyRead() {
		return nil
	}
	pp := &keyPlan{root: root, access: access, db: t.db.name, table: t.name, schema: t.schema, projection: t.projection, index: access.Index()}
	for _, c := range shape.conditions {
		col, ok := columnNamed(t.columns, c.column)
		if !ok {
			return nil
		}
		pp.columns = append(pp.columns, col)
	}
	conjuncts, ok := pp.conjuncts(ctx, shape.conditions)
	if !ok {
		return nil
	}
	push := planner.PushFilters(t.schema.Fields, conjuncts)
	if len(push.Residual) > 0 || !reflect.DeepEqual(push.Filter, t.lookup.pushdown.Filter) {
		return nil
	}
	return pp
}

// keyAccess finds the one table read of a plan made only of the nodes a
// key select analyzes to: the wire result, LIMIT, a sort by columns (or
// both, as TopN), a projection of columns, the table's alias and the read.
func keyAccess(n sql.Node) (*plan.IndexedTableAccess, bool) {
	switch n := n.(type) {
	case *wireResult:
		return keyAccess(n.child)
	case *plan.Limit:
		return keyAccess(n.Child)
	case *plan.TableAlias:
		return keyAccess(n.Child)
	case *plan.Sort:
		if !sortsByColumns(n.SortFields) {
			return nil, false
		}
		return keyAccess(n.Child)
	case *plan.TopN:
		if !sortsByColumns(n.Fields) {
			return nil, false
		}
		return keyAccess(n.Child)
	case *plan.Project:
		for _, e := range n.Projections {
			if !isColumn(e) {
				return nil, false
			}
		}
		return keyAccess(n.Child)
	case *plan.IndexedTableAccess:
		return n, n.IsStatic()
	}
	return nil, false
}

func sortsByColumns(fields sql.SortFields) bool {
	for _, f := range fields {
		if _, ok := f.Column.(*expression.GetField); !ok {
			return false
		}
	}
	return true
}

func isColumn(e sql.Expression) bool {
	if a, ok := e.(*expression.Alias); ok {
		e = a.Child
	}
	_, ok := e.(*expression.GetField)
	return ok
}

// plainKeyRead reports a read of the latest snapshot of the main branch
// through a pushed filter that decides the whole WHERE clause, with
// nothing of a transaction or a write in it.
func (t *Table) plainKeyRead() bool {
	return t.lookup != nil && len(t.lookup.pushdown.Residual) == 0 && !t.timeTravel && t.branch == "" &&
		t.staged.Empty() && !t.lookupReadsAll && t.keys == nil && t.duplicates == nil && !t.readsItself
}

func columnNamed(schema sql.Schema, name string) (*sql.Column, bool) {
	var found *sql.Column
	for _, c := range schema {
		if strings.EqualFold(c.Name, name) {
			if found != nil {
				return nil, false
			}
			found = c
		}
	}
	return found, found != nil
}

// conjuncts are the conditions of the shape with literals, as analysis
// hands them to the pushdown, or false when a literal is not one the
// cache converts as analysis does.
func (pp *keyPlan) conjuncts(ctx *sql.Context, conditions []keyCondition) ([]sql.Expression, bool) {
	exprs := make([]sql.Expression, 0, len(pp.columns))
	for i, col := range pp.columns {
		lits := make([]sql.Expression, len(conditions[i].literals))
		for j, l := range conditions[i].literals {
			var ok bool
			if lits[j], ok = keyValue(ctx, col.Type, l); !ok {
				return nil, false
			}
		}
		field := expression.NewGetFieldWithTable(i, 0, col.Type, col.DatabaseSource, col.Source, col.Name, col.Nullable)
		exprs = append(exprs, comparisons(conditions[i].op, field, lits)...)
	}
	return exprs, true
}

// comparisons are the expressions of one condition as analysis leaves
// them: go-mysql-server turns BETWEEN into its two bounds.
func comparisons(op string, field sql.Expression, lits []sql.Expression) []sql.Expression {
	switch op {
	case ast.LessThanStr:
		return []sql.Expression{expression.NewLessThan(field, lits[0])}
	case ast.LessEqualStr:
		return []sql.Expression{expression.NewLessThanOrEqual(field, lits[0])}
	case ast.GreaterThanStr:
		return []sql.Expression{expression.NewGreaterThan(field, lits[0])}
	case ast.GreaterEqualStr:
		return []sql.Expression{expression.NewGreaterThanOrEqual(field, lits[0])}
	case ast.BetweenStr:
		return []sql.Expression{expression.NewGreaterThanOrEqual(field, lits[0]), expression.NewLessThanOrEqual(field, lits[1])}
	}
	return []sql.Expression{expression.NewEquals(field, lits[0])}
}

// keyValue is a literal compared with a column of type typ as analysis
// types it, for the literals whose comparison is exact: an integer within
// the range of an integer column or a DECIMAL column without fraction
// digits (lakesql's BIGINT UNSIGNED), a date written YYYY-MM-DD for a DATE
// column, a string for a VARCHAR or TEXT column compared byte by byte.
func keyValue(ctx *sql.Context, typ sql.Type, lit keyLiteral) (sql.Expression, bool) {
	switch {
	case (types.IsInteger(typ) || isWholeDecimal(typ)) && lit.integer:
		return integerValue(ctx, typ, lit.text)
	case typ.Type() == sqltypes.Date && !lit.integer:
		return dateValue(lit.text)
	case isBinaryText(typ) && !lit.integer && utf8.ValidString(lit.text):
		return expression.NewLiteral(lit.text, types.LongText), true
	}
	return nil, false
}

func isWholeDecimal(typ sql.Type) bool {
	d, ok := typ.(sql.DecimalType)
	return ok && d.Scale() == 0
}

// integerValue is an integer literal as BIGINT, or as BIGINT UNSIGNED
// above BIGINT's range, as the parser types it, when the column's type
// holds it.
func integerValue(ctx *sql.Context, typ sql.Type, text string) (sql.Expression, bool) {
	var lit *expression.Literal
	if i, err := strconv.ParseInt(text, 10, 64); err == nil {
		lit = expression.NewLiteral(i, types.Int64)
	} else if u, err := strconv.ParseUint(text, 10, 64); err == nil {
		lit = expression.NewLiteral(u, types.Uint64)
	} else {
		return nil, false
	}
	_, inRange, err := typ.Convert(ctx, lit.Value())
	return lit, err == nil && inRange == sql.InRange
}

func dateValue(text string) (sql.Expression, bool) {
	d, err := time.Parse("2006-01-02", text)
	if err != nil || d.Year() < 1000 {
		return nil, false
	}
	return expression.NewLiteral(d, types.Date), true
}

func isBinaryText(typ sql.Type) bool {
	st, ok := typ.(sql.StringType)
	return ok && (typ.Type() == sqltypes.VarChar || typ.Type() == sqltypes.Text) && st.Collation() == sql.Collation_utf8mb4_0900_bin
}

// withLookup is the plan with its table read replaced by lookup.
func (pp *keyPlan) withLookup(lookup *cachedKeyRead) (sql.Node, bool) {
	n, _, err := transform.Node(pp.root, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		if n == pp.access {
			return lookup, transform.NewTree, nil
		}
		return n, transform.SameTree, nil
	})
	return n, err == nil
}

// cachedKeyRead is the table read of a cached plan for one statement's
// literals: at execution it does what analysis did for the cached one,
// resolving and pinning the table, checking the statement's privilege and
// pushing the conditions down, and reads as the analyzed read did.
type cachedKeyRead struct {
	plan      *keyPlan
	statement *KeySelect
	conjuncts []sql.Expression
}

var _ sql.ExecSourceRel = (*cachedKeyRead)(nil)

func (n *cachedKeyRead) Resolved() bool       { return true }
func (n *cachedKeyRead) IsReadOnly() bool     { return true }
func (n *cachedKeyRead) Schema() sql.Schema   { return n.plan.access.Schema() }
func (n *cachedKeyRead) Children() []sql.Node { return nil }
func (n *cachedKeyRead) String() string {
	return fmt.Sprintf("CachedKeyRead(%s.%s)", n.plan.db, n.plan.table)
}

func (n *cachedKeyRead) WithChildren(children ...sql.Node) (sql.Node, error) {
	if len(children) != 0 {
		return nil, sql.ErrInvalidChildrenNumber.New(n, len(children), 0)
	}
	return n, nil
}

// RowIter starts the statement as the engine's analysis would have:
// warnings cleared, counted as a SELECT, its privilege checked.
func (n *cachedKeyRead) RowIter(ctx *sql.Context, _ sql.Row) (sql.RowIter, error) {
	ctx.ClearWarnings()
	sql.IncrementStatusVariable(ctx, "Questions", 1)
	sql.IncrementStatusVariable(ctx, "Com_select", 1)
	s := n.statement
	if err := s.cache.auth.HandleAuth(ctx, s.cache.auth.NewQueryState(ctx), s.shape.table.Auth); err != nil {
		return nil, err
	}
	t, ok := n.table(ctx)
	if !ok {
		s.forget()
		return nil, errStaleKeyPlan
	}
	push := planner.PushFilters(t.schema.Fields, n.conjuncts)
	if len(push.Residual) > 0 || push.Filter == nil {
		s.forget()
		return nil, errStaleKeyPlan
	}
	lookup := sql.IndexLookup{Index: n.plan.index, Ranges: &pushedLookup{pushdown: push}}
	// A pushed lookup reads the whole table's one partition (see
	// LookupPartitions). It is planned, and its first row read, here on
	// the connection's goroutine rather than at the first Next, on the
	// goroutine go-mysql-server starts for the rows: a new goroutine's
	// stack grows, copied each time, through the depth of planning and of
	// opening a file, about 15 µs of a point select.
	rows, err := t.IndexedAccess(ctx, lookup).PartitionRows(ctx, wholeTable{})
	if err != nil {
		return nil, err
	}
	first, err := rows.Next(ctx)
	return &readAheadIter{RowIter: rows, first: first, err: err}, nil
}

// readAheadIter returns the row (or error) its RowIter gave first, then
// the RowIter's rows.
type readAheadIter struct {
	sql.RowIter
	first  sql.Row
	err    error
	passed bool
}

func (it *readAheadIter) Next(ctx *sql.Context) (sql.Row, error) {
	if it.passed {
		return it.RowIter.Next(ctx)
	}
	it.passed = true
	first, err := it.first, it.err
	it.first, it.err = nil, nil
	return first, err
}

// table resolves and pins the statement's table as binding does,
// projected as analyzed. It is false when the names resolve to another
// table than the plan's, its columns changed, or resolving failed:
// analysis then gives the statement its answer or its error.
func (n *cachedKeyRead) table(ctx *sql.Context) (*Table, bool) {
	backend, shape := n.statement.cache.backend, n.statement.shape
	dbName, err := backend.databaseName(ctx, shape.db)
	if err != nil || dbName != n.plan.db {
		return nil, false
	}
	db := &Database{backend: backend, name: dbName}
	found, ok, err := db.table(ctx, shape.tableName(), nil)
	if err != nil || !ok {
		return nil, false
	}
	t, ok := found.(*Table)
	if !ok || t.name != n.plan.table || !sameColumns(t.schema, n.plan.schema) {
		return nil, false
	}
	return t.WithProjections(n.plan.projection).(*Table), true
}

// sameColumns reports schemas with the same columns, types and keys: what
// the cached plan's columns and filter were made from.
func sameColumns(a, b *spec.TableSchema) bool {
	if a == b {
		return true
	}
	if len(a.Fields) != len(b.Fields) || !slices.Equal(a.PrimaryKeys, b.PrimaryKeys) {
		return false
	}
	for i := range a.Fields {
		if a.Fields[i].ID != b.Fields[i].ID || a.Fields[i].Name != b.Fields[i].Name || !reflect.DeepEqual(a.Fields[i].Type, b.Fields[i].Type) {
			return false
		}
	}
	return true
}
