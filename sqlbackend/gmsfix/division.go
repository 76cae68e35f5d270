package gmsfix

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/expression/function/aggregation"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"
)

const ruleExactDivision analyzer.RuleId = 10_307

// divPrecisionIncrement is MySQL's div_precision_increment (4 by
// default, which lakesql does not change): the digits / adds to the
// dividend's scale.
const divPrecisionIncrement = 4

// divideExactly puts exactDiv in place of every / of integers and
// DECIMALs whose value is a result, not an operand of more arithmetic.
//
// MySQL (decimal_div in strings/decimal.cc, then Item_func_div) computes
// the quotient to the operands' scales plus div_precision_increment,
// rounded up to whole 9-digit words, truncating, and rounds that once,
// half away from zero, to the result's scale, the dividend's plus
// div_precision_increment
// (https://dev.mysql.com/doc/refman/8.0/en/arithmetic-functions.html#operator_divide).
// Where the word holds more digits than the result, that is the exact
// quotient rounded once: 499999995 / 10000000000000 is 0.0000. GMS
// v0.20.0 (expression.Div.div and Eval) rounds the quotient to two digits
// past the word, truncates it to the word and rounds it again, which
// makes 0.0000499999995 into 0.00005000000 and then 0.0001.
//
// The expressions are walked bottom-up, so every eligible / is wrapped
// first and an arithmetic operator over one takes GMS's back: inside
// arithmetic GMS keeps the quotient unrounded (in float64, or to 9
// digits), as MySQL keeps more digits than the scale it shows.
func divideExactly(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return rewritePlan(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		switch e.(type) {
		case *expression.Convert, *function.Round, *aggregation.Sum, *aggregation.Avg:
			return unroundedDivisions(e)
		}
		op, ok := e.(expression.ArithmeticOp)
		if !ok {
			return e, transform.SameTree, nil
		}
		out, same, err := unwrapDivisions(op)
		if err != nil {
			return nil, transform.SameTree, err
		}
		if d, ok := out.(*expression.Div); ok && exactlyDivisible(d) {
			return newExactDiv(d), transform.NewTree, nil
		}
		return out, same, nil
	})
}

// unwrapDivisions gives op GMS's / back for its exactDiv operands.
func unwrapDivisions(op expression.ArithmeticOp) (sql.Expression, transform.TreeIdentity, error) {
	children := op.Children()
	var out []sql.Expression
	for i, c := range children {
		if x, ok := c.(*exactDiv); ok {
			if out == nil {
				out = append([]sql.Expression(nil), children...)
			}
			out[i] = x.div
		}
	}
	if out == nil {
		return op, transform.SameTree, nil
	}
	e, err := op.WithChildren(out...)
	return e, transform.NewTree, err
}

// unroundedDivisions makes e's exactDiv operands give MySQL's unrounded
// quotient, which CAST, ROUND, SUM and AVG read: CAST(2/3 AS
// DECIMAL(10,6)) is 0.666667, ROUND(1/3, 6) 0.333333, and SUM(a/3) over
// 1, 1, 1 and 2 is 1.6667 (1.666666665), not 1.6666.
func unroundedDivisions(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	children := e.Children()
	var out []sql.Expression
	for i, c := range children {
		if x, ok := c.(*exactDiv); ok && !x.unrounded {
			if out == nil {
				out = append([]sql.Expression(nil), children...)
			}
			u := *x
			u.unrounded = true
			out[i] = &u
		}
	}
	if out == nil {
		return e, transform.SameTree, nil
	}
	e, err := e.WithChildren(out...)
	return e, transform.NewTree, err
}

// exactlyDivisible reports whether both of d's operands are integers or
// DECIMALs.
func exactlyDivisible(d *expression.Div) bool {
	for _, c := range []sql.Expression{d.LeftChild, d.RightChild} {
		t := c.Type()
		if !types.IsInteger(t) && !types.IsDecimal(t) {
			return false
		}
	}
	return true
}

