package gmsfix

import (
	"fmt"
	"strconv"
	"strings"
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
// expression (correlated, NOT IN, or outside a WHERE) whose x GMS would
// convert to the subquery's type losing part of it: GMS v0.20.0 converts
// x to that type and compares there (plan.InSubquery.Eval), so a DATETIME
// '2024-01-04 23:30:59' was IN (SELECT DATE '2024-01-04') and a DELETE
// removed it, 1.5 was IN (SELECT 2) and '7.5' IN (SELECT 8). MySQL
// compares a DATETIME with a DATE, and a string with a temporal value, as
// DATETIMEs, exact numbers as DECIMALs, and a floating-point number with
// another number, or a string with a number, as floating-point numbers
// (https://dev.mysql.com/doc/refman/8.0/en/type-conversion.html); and
// GMS's conversion of a string longer than the subquery's VARCHAR(n)
// fails, which it answered as FALSE even where the subquery has a NULL
// and NOT IN is NULL. The IN
// subqueries GMS unnests into joins compare with `=`, as MySQL does.
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
// values of type right in, when GMS's conversion of the left value to
// right loses part of it or compares in another way; nil when it does not.
func inComparisonType(left, right sql.Type) sql.Type {
	exact := func(t sql.Type) bool { return types.IsInteger(t) || types.IsDecimal(t) }
	switch {
	case types.IsTime(left) && types.IsDateType(right) && !types.IsDateType(left),
		types.IsText(left) && types.IsTime(right), types.IsTime(left) && types.IsText(right):
		return types.DatetimeMaxPrecision
	case types.IsText(left) && types.IsNumber(right), types.IsNumber(left) && types.IsText(right):
		return types.Float64
	case types.IsText(left) && types.IsText(right) && maxChars(left) > maxChars(right):
		// GMS's conversion of a longer string to the subquery's
		// VARCHAR(n) fails, and it then answers FALSE without looking
		// for the subquery's NULL.
		return types.LongText
	case types.IsFloat(left) && exact(right):
		return types.Float64
	case types.IsDecimal(left) && exact(right) && decimalScale(right) < decimalScale(left):
		return types.InternalDecimalType
	}
	return nil
}

// maxChars is the length a string type holds, in characters.
func maxChars(t sql.Type) int64 {
	if s, ok := t.(sql.StringType); ok {
		return s.MaxCharacterLength()
	}
	return 0
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
	if left, ok := convertForIn(ctx, e.typ, left); ok {
		found, err := values.contains(ctx, e.typ, left)
		if err != nil || found {
			return found, err
		}
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
		c, ok := convertForIn(ctx, typ, r)
		if !ok {
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

// convertForIn is v in the comparison type typ: a string is the number
// it starts with when compared as a number, as MySQL reads it ('2024-01-04'
// is 2024, 'abc' 0); false when v has no value of typ (a string that is no
// date), which equals nothing.
func convertForIn(ctx *sql.Context, typ sql.Type, v any) (any, bool) {
	c, _, err := typ.Convert(ctx, v)
	if err == nil {
		return c, true
	}
	if s, ok := v.(string); ok && types.IsFloat(typ) {
		return numericPrefix(s), true
	}
	return nil, false
}

// numericPrefix is the number s starts with, 0 if none.
func numericPrefix(s string) float64 {
	f, _ := strconv.ParseFloat(numericPrefixText(s), 64)
	return f
}

// numericPrefixText is the text of the number s starts with after its
// leading spaces, "" if none.
func numericPrefixText(s string) string {
	s = strings.TrimLeft(s, " \t\r\n")
	digits := func(i int) int {
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i
	}
	end := 0
	if end < len(s) && (s[end] == '+' || s[end] == '-') {
		end++
	}
	mantissa := end
	end = digits(end)
	if end < len(s) && s[end] == '.' {
		end = digits(end + 1)
	}
	if end-mantissa < 1 || s[mantissa:end] == "." {
		return ""
	}
	if end < len(s) && (s[end] == 'e' || s[end] == 'E') {
		exp := end + 1
		if exp < len(s) && (s[exp] == '+' || s[exp] == '-') {
			exp++
		}
		if after := digits(exp); after > exp {
			end = after
		}
	}
	return s[:end]
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
