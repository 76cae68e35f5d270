package gmsfix

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"

	lakesqltypes "github.com/lakesql/lakesql/planner/sqltypes"
)

// ruleNumericComparisons is the analyzer rule id of compareNumbersAsMySQL.
const ruleNumericComparisons analyzer.RuleId = 10_304

// compareNumbersAsMySQL makes comparisons of a DECIMAL with a floating-point
// number or with a DECIMAL of another scale compare as MySQL does
// (https://dev.mysql.com/doc/refman/8.0/en/type-conversion.html): "If one of
// the arguments is a decimal value, comparison depends on the other
// argument. The arguments are compared as decimal values if the other
// argument is a decimal or integer value, or as floating-point values if
// the other argument is a floating-point value."
//
// GMS v0.20.0 (expression/comparison.go castLeftAndRight) compares any
// pair with a DECIMAL in the left DECIMAL type, else in the right one, and
// a column's DECIMAL type rounds the other value to its scale: score < qty
// with score DOUBLE 7.5 and qty DECIMAL(6,0) 8 compared 8 < 8, so UPDATE …
// WHERE score < qty missed rows and a join on score = qty matched -14.4
// with -14; amt = rate matched 1.13 with 1.125. The rule gives the DECIMAL
// side of a DECIMAL-DOUBLE pair as a DOUBLE (a literal is converted now,
// so filters on DOUBLE columns still push down), and puts the DECIMAL with
// the larger scale on the left of a DECIMAL-DECIMAL pair, whose type then
// holds the other value exactly. BETWEEN over such operands becomes the
// two comparisons it means, and IN retypes its elements (inAsMySQL). A decimal literal compared with a column loses
// the CAST keepDecimalLiterals put around it.
func compareNumbersAsMySQL(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return rewritePlan(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		switch x := e.(type) {
		case *expression.Between:
			return betweenAsMySQL(x)
		case *expression.InTuple:
			return inAsMySQL(x)
		}
		return comparisonAsMySQL(e)
	})
}

// comparisonAsMySQL rewrites one comparison whose operands GMS would
// compare otherwise than MySQL.
func comparisonAsMySQL(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	mirror, ok := mirrors(e)
	if !ok {
		return e, transform.SameTree, nil
	}
	l, r := e.Children()[0], e.Children()[1]
	l, plainL := plainDecimalLiteral(l)
	r, plainR := plainDecimalLiteral(r)
	if plainL || plainR {
		var err error
		if e, err = e.WithChildren(l, r); err != nil {
			return nil, transform.SameTree, err
		}
	}
	lt, rt := l.Type(), r.Type()
	switch {
	case types.IsDecimal(lt) && types.IsFloat(rt):
		out, err := e.WithChildren(asDouble(l), r)
		return out, transform.NewTree, err
	case types.IsFloat(lt) && types.IsDecimal(rt):
		out, err := e.WithChildren(l, asDouble(r))
		return out, transform.NewTree, err
	case types.IsDecimal(lt) && types.IsDecimal(rt) && roundsBelow(lt, rt):
		return mirror(r, l), transform.NewTree, nil
	case plainL || plainR:
		return e, transform.NewTree, nil
	}
	return e, transform.SameTree, nil
}

// mirrors returns the constructor of e's comparison with its operands
// swapped (a < b is b > a), when e is a comparison.
func mirrors(e sql.Expression) (func(l, r sql.Expression) sql.Expression, bool) {
	switch e.(type) {
	case *expression.Equals:
		return func(l, r sql.Expression) sql.Expression { return expression.NewEquals(l, r) }, true
	case *expression.NullSafeEquals:
		return func(l, r sql.Expression) sql.Expression { return expression.NewNullSafeEquals(l, r) }, true
	case *expression.LessThan:
		return func(l, r sql.Expression) sql.Expression { return expression.NewGreaterThan(l, r) }, true
	case *expression.LessThanOrEqual:
		return func(l, r sql.Expression) sql.Expression { return expression.NewGreaterThanOrEqual(l, r) }, true
	case *expression.GreaterThan:
		return func(l, r sql.Expression) sql.Expression { return expression.NewLessThan(l, r) }, true
	case *expression.GreaterThanOrEqual:
		return func(l, r sql.Expression) sql.Expression { return expression.NewLessThanOrEqual(l, r) }, true
	}
	return nil, false
}

