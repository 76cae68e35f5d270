package gmsfix

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// ruleStripRowsOnce is the analyzer rule id of stripOuterRowsOnce.
const ruleStripRowsOnce analyzer.RuleId = 10_205

// stripOuterRowsOnce undoes a second StripRowNode GMS v0.20.0 puts around
// the inputs of a join in a subquery of a UNION branch. Its exec-index
// pass (analyzer/fix_exec_indexes.go, finalizeSelf) wraps each input of a
// join in a subquery in a StripRowNode that drops the outer row prepended
// to its rows, and it runs twice over a UNION branch: once when
// finalizeUnions analyzes the branch, whose rule selector keeps the pass,
// and again over the whole statement. Each input then dropped the outer
// row's columns twice: "slice bounds out of range [8:1]"
// (rowexec stripRowIter). Only that pass makes StripRowNodes, always
// directly under a join, so one directly inside another is such a double.
func stripOuterRowsOnce(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return stripRowsOnceIn(n)
}

// stripRowsOnceIn collapses the double StripRowNodes of n and of the
// subqueries in its expressions.
func stripRowsOnceIn(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeWithOpaque(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		n, same, err := transform.OneNodeExpressions(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
			return transform.Expr(e, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
				sq, ok := e.(*plan.Subquery)
				if !ok {
					return e, transform.SameTree, nil
				}
				q, same, err := stripRowsOnceIn(sq.Query)
				if err != nil || same {
					return e, transform.SameTree, err
				}
				return sq.WithQuery(q), transform.NewTree, nil
			})
		})
		if err != nil {
			return nil, transform.SameTree, err
		}
		outer, ok := n.(*plan.StripRowNode)
		if !ok {
			return n, same, nil
		}
		inner, ok := outer.Child.(*plan.StripRowNode)
		if !ok || inner.NumCols != outer.NumCols {
			return n, same, nil
		}
		return inner, transform.NewTree, nil
	})
}
