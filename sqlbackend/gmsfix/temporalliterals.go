package gmsfix

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// ruleTemporalLiterals is the analyzer rule id of convertTemporalLiterals.
const ruleTemporalLiterals analyzer.RuleId = 10_306

// TemporalLiterals is convertTemporalLiterals, a post-analysis rule for
// the statements enabled holds for: a rewrite for speed, which the
// differential tests turn off with the rest of lakesql's planner rewrites.
func TemporalLiterals(enabled func(*sql.Context) bool) analyzer.Rule {
	apply := func(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
		if !enabled(ctx) {
			return n, transform.SameTree, nil
		}
		return rewritePlan(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
			return convertTemporalLiteral(ctx, e)
		})
	}
	return analyzer.Rule{Id: ruleTemporalLiterals, Apply: apply}
}

// convertTemporalLiteral converts, once per statement, the text literal of
// a comparison with a DATE, DATETIME or TIMESTAMP operand (dt = '2024-01-01'
// where the scan could not decide it, DATE(ts) >= '2024-01-01'). GMS v0.20.0
// (expression/comparison.go castLeftAndRight) converts both operands of such
// a comparison to DATETIME(6) for every row it compares, parsing the text
// again each time. The literal becomes the DATETIME(6) value that
// conversion makes of it, which the same conversion, applied to it per row,
// leaves as it is: the comparison still takes the same path and compares
// the same values, only without parsing. Text that does not convert stays,
// to fail or warn as it did.
func convertTemporalLiteral(ctx *sql.Context, e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	switch e.(type) {
	case *expression.Equals, *expression.NullSafeEquals, *expression.LessThan, *expression.LessThanOrEqual,
		*expression.GreaterThan, *expression.GreaterThanOrEqual:
	default:
		return e, transform.SameTree, nil
	}
	children := e.Children()
	l, r := children[0], children[1]
	switch {
	case types.IsTime(l.Type()):
		r = datetimeLiteral(ctx, r)
	case types.IsTime(r.Type()):
		l = datetimeLiteral(ctx, l)
	}
	if l == children[0] && r == children[1] {
		return e, transform.SameTree, nil
	}
	out, err := e.WithChildren(l, r)
	return out, transform.NewTree, err
}

// datetimeLiteral is e converted to DATETIME(6) when e is a text literal
// that converts, else e.
func datetimeLiteral(ctx *sql.Context, e sql.Expression) sql.Expression {
	lit, ok := e.(*expression.Literal)
	if !ok || !types.IsTextOnly(lit.Type()) {
		return e
	}
	s, ok := lit.Value().(string)
	if !ok {
		return e
	}
	v, _, err := types.DatetimeMaxPrecision.Convert(ctx, s)
	if err != nil || v == nil {
		return e
	}
	return expression.NewLiteral(v, types.DatetimeMaxPrecision)
}