// betweenAsMySQL is b as val >= lower AND val <= upper, the two
// comparisons it means, when either would be rewritten.
func betweenAsMySQL(b *expression.Between) (sql.Expression, transform.TreeIdentity, error) {
	lower, sameLower, err := comparisonAsMySQL(expression.NewGreaterThanOrEqual(b.Val, b.Lower))
	if err != nil {
		return nil, transform.SameTree, err
	}
	upper, sameUpper, err := comparisonAsMySQL(expression.NewLessThanOrEqual(b.Val, b.Upper))
	if err != nil {
		return nil, transform.SameTree, err
	}
	if sameLower && sameUpper {
		return b, transform.SameTree, nil
	}
	return expression.NewAnd(lower, upper), transform.NewTree, nil
}

// inAsMySQL retypes the elements of x IN (…) that GMS would compare
// otherwise than MySQL. GMS's InTuple.Eval compares x with a DECIMAL or
// float element in the element's type, which rounds a DOUBLE or DECIMAL x
// to a DECIMAL element's scale: rate IN (1.13, id) matched rate 1.125.
// Such a DECIMAL element is compared with a DOUBLE x as a DOUBLE, with a
// DECIMAL x of larger scale in a DECIMAL of x's scale. (GMS's HashInTuple,
// which replaces IN over constants later, compares the exact values.)
func inAsMySQL(in *expression.InTuple) (sql.Expression, transform.TreeIdentity, error) {
	elems, ok := in.Right().(expression.Tuple)
	lt := in.Left().Type()
	if !ok || !types.IsFloat(lt) && !types.IsDecimal(lt) {
		return in, transform.SameTree, nil
	}
	out := make(expression.Tuple, len(elems))
	changed := false
	for i, el := range elems {
		out[i] = el
		et := el.Type()
		switch {
		case !types.IsDecimal(et):
		case types.IsFloat(lt):
			out[i], changed = asDouble(el), true
		case et.(sql.DecimalType).Scale() < lt.(sql.DecimalType).Scale():
			out[i], changed = atScale(el, lt.(sql.DecimalType).Scale()), true
		}
	}
	if !changed {
		return in, transform.SameTree, nil
	}
	return expression.NewInTuple(in.Left(), out), transform.NewTree, nil
}

// atScale is the DECIMAL expression e as a DECIMAL of the larger scale,
// which holds its values exactly and rounds nothing.
func atScale(e sql.Expression, scale uint8) sql.Expression {
	typ := types.MustCreateDecimalType(maxDecimalPrecision, scale)
	if lit, ok := e.(*expression.Literal); ok {
		return expression.NewLiteral(lit.Value(), typ)
	}
	return &toAggregate{child: e, typ: typ}
}

// asDouble is the exact-value expression e as a DOUBLE.
func asDouble(e sql.Expression) sql.Expression {
	if lit, ok := e.(*expression.Literal); ok {
		if d, ok := lit.Value().(decimal.Decimal); ok {
			f, _ := d.Float64()
			return expression.NewLiteral(f, types.Float64)
		}
	}
	return expression.NewConvert(e, expression.ConvertToDouble)
}

// roundsBelow reports whether GMS, comparing in DECIMAL type left, would
// round values of DECIMAL type right: left is a column's type (which
// rounds to its scale; DecimalType_.definesColumn is not exported, so
// this is probed) with a smaller scale.
func roundsBelow(left, right sql.Type) bool {
	l, r := left.(sql.DecimalType), right.(sql.DecimalType)
	return r.Scale() > l.Scale() && lakesqltypes.DecimalDefinesColumn(l)
}
