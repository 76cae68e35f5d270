package gmsfix

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// ruleOwnCorrelations is the analyzer rule id of dropOwnCorrelations.
const ruleOwnCorrelations analyzer.RuleId = 10_251

// dropOwnCorrelations runs right after GMS's hoistOutOfScopeFilters and
// removes from every derived table's and subquery's correlation set the
// columns the derived table or subquery defines itself.
//
// A query block is correlated only on columns of enclosing blocks. GMS
// v0.20.0's recurseSubqueryForOuterFilters (sql/analyzer/hoist_filters.go)
// sets a derived table's correlation to the union of the correlations of
// the subqueries in its WHERE, without removing the derived table's own
// columns: in
//
//	SELECT * FROM (SELECT g.x FROM (SELECT t.x FROM t WHERE t.x IN (SELECT u.x FROM u WHERE u.y = t.y) AND EXISTS (SELECT 1 FROM v)) g) o
//
// g becomes "correlated" on t.y. When GMS analyzes o's block on its own
// (analyzeSubqueryAlias runs the once-before batch again), the same rule
// takes t.y as an outer column, finds that the uncorrelated EXISTS
// references no column of g's block, hoists it out of g and, having no
// enclosing block to put it in, fails the statement with "rule
// 'hoistOutOfScopeFilters' tried to hoist filters above root node". This
// is what grouped window functions in a derived table produce
// (groupWindowBlocks nests the grouped block in a derived table). MySQL
// runs the statement (https://dev.mysql.com/doc/refman/8.0/en/derived-tables.html).
//
// The sets keep the outer columns GMS found; a false correlation also
// kept GMS from caching the derived table's rows.
func dropOwnCorrelations(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qFlags *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !qFlags.SubqueryIsSet() {
		return n, transform.SameTree, nil
	}
	return ownCorrelationsDropped(n)
}

// ownCorrelationsDropped is n with the correlation sets of its derived
// tables and subqueries (at any depth) cut to outer columns.
func ownCorrelationsDropped(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
	n, sameExprs, err := transform.NodeExprsWithOpaque(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		sq, ok := e.(*plan.Subquery)
		if !ok {
			return e, transform.SameTree, nil
		}
		q, same, err := ownCorrelationsDropped(sq.Query)
		if err != nil {
			return nil, transform.SameTree, err
		}
		own := definedColumns(q)
		if same == transform.SameTree && !sq.Correlated().Intersects(own) {
			return e, transform.SameTree, nil
		}
		return sq.WithQuery(q).WithCorrelated(sq.Correlated().Difference(own)), transform.NewTree, nil
	})
	if err != nil {
		return nil, transform.SameTree, err
	}
	n, sameNodes, err := transform.NodeWithOpaque(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		sqa, ok := n.(*plan.SubqueryAlias)
		if !ok {
			return n, transform.SameTree, nil
		}
		own := definedColumns(sqa.Child)
		if !sqa.Correlated.Intersects(own) {
			return n, transform.SameTree, nil
		}
		return sqa.WithCorrelated(sqa.Correlated.Difference(own)), transform.NewTree, nil
	})
	if err != nil {
		return nil, transform.SameTree, err
	}
	return n, sameExprs && sameNodes, nil
}

// definedColumns is the set of column ids n's tables, derived tables and
// aliases define, in its subqueries too.
func definedColumns(n sql.Node) sql.ColSet {
	var cols sql.ColSet
	transform.Inspect(n, func(n sql.Node) bool {
		if t, ok := n.(plan.TableIdNode); ok {
			cols.UnionWith(t.Columns())
		}
		return true
	})
	transform.InspectExpressions(n, func(e sql.Expression) bool {
		switch e := e.(type) {
		case *expression.Alias:
			cols.Add(e.Id())
		case *plan.Subquery:
			cols.UnionWith(definedColumns(e.Query))
		}
		return true
	})
	return cols
}
