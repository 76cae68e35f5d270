package gmsfix

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// UPDATE and DELETE of one table with an EXISTS subquery.
//
// GMS v0.20.0 analyzes an UPDATE or DELETE of one table with a reduced
// set of rules, which resolve no subquery (analyzer/node_batches.go),
// unless its plan builder saw a subquery in it (plan.DeleteFrom.RefsSingleRel,
// plan.Update.HasSingleRel). It notes only scalar and IN subqueries, not
// EXISTS (planbuilder/scalar.go, ast.ExistsExpr), so
// `DELETE FROM t WHERE NOT EXISTS (SELECT … FROM u …)` failed with
// "attempted to evaluate uninitialized subquery".
//
// markDMLSubqueries makes such a statement one GMS analyzes with every
// rule, EXISTS subqueries unnested into joins as in a SELECT: a DELETE
// names its table as its target (`DELETE t FROM t WHERE …`, MySQL's
// multi-table form, whose deleted rows GMS finds by the target also when
// the WHERE became a join), and an UPDATE gets `AND (SELECT <marker>) IS
// NOT NULL` in its WHERE, a scalar subquery the plan builder notes;
// dropDMLSubqueryMarker, among the first of those rules, drops that
// conjunct again, which is TRUE anyway.

// dmlMarkerQuery is the marker subquery's SELECT.
const dmlMarkerQuery = "select 'lakesql: resolve subqueries'"

// ruleDropDMLMarker is the analyzer rule id of dropDMLSubqueryMarker.
const ruleDropDMLMarker analyzer.RuleId = 10_203

// markDMLSubqueries names the table of a DELETE of one table with an
// EXISTS subquery as its target, and adds the marker conjunct to the
// WHERE of an UPDATE with one.
func markDMLSubqueries(stmt ast.Statement) ast.Statement {
	switch s := stmt.(type) {
	case *ast.Delete:
		if len(s.Targets) == 0 && hasExists(s.Where, s.OrderBy) {
			s.Targets = deleteTarget(s.TableExprs)
		}
	case *ast.Update:
		if hasExists(s.Where, s.Exprs, s.OrderBy) {
			s.Where = withMarker(s.Where)
		}
	}
	return stmt
}

// hasExists reports whether an EXISTS subquery is in one of nodes.
func hasExists(nodes ...ast.SQLNode) bool {
	found := false
	for _, n := range nodes {
		if w, ok := n.(*ast.Where); ok && w == nil {
			continue
		}
		_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
			_, exists := n.(*ast.ExistsExpr)
			found = found || exists
			return !found, nil
		}, n)
	}
	return found
}

// deleteTarget is the table of a DELETE of one table as its target, by
// its alias or name as GMS's plan builder records it (lower case); nil
// for other FROM clauses.
func deleteTarget(from ast.TableExprs) ast.TableNames {
	if len(from) != 1 {
		return nil
	}
	t, ok := from[0].(*ast.AliasedTableExpr)
	if !ok {
		return nil
	}
	name, ok := t.Expr.(ast.TableName)
	if !ok {
		return nil
	}
	target := name.Name.String()
	if !t.As.IsEmpty() {
		target = t.As.String()
	}
	return ast.TableNames{ast.TableName{Name: ast.NewTableIdent(strings.ToLower(target))}}
}

// withMarker is where AND the marker conjunct.
func withMarker(where *ast.Where) *ast.Where {
	marker := &ast.IsExpr{Operator: ast.IsNotNullStr, Expr: &ast.Subquery{Select: markerSelect()}}
	if where == nil || where.Expr == nil {
		return ast.NewWhere(ast.WhereStr, marker)
	}
	return &ast.Where{Type: where.Type, Expr: &ast.AndExpr{Left: where.Expr, Right: marker}}
}

// markerSelect is the marker subquery's SELECT, parsed from dmlMarkerQuery.
func markerSelect() ast.SelectStatement {
	stmt, err := ast.Parse(dmlMarkerQuery)
	if err != nil {
		panic(err)
	}
	return stmt.(ast.SelectStatement)
}

// dropDMLSubqueryMarker drops the marker conjuncts markDMLSubqueries added.
func dropDMLSubqueryMarker(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, qFlags *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !qFlags.SubqueryIsSet() {
		return n, transform.SameTree, nil
	}
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		f, ok := n.(*plan.Filter)
		if !ok {
			return n, transform.SameTree, nil
		}
		var kept []sql.Expression
		for _, c := range expression.SplitConjunction(f.Expression) {
			if !isDMLMarker(c) {
				kept = append(kept, c)
			}
		}
		switch len(kept) {
		case len(expression.SplitConjunction(f.Expression)):
			return n, transform.SameTree, nil
		case 0:
			return f.Child, transform.NewTree, nil
		}
		return plan.NewFilter(expression.JoinAnd(kept...), f.Child), transform.NewTree, nil
	})
}

// isDMLMarker reports whether e is `(SELECT <marker>) IS NOT NULL`.
func isDMLMarker(e sql.Expression) bool {
	not, ok := e.(*expression.Not)
	if !ok {
		return false
	}
	isNull, ok := not.Child.(*expression.IsNull)
	if !ok {
		return false
	}
	sq, ok := isNull.Child.(*plan.Subquery)
	return ok && sq.QueryString == dmlMarkerQuery
}
