package duckplan

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
)

// rowBound is the most rows n can return as its plan proves it: the
// constant of a LIMIT or top-N, one for an aggregate without GROUP BY,
// or 0 when the plan proves no bound. Nodes that never add rows pass
// their child's bound up.
func rowBound(n sql.Node) int64 {
	switch n := n.(type) {
	case *plan.Limit:
		return minBound(constantRows(n.Limit), rowBound(n.Child))
	case *plan.TopN:
		return minBound(constantRows(n.Limit), rowBound(n.Child))
	case *plan.GroupBy:
		if len(n.GroupByExprs) == 0 {
			return 1
		}
		return 0
	case *plan.Project, *plan.Filter, *plan.Having, *plan.Sort, *plan.Distinct,
		*plan.OrderedDistinct, *plan.SubqueryAlias, *plan.TableAlias, *plan.Offset:
		return rowBound(n.Children()[0])
	}
	return 0
}

// constantRows is a LIMIT's row count when it is a literal integer, else 0.
func constantRows(e sql.Expression) int64 {
	lit, ok := e.(*expression.Literal)
	if !ok {
		return 0
	}
	switch v := lit.Value().(type) {
	case int64:
		return max(v, 0)
	case int32:
		return max(int64(v), 0)
	case int8:
		return max(int64(v), 0)
	case int16:
		return max(int64(v), 0)
	case uint64:
		return int64(min(v, 1<<62))
	case uint32:
		return int64(v)
	case uint8:
		return int64(v)
	case uint16:
		return int64(v)
	}
	return 0
}

// minBound is the tighter of two bounds, 0 meaning none.
func minBound(a, b int64) int64 {
	switch {
	case a == 0:
		return b
	case b == 0:
		return a
	}
	return min(a, b)
}
