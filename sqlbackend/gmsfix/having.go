package gmsfix

import (
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// HAVING aggregates over a column another table of the FROM has too.
//
// GMS v0.20.0's plan builder builds the HAVING clause in a scope holding
// the columns the query's aggregates read (planbuilder/aggregates.go
// buildHaving): it adds the aggregates' argument columns by column id,
// but records them with none (buildAggregateFunc, groupBy.addInCol), so
// only the first gets in, and it adds the columns of the aggregates by
// their bare name, taking the first FROM table's column of that name. So
// `SELECT AVG(a1.id) FROM t a1 JOIN t a2 … HAVING MAX(a2.k) > 3` failed
// with "table not found: a2": a1.k got in, a2.k did not. MySQL: HAVING
// may use any aggregate (https://dev.mysql.com/doc/refman/8.0/en/select.html).
//
// hoistHavingAggregates moves each such aggregate of a SELECT statement's
// HAVING into its select list under a hidden alias, which the HAVING then
// names (as MySQL allows, and which GMS resolves among the select
// list's outputs); dropHiddenHavingColumns, the first analyzer rule,
// drops the hidden columns from the statement's result again.

// hiddenHavingPrefix starts the aliases of hoisted HAVING aggregates.
const hiddenHavingPrefix = "__lakesql_having_"

// ruleDropHiddenHaving is the analyzer rule id of dropHiddenHavingColumns.
const ruleDropHiddenHaving analyzer.RuleId = 10_207

// hoistHavingAggregates rewrites the HAVING of a SELECT statement (not of
// a UNION, whose select list must keep its columns, nor of a SELECT
// DISTINCT, which the hidden columns would change), and that of each
// derived table whose select items all have aliases, which it wraps as
// SELECT <aliases> FROM (<block with hidden columns>) AS lakesql_having.
func hoistHavingAggregates(stmt ast.Statement) {
	if sel, ok := stmt.(*ast.Select); ok && hoistable(sel) {
		hoistInto(sel)
	}
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		if t, ok := n.(*ast.AliasedTableExpr); ok {
			if sub, ok := t.Expr.(*ast.Subquery); ok {
				if sel, ok := sub.Select.(*ast.Select); ok && hoistable(sel) && allAliased(sel) {
					sub.Select = hiddenHavingBlock(sel)
				}
			}
		}
		return true, nil
	}, stmt)
}

func hoistable(sel *ast.Select) bool {
	return sel.Having != nil && !sel.QueryOpts.Distinct && sel.Into == nil && len(havingAggregates(sel.Having.Expr)) > 0
}

func allAliased(sel *ast.Select) bool {
	for _, e := range sel.SelectExprs {
		if a, ok := e.(*ast.AliasedExpr); !ok || a.As.IsEmpty() {
			return false
		}
	}
	return true
}

// hoistInto moves sel's HAVING aggregates into its select list.
func hoistInto(sel *ast.Select) {
	unaliased := map[string]bool{}
	for _, e := range sel.SelectExprs {
		if a, ok := e.(*ast.AliasedExpr); ok && a.As.IsEmpty() {
			unaliased[ast.String(a.Expr)] = true
		}
	}
	for i, agg := range havingAggregates(sel.Having.Expr) {
		if unaliased[ast.String(agg)] {
			// GMS resolves it as the select list's output of that
			// name, and refuses a second alias of it.
			continue
		}
		alias := fmt.Sprintf("%s%d", hiddenHavingPrefix, i+1)
		sel.SelectExprs = append(sel.SelectExprs, &ast.AliasedExpr{Expr: agg, As: ast.NewColIdent(alias)})
		sel.Having.Expr = ast.ReplaceExpr(sel.Having.Expr, agg, &ast.ColName{Name: ast.NewColIdent(alias)})
	}
}

// hiddenHavingName is the derived table hiddenHavingBlock introduces.
const hiddenHavingName = "lakesql_having"

// hiddenHavingBlock returns a block selecting the aliased columns of sel
// from sel with its HAVING aggregates hoisted: the block keeps sel's
// columns, which its enclosing query reads by name.
func hiddenHavingBlock(sel *ast.Select) *ast.Select {
	outer := make(ast.SelectExprs, len(sel.SelectExprs))
	for i, e := range sel.SelectExprs {
		name := e.(*ast.AliasedExpr).As
		outer[i] = &ast.AliasedExpr{Expr: &ast.ColName{Name: name, Qualifier: ast.TableName{Name: ast.NewTableIdent(hiddenHavingName)}}, As: name}
	}
	hoistInto(sel)
	return &ast.Select{SelectExprs: outer, From: ast.TableExprs{&ast.AliasedTableExpr{
		Expr: &ast.Subquery{Select: sel},
		As:   ast.NewTableIdent(hiddenHavingName),
		Auth: ast.AuthInformation{AuthType: ast.AuthType_IGNORE},
	}}}
}

// havingAggregates is the aggregates of e, outside subqueries, that read
// a column named with its table.
func havingAggregates(e ast.Expr) []*ast.FuncExpr {
	var aggs []*ast.FuncExpr
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		switch n := n.(type) {
		case *ast.Subquery:
			return false, nil
		case *ast.FuncExpr:
			if n.Over == nil && isAggregate(n.Name.Lowered()) && readsQualifiedColumn(n) {
				aggs = append(aggs, n)
				return false, nil
			}
		}
		return true, nil
	}, e)
	return aggs
}

// isAggregate reports whether a function of that name is an aggregate,
// as GMS's plan builder tells (planbuilder/aggregates.go isAggregateFunc).
func isAggregate(name string) bool {
	switch name {
	case "avg", "bit_and", "bit_or", "bit_xor", "count", "json_arrayagg", "json_objectagg",
		"max", "min", "std", "stddev_pop", "stddev_samp", "stddev", "sum", "var_pop", "var_samp",
		"variance", "any_value":
		return true
	}
	return false
}

func readsQualifiedColumn(f *ast.FuncExpr) bool {
	found := false
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		if c, ok := n.(*ast.ColName); ok && !c.Qualifier.Name.IsEmpty() {
			found = true
		}
		return !found, nil
	}, f.Exprs)
	return found
}

// dropHiddenHavingColumns drops the hidden select-list columns of
// hoistHavingAggregates from a statement's result: from the projection
// its root reaches through LIMIT and OFFSET.
func dropHiddenHavingColumns(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, scope *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if scope != nil || !hasHiddenColumn(n.Schema()) {
		return n, transform.SameTree, nil
	}
	switch p := n.(type) {
	case *plan.Project:
		var kept []sql.Expression
		for _, e := range p.Projections {
			if a, ok := e.(*expression.Alias); !ok || !strings.HasPrefix(a.Name(), hiddenHavingPrefix) {
				kept = append(kept, e)
			}
		}
		return plan.NewProject(kept, p.Child), transform.NewTree, nil
	case *plan.Limit, *plan.Offset:
		child, _, err := dropHiddenHavingColumns(nil, nil, p.Children()[0], nil, nil, nil)
		if err != nil {
			return nil, transform.SameTree, err
		}
		next, err := p.WithChildren(child)
		return next, transform.NewTree, err
	}
	return nil, transform.SameTree, fmt.Errorf("lakesql: the hidden HAVING columns of %T cannot be dropped", n)
}

func hasHiddenColumn(schema sql.Schema) bool {
	for _, c := range schema {
		if strings.HasPrefix(c.Name, hiddenHavingPrefix) {
			return true
		}
	}
	return false
}
