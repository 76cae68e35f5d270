package gmsfix

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// rulePushJoinConditions is the analyzer rule id of pushInnerJoinConditions.
const rulePushJoinConditions analyzer.RuleId = 10_014

// pushInnerJoinConditions moves each conjunct of an inner join's ON
// condition that reads the tables of one side only into a filter on that
// side, before GMS plans the joins. GMS's join reordering loses such
// conjuncts: in t1 a1 JOIN t1 a2 … LEFT JOIN t2 a3 … JOIN t1 a4 ON a4.k =
// a1.k AND a4.score IS NOT NULL it moved a4's join below the left join and
// dropped a4.score IS NOT NULL from the edge it rebuilt (memo's join order
// builder), returning rows it excludes. A conjunct of one side filters that
// side's rows the same above or below an inner join, and as a filter on a
// table it is also pushed into the table's scan.
func pushInnerJoinConditions(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		j, ok := n.(*plan.JoinNode)
		if !ok || !j.Op.IsInner() || j.Filter == nil {
			return n, transform.SameTree, nil
		}
		return splitJoinCondition(j)
	})
}

func splitJoinCondition(j *plan.JoinNode) (sql.Node, transform.TreeIdentity, error) {
	left, right := tablesOf(j.Left()), tablesOf(j.Right())
	var keep, onLeft, onRight []sql.Expression
	for _, c := range expression.SplitConjunction(j.Filter) {
		reads, ok := tablesRead(c)
		switch {
		case ok && reads.SubsetOf(right):
			onRight = append(onRight, c)
		case ok && reads.SubsetOf(left):
			onLeft = append(onLeft, c)
		default:
			keep = append(keep, c)
		}
	}
	if len(onLeft) == 0 && len(onRight) == 0 {
		return j, transform.SameTree, nil
	}
	out := *j
	out.Filter = expression.NewLiteral(true, types.Boolean)
	if len(keep) > 0 {
		out.Filter = expression.JoinAnd(keep...)
	}
	moved, err := out.WithChildren(filtered(j.Left(), onLeft), filtered(j.Right(), onRight))
	return moved, transform.NewTree, err
}

func filtered(n sql.Node, conjuncts []sql.Expression) sql.Node {
	if len(conjuncts) == 0 {
		return n
	}
	return plan.NewFilter(expression.JoinAnd(conjuncts...), n)
}

// tablesOf are the ids of the tables n reads (a join input outputs),
// subqueries in expressions aside.
func tablesOf(n sql.Node) sql.FastIntSet {
	var ids sql.FastIntSet
	transform.Inspect(n, func(n sql.Node) bool {
		if t, ok := n.(plan.TableIdNode); ok {
			ids.Add(int(t.Id()))
		}
		return true
	})
	return ids
}

// tablesRead are the ids of the tables an expression reads columns of;
// ok is false when it reads none (a constant) or holds a subquery, whose
// columns the expression's own do not show.
func tablesRead(e sql.Expression) (ids sql.FastIntSet, ok bool) {
	subquery := false
	transform.InspectExpr(e, func(e sql.Expression) bool {
		switch x := e.(type) {
		case *expression.GetField:
			ids.Add(int(x.TableId()))
		case *plan.Subquery:
			subquery = true
		}
		return false
	})
	return ids, !subquery && ids.Len() > 0
}
