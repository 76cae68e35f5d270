package gmsfix

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"
)

const ruleDecimalExtremes analyzer.RuleId = 10_309

// compareDecimalExtremes puts decimalExtreme in place of every GREATEST
// and LEAST of integers and DECIMALs with a DECIMAL among them, and casts
// the DECIMALs among floats to DOUBLE (floatsAmongDecimals). GMS
// v0.20.0 (function.compEval) compares only integers, floats, strings
// and times and failed on a DECIMAL value ("unsupported type for
// greatest/least argument: decimal.Decimal"); MySQL compares them
// exactly and answers a DECIMAL of the arguments' largest scale:
// LEAST(1.5, 2.25) is 1.50.
func compareDecimalExtremes(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return rewritePlan(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		var args []sql.Expression
		greatest := false
		switch f := e.(type) {
		case *function.Greatest:
			args, greatest = f.Args, true
		case *function.Least:
			args = f.Args
		default:
			return e, transform.SameTree, nil
		}
		if floatsAmongDecimals(args) {
			return comparedAsDoubles(e, args)
		}
		typ, ok := extremeType(args)
		if !ok {
			return e, transform.SameTree, nil
		}
		return &decimalExtreme{fn: e, greatest: greatest, typ: typ}, transform.NewTree, nil
	})
}

// floatsAmongDecimals reports whether args are numbers, a float and a
// DECIMAL among them: MySQL compares such arguments as doubles and
// answers a DOUBLE (GREATEST(1.5, 2e0) is 2), where GMS fails on the
// DECIMAL value as on any.
func floatsAmongDecimals(args []sql.Expression) bool {
	anyFloat, anyDecimal := false, false
	for _, a := range args {
		t := a.Type()
		switch {
		case types.IsFloat(t):
			anyFloat = true
		case types.IsDecimal(t):
			anyDecimal = true
		case !types.IsInteger(t) && !types.IsNull(a):
			return false
		}
	}
	return anyFloat && anyDecimal
}

// comparedAsDoubles is fn over args with each DECIMAL argument cast to
// DOUBLE, which GMS compares as MySQL does.
func comparedAsDoubles(fn sql.Expression, args []sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	doubles := make([]sql.Expression, len(args))
	for i, a := range args {
		doubles[i] = a
		if types.IsDecimal(a.Type()) {
			doubles[i] = expression.NewConvert(a, expression.ConvertToDouble)
		}
	}
	out, err := fn.WithChildren(doubles...)
	if err != nil {
		return nil, transform.SameTree, err
	}
	return out, transform.NewTree, nil
}

// extremeType is MySQL's DECIMAL type of GREATEST or LEAST of args: the
// most integer digits and the largest scale among them. ok is false
// unless args are integers and DECIMALs, at least one a DECIMAL.
func extremeType(args []sql.Expression) (sql.DecimalType, bool) {
	intDigits, scale := 1, uint8(0)
	anyDecimal := false
	for _, a := range args {
		precision, s, ok := exactPrecision(a.Type())
		if !ok {
			return nil, false
		}
		_, isDecimal := a.Type().(sql.DecimalType)
		anyDecimal = anyDecimal || isDecimal
		intDigits = max(intDigits, precision-int(s))
		scale = max(scale, s)
	}
	if !anyDecimal {
		return nil, false
	}
	precision := min(intDigits+int(scale), maxDecimalPrecision)
	return types.MustCreateDecimalType(uint8(precision), scale), true
}

// decimalExtreme is GREATEST (greatest) or LEAST of integers and
// DECIMALs as MySQL computes it: NULL when an argument is NULL, else the
// greatest or least value, compared exactly, in typ.
type decimalExtreme struct {
	fn       sql.Expression
	greatest bool
	typ      sql.DecimalType
}

var _ sql.Expression = (*decimalExtreme)(nil)

func (x *decimalExtreme) Resolved() bool             { return x.fn.Resolved() }
func (x *decimalExtreme) IsNullable() bool           { return x.fn.IsNullable() }
func (x *decimalExtreme) Type() sql.Type             { return x.typ }
func (x *decimalExtreme) Children() []sql.Expression { return x.fn.Children() }
func (x *decimalExtreme) String() string             { return x.fn.String() }
func (x *decimalExtreme) DebugString() string        { return sql.DebugString(x.fn) }

// CollationCoercibility implements sql.CollationCoercible as a number's.
func (x *decimalExtreme) CollationCoercibility(*sql.Context) (sql.CollationID, byte) {
	return sql.Collation_binary, 5
}

func (x *decimalExtreme) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	fn, err := x.fn.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	typ, ok := extremeType(children)
	if !ok {
		return fn, nil
	}
	return &decimalExtreme{fn: fn, greatest: x.greatest, typ: typ}, nil
}

func (x *decimalExtreme) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	var best *decimal.Decimal
	for _, a := range x.fn.Children() {
		d, err := evalDecimal(ctx, a, row)
		if err != nil || d == nil {
			return nil, err
		}
		if best == nil || (x.greatest && d.GreaterThan(*best)) || (!x.greatest && d.LessThan(*best)) {
			best = d
		}
	}
	return best.Round(int32(x.typ.Scale())), nil
}