// exactDiv is / of integers or DECIMALs as MySQL computes it: NULL when
// an operand is NULL or the divisor 0 (with MySQL's warning 1365), else
// the quotient truncated to whole 9-digit words (unroundedScale) and,
// unless unrounded, rounded once, half away from zero, to its type's
// scale, the dividend's plus div_precision_increment.
type exactDiv struct {
	div       *expression.Div
	typ       sql.DecimalType
	unrounded bool
}

var _ sql.Expression = (*exactDiv)(nil)

func newExactDiv(d *expression.Div) *exactDiv {
	scale := uint8(divPrecisionIncrement)
	if t, ok := d.LeftChild.Type().(sql.DecimalType); ok {
		scale += t.Scale()
	}
	scale = min(scale, types.DecimalTypeMaxScale)
	// GMS's precision, which it gives the column, with MySQL's scale.
	precision := uint8(types.DecimalTypeMaxPrecision)
	if t, ok := d.Type().(sql.DecimalType); ok {
		precision = max(t.Precision(), scale)
	}
	return &exactDiv{div: d, typ: types.MustCreateDecimalType(precision, scale)}
}

// ExactDivision is the dividend, the divisor and the result scale of a /
// this package computes as MySQL does (exact, rounded once), for the
// backend to translate it: ok is false for other expressions, the
// unrounded quotients under CAST, ROUND, SUM and AVG among them.
func ExactDivision(e sql.Expression) (l, r sql.Expression, scale uint8, ok bool) {
	if x, ok := e.(*exactDiv); ok && !x.unrounded {
		return x.div.LeftChild, x.div.RightChild, x.typ.Scale(), true
	}
	return nil, nil, 0, false
}

func (x *exactDiv) Resolved() bool             { return x.div.Resolved() }
func (x *exactDiv) IsNullable() bool           { return true }
func (x *exactDiv) Type() sql.Type             { return x.typ }
func (x *exactDiv) Children() []sql.Expression { return x.div.Children() }
func (x *exactDiv) String() string             { return x.div.String() }
func (x *exactDiv) DebugString() string        { return x.div.DebugString() }

// CollationCoercibility implements sql.CollationCoercible as GMS's Div.
func (x *exactDiv) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	return x.div.CollationCoercibility(ctx)
}

func (x *exactDiv) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	d, err := x.div.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	if div, ok := d.(*expression.Div); ok && exactlyDivisible(div) {
		out := newExactDiv(div)
		out.unrounded = x.unrounded
		return out, nil
	}
	return d, nil
}

func (x *exactDiv) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	l, err := evalDecimal(ctx, x.div.LeftChild, row)
	if err != nil || l == nil {
		return nil, err
	}
	r, err := evalDecimal(ctx, x.div.RightChild, row)
	if err != nil || r == nil {
		return nil, err
	}
	if r.IsZero() {
		ctx.Warn(expression.ERDivisionByZero, "Division by 0")
		return nil, nil
	}
	q, _ := l.QuoRem(*r, unroundedScale(x.div))
	if x.unrounded {
		return q, nil
	}
	return q.Round(int32(x.typ.Scale())), nil
}

// unroundedScale is the scale of MySQL's quotient of d before it is
// rounded: the operands' scales and div_precision_increment, rounded up
// to whole 9-digit words (decimal_div in strings/decimal.cc).
func unroundedScale(d *expression.Div) int32 {
	digits := int32(divPrecisionIncrement)
	for _, c := range []sql.Expression{d.LeftChild, d.RightChild} {
		if t, ok := c.Type().(sql.DecimalType); ok {
			digits += int32(t.Scale())
		}
	}
	return (digits + 8) / 9 * 9
}

// evalDecimal is e's value as an exact decimal, nil for NULL.
func evalDecimal(ctx *sql.Context, e sql.Expression, row sql.Row) (*decimal.Decimal, error) {
	v, err := e.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	if d, ok := v.(decimal.Decimal); ok {
		return &d, nil
	}
	c, _, err := types.InternalDecimalType.Convert(ctx, v)
	if err != nil {
		return nil, err
	}
	d := c.(decimal.Decimal)
	return &d, nil
}
