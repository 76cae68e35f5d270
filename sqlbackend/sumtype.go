package sqlbackend

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function/aggregation"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// ruleDecimalSums is the analyzer rule id of typeDecimalSums.
const ruleDecimalSums analyzer.RuleId = 10_004

// maxDecimalPrecision is MySQL's DECIMAL precision limit.
const maxDecimalPrecision = 65

// typeDecimalSums gives SUM over a DECIMAL column MySQL's result type,
// DECIMAL(min(65, p+22), s). GMS v0.20.0 computes such a sum exactly but
// declares every SUM a DOUBLE (sql/planbuilder/aggregates.go), so clients
// received daily totals of money as floating point, printed by the mariadb
// CLI as 1.23457884e+06. The rule retypes every reference to such a sum.
func typeDecimalSums(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	sums := decimalSumColumns(n)
	if len(sums) == 0 {
		return n, transform.SameTree, nil
	}
	return transform.NodeExprs(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		gf, ok := e.(*expression.GetField)
		if !ok || !types.IsFloat(gf.Type()) {
			return e, transform.SameTree, nil
		}
		typ, ok := sums[gf.Id()]
		if !ok {
			return e, transform.SameTree, nil
		}
		retyped := expression.NewGetFieldWithTable(gf.Index(), int(gf.TableId()), typ, gf.Database(), gf.Table(), gf.Name(), gf.IsNullable())
		return retyped.WithId(gf.Id()).(sql.Expression), transform.NewTree, nil
	})
}

// decimalSumColumns maps the column id of every SUM over a DECIMAL
// expression to its MySQL result type.
func decimalSumColumns(n sql.Node) map[sql.ColumnId]sql.Type {
	sums := map[sql.ColumnId]sql.Type{}
	transform.Inspect(n, func(n sql.Node) bool {
		if gb, ok := n.(*plan.GroupBy); ok {
			for _, e := range gb.SelectedExprs {
				if a, ok := e.(*expression.Alias); ok {
					e = a.Child
				}
				if sum, ok := e.(*aggregation.Sum); ok {
					if typ, ok := decimalSumType(sum.Child.Type()); ok {
						sums[sum.Id()] = typ
					}
				}
			}
		}
		return true
	})
	return sums
}

// decimalSumType is the type of SUM over a value of type t, when t is a
// DECIMAL.
func decimalSumType(t sql.Type) (sql.Type, bool) {
	d, ok := t.(sql.DecimalType)
	if !ok {
		return nil, false
	}
	precision := min(int(d.Precision())+22, maxDecimalPrecision)
	typ, err := types.CreateDecimalType(uint8(precision), d.Scale())
	return typ, err == nil
}
