package gmsfix

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// ruleDerivedTypes is the analyzer rule id of typeDerivedColumns.
const ruleDerivedTypes analyzer.RuleId = 10_103

// maxDerivedDepth bounds how often settleTypes retypes one query.
const maxDerivedDepth = 16

// typeDerivedColumns gives the references to a derived table's columns
// the types lakesql's rules gave the derived table's expressions. GMS
// v0.20.0's planbuilder types a reference to a derived table's column
// when it binds the query, by the types GMS itself gives (every SUM a
// DOUBLE), and typeExactSums and typeWindowAvgs retype only the
// references to their own columns: SELECT x.s FROM (SELECT SUM(k) s
// FROM t GROUP BY g) x answered a DOUBLE where MySQL answers a DECIMAL,
// and so did every window function over a grouped query, which
// groupWindowBlocks evaluates over a derived table. The analyzer
// finalizes a derived table after the query around it, so the rule
// settles the types bottom-up, each derived table's query before the
// queries that read it.
func typeDerivedColumns(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	settle := func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		return settleTypes(ctx, a, n, scope, sel, qf)
	}
	n, same, err := transform.NodeWithOpaque(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		sq, ok := n.(*plan.SubqueryAlias)
		if !ok {
			return n, transform.SameTree, nil
		}
		child, same, err := settle(sq.Child)
		if err != nil || same {
			return n, transform.SameTree, err
		}
		n, err = sq.WithChildren(child)
		return n, transform.NewTree, err
	})
	if err != nil {
		return nil, transform.SameTree, err
	}
	n, sameTop, err := settle(n)
	return n, same && sameTop, err
}

// settleTypes retypes the references of the query n to the columns of
// its derived tables, and types the SUMs and AVGs over them again (a
// retyped reference can change the type of SUM(x.s)), until the types
// settle.
func settleTypes(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	same := transform.SameTree
	for range maxDerivedDepth {
		retyped, settled, err := retypeDerivedReferences(n)
		if err != nil {
			return nil, transform.SameTree, err
		}
		if settled {
			break
		}
		n, same = retyped, transform.NewTree
		for _, rule := range []analyzer.RuleFunc{typeExactSums, typeWindowAvgs} {
			if n, _, err = rule(ctx, a, n, scope, sel, qf); err != nil {
				return nil, transform.SameTree, err
			}
		}
	}
	return n, same, nil
}

// retypeDerivedReferences gives every reference in n to a column of a
// derived table in n that column's type, and reports whether none
// changed.
func retypeDerivedReferences(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
	cols := derivedColumnTypes(n)
	if len(cols) == 0 {
		return n, transform.SameTree, nil
	}
	return transform.NodeExprs(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		gf, ok := e.(*expression.GetField)
		if !ok {
			return e, transform.SameTree, nil
		}
		typ, ok := cols[gf.Id()]
		if !ok || types.TypesEqual(gf.Type(), typ) {
			return e, transform.SameTree, nil
		}
		retyped := expression.NewGetFieldWithTable(gf.Index(), int(gf.TableId()), typ, gf.Database(), gf.Table(), gf.Name(), gf.IsNullable())
		return retyped.WithId(gf.Id()).(sql.Expression), transform.NewTree, nil
	})
}

// derivedColumnTypes maps the column ids of the derived tables in n to
// the types of their columns: the planbuilder numbers a derived table's
// columns in the order of its schema.
func derivedColumnTypes(n sql.Node) map[sql.ColumnId]sql.Type {
	cols := map[sql.ColumnId]sql.Type{}
	transform.Inspect(n, func(n sql.Node) bool {
		sq, ok := n.(*plan.SubqueryAlias)
		if !ok {
			return true
		}
		schema := sq.Schema()
		if sq.Columns().Len() != len(schema) {
			return true
		}
		i := 0
		sq.Columns().ForEach(func(id sql.ColumnId) {
			cols[id] = schema[i].Type
			i++
		})
		return true
	})
	return cols
}
