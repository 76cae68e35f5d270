package gmsfix

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function/aggregation"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// ruleExactSums is the analyzer rule id of typeExactSums.
const ruleExactSums analyzer.RuleId = 10_004

// maxDecimalPrecision is MySQL's DECIMAL precision limit.
const maxDecimalPrecision = 65

// typeExactSums gives SUM over an exact value (an integer or a DECIMAL,
// in a GROUP BY or a window) MySQL's result type, DECIMAL(min(65, p+22), s),
// computed exactly (exactSum). GMS v0.20.0 declares every SUM a DOUBLE
// (sql/planbuilder/aggregates.go), so clients received daily totals of
// money as floating point, printed by the mariadb CLI as 1.23457884e+06,
// and SUM(decimal) OVER (…) and SUM(LENGTH(s)) even computed as float64.
// The rule replaces those sums and retypes every reference to them; SUM of
// FLOAT or DOUBLE stays a DOUBLE, as in MySQL.
func typeExactSums(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	sums := exactSumColumns(n)
	if len(sums) == 0 {
		return n, transform.SameTree, nil
	}
	return transform.NodeExprs(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		switch e := e.(type) {
		case *aggregation.Sum:
			if exact, ok := newExactSum(e); ok {
				return exact, transform.NewTree, nil
			}
		case *expression.GetField:
			return fieldOfColumnType(e, sums)
		}
		return e, transform.SameTree, nil
	})
}

// fieldOfColumnType is f with the type typs has for its column, if that
// is another.
func fieldOfColumnType(f *expression.GetField, typs map[sql.ColumnId]sql.Type) (sql.Expression, transform.TreeIdentity, error) {
	typ, ok := typs[f.Id()]
	if !ok || types.TypesEqual(f.Type(), typ) {
		return f, transform.SameTree, nil
	}
	return retypedField(f, typ), transform.NewTree, nil
}

// exactSumColumns maps the column id of every SUM over an exact value,
// aggregated or windowed, to its MySQL result type.
func exactSumColumns(n sql.Node) map[sql.ColumnId]sql.Type {
	sums := map[sql.ColumnId]sql.Type{}
	transform.Inspect(n, func(n sql.Node) bool {
		var exprs []sql.Expression
		switch x := n.(type) {
		case *plan.GroupBy:
			exprs = x.SelectedExprs
		case *plan.Window:
			exprs = x.SelectExprs
		}
		for _, e := range exprs {
			if a, ok := e.(*expression.Alias); ok {
				e = a.Child
			}
			if sum, ok := e.(*aggregation.Sum); ok {
				if typ, ok := exactSumType(sum.Child.Type()); ok {
					sums[sum.Id()] = typ
				}
			}
		}
		return true
	})
	return sums
}
