package sqlbackend

import (
	"fmt"
	"sync"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// ruleInSubqueryTypes is the analyzer rule id of compareInSubqueriesExactly.
const ruleInSubqueryTypes analyzer.RuleId = 10_204

// compareInSubqueriesExactly replaces each `x IN (subquery)` left as an
// expression (correlated, or outside a WHERE) whose x GMS would convert to
// the subquery's type losing part of it: GMS v0.20.0 converts x to that
// type and compares there (plan.InSubquery.Eval), so a DATETIME
// '2024-01-04 23:30:59' was IN (SELECT DATE '2024-01-04') and a DELETE
// removed it, and 1.5 was IN (SELECT 2). MySQL compares a DATETIME with a
// DATE as DATETIMEs, exact numbers as DECIMALs and a floating-point one
// with another number as floating-point numbers
// (https://dev.mysql.com/doc/refman/8.0/en/type-conversion.html). The IN
// subqueries GMS unnests into joins compare with `=`, which is right.
func compareInSubqueriesExactly(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, qFlags *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !qFlags.SubqueryIsSet() {
		return n, transform.SameTree, nil
	}
	return transform.NodeExprs(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		in, ok := e.(*plan.InSubquery)
		if !ok {
			return e, transform.SameTree, nil
		}
		sq, ok := in.Right().(*plan.Subquery)
		if !ok || types.NumColumns(sq.Type()) != 1 {
			return e, transform.SameTree, nil
		}
		typ := inComparisonType(in.Left().Type(), sq.Type())
		if typ == nil {
			return e, transform.SameTree, nil
		}
		return &inSubqueryAs{left: in.Left(), sq: sq, typ: typ}, transform.NewTree, nil
	})
}

// inComparisonType is the type MySQL compares a value of type left with
// values of type right in, when converting the left value to right loses
// part of it; nil when it does not.
func inComparisonType(left, right sql.Type) sql.Type {
	exact := func(t sql.Type) bool { return types.IsInteger(t) || types.IsDecimal(t) }
	switch {
	case (types.IsDatetimeType(left) || types.IsTimestampType(left)) && types.IsDateType(right):
		return types.DatetimeMaxPrecision
	case types.IsFloat(left) && exact(right):
		return types.Float64
	case types.IsDecimal(left) && exact(right) && decimalScale(right) < decimalScale(left):
		return types.InternalDecimalType
	}
	return nil
}

// decimalScale is the scale of a DECIMAL type, 0 for other types.
func decimalScale(t sql.Type) uint8 {
	if d, ok := t.(sql.DecimalType); ok {
		return d.Scale()
	}
	return 0
}

// inSubqueryAs is `left IN (sq)` compared in typ. A NULL left is NULL
// unless sq has no rows; a left matching no row is NULL if sq has a NULL.
type inSubqueryAs struct {
	left sql.Expression
	sq   *plan.Subquery
	typ  sql.Type

	mu     sync.Mutex
	cached *inValues // the values of an uncorrelated sq, per statement
}

var (
	_ sql.Expression = (*inSubqueryAs)(nil)
	_ sql.Disposable = (*inSubqueryAs)(nil)
)

func (e *inSubqueryAs) Resolved() bool             { return e.left.Resolved() && e.sq.Resolved() }
func (e *inSubqueryAs) IsNullable() bool           { return true }
func (e *inSubqueryAs) Type() sql.Type             { return types.Boolean }
func (e *inSubqueryAs) Children() []sql.Expression { return []sql.Expression{e.left, e.sq} }

func (e *inSubqueryAs) String() string {
	return fmt.Sprintf("(%s IN %s AS %s)", e.left, e.sq, e.typ)
}

func (e *inSubqueryAs) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 2 {
		return nil, sql.ErrInvalidChildrenNumber.New(e, len(children), 2)
	}
	sq, ok := children[1].(*plan.Subquery)
	if !ok {
		return nil, fmt.Errorf("IN of %T, not a subquery", children[1])
	}
	return &inSubqueryAs{left: children[0], sq: sq, typ: e.typ}, nil
}

func (e *inSubqueryAs) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	left, err := e.left.Eval(ctx, row)
	if err != nil {
		return nil, err
	}
	values, err := e.values(ctx, row)
	if err != nil {
		return nil, err
	}
	if left == nil {
		if values.empty {
			return false, nil
		}
		return nil, nil
	}
	left, _, err = e.typ.Convert(ctx, left)
	if err != nil {
		return false, nil
	}
	found, err := values.contains(ctx, e.typ, left)
	if err != nil || found {
		return found, err
	}
	if values.null {
		return nil, nil
	}
	return false, nil
}

// values is the subquery's values for row, kept for the statement when
// the subquery is uncorrelated.
func (e *inSubqueryAs) values(ctx *sql.Context, row sql.Row) (*inValues, error) {
	cache := e.sq.CanCacheResults()
	if cache {
		e.mu.Lock()
		defer e.mu.Unlock()
		if e.cached != nil {
			return e.cached, nil
		}
	}
	rows, err := e.sq.EvalMultiple(ctx, row)
	if err != nil {
		return nil, err
	}
	values, err := newInValues(ctx, e.typ, rows)
	if err == nil && cache {
		e.cached = values
	}
	return values, err
}

func (e *inSubqueryAs) Dispose() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.cached = nil
}

// inValues is a subquery's values converted to the comparison type, by
// hash.
type inValues struct {
	byHash map[uint64][]any
	empty  bool
	null   bool
}

func newInValues(ctx *sql.Context, typ sql.Type, rows []any) (*inValues, error) {
	v := &inValues{byHash: make(map[uint64][]any, len(rows)), empty: len(rows) == 0}
	for _, r := range rows {
		if r == nil {
			v.null = true
			continue
		}
		c, _, err := typ.Convert(ctx, r)
		if err != nil {
			continue
		}
		h, err := sql.HashOf(ctx, sql.NewRow(c))
		if err != nil {
			return nil, err
		}
		v.byHash[h] = append(v.byHash[h], c)
	}
	return v, nil
}

// contains reports whether a value equals x, which is of type typ.
func (v *inValues) contains(ctx *sql.Context, typ sql.Type, x any) (bool, error) {
	h, err := sql.HashOf(ctx, sql.NewRow(x))
	if err != nil {
		return false, err
	}
	for _, c := range v.byHash[h] {
		cmp, err := typ.Compare(ctx, x, c)
		if err != nil || cmp == 0 {
			return err == nil, err
		}
	}
	return false, nil
}
