package gmsfix

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// ruleWindowOuterColumns is the analyzer rule id of passOuterColumnsThroughWindows.
const ruleWindowOuterColumns analyzer.RuleId = 10_102

// passOuterColumnsThroughWindows makes the columns a correlated subquery
// reads reach it through a Window (and the Project over it). GMS
// v0.20.0's planbuilder (Builder.buildWindow) makes a Window pass on the
// columns the select list names, and the Project above it (the select
// list's aliases) pass on only the Window's functions, but does not look
// into subqueries: in SELECT (SELECT MAX(a2.note) FROM t1 a2 WHERE a2.tag
// = a1.tag), COUNT(*) OVER () FROM t1 a1 the subquery, evaluated over the
// Window's rows (in that Project, in an ORDER BY, in the block's final
// projection), found no a1.tag there and read another field of the row:
// 'unable to find field with index 5 in row of 3 columns', or a DATETIME
// where a DECIMAL was expected.
func passOuterColumnsThroughWindows(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	refs := map[sql.ColumnId]*expression.GetField{}
	windowOuterReferences(n, refs)
	if len(refs) == 0 {
		return n, transform.SameTree, nil
	}
	return passThroughWindows(n, refs)
}

// windowOuterReferences adds to refs, by column id, the references to an
// outer query's columns of every subquery in n, at any depth.
func windowOuterReferences(n sql.Node, refs map[sql.ColumnId]*expression.GetField) {
	transform.InspectExpressions(n, func(e sql.Expression) bool {
		sq, ok := e.(*plan.Subquery)
		if !ok || sq.Query == nil {
			return true
		}
		outer := sq.Correlated()
		transform.InspectExpressions(sq.Query, func(e sql.Expression) bool {
			if gf, ok := e.(*expression.GetField); ok && outer.Contains(gf.Id()) {
				refs[gf.Id()] = gf
			}
			return true
		})
		windowOuterReferences(sq.Query, refs)
		return true
	})
}

// passThroughWindows fixes every windowed block in n, subqueries
// included: the Window passes on the referenced columns its input has,
// and the Project over it passes them on too.
func passThroughWindows(n sql.Node, refs map[sql.ColumnId]*expression.GetField) (sql.Node, transform.TreeIdentity, error) {
	n, same, err := transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		switch n := n.(type) {
		case *plan.Window:
			missing := windowMissingColumns(n.SelectExprs, windowInputColumns(n.Child), refs)
			if len(missing) == 0 {
				return n, transform.SameTree, nil
			}
			return plan.NewWindow(append(append([]sql.Expression{}, n.SelectExprs...), missing...), n.Child), transform.NewTree, nil
		case *plan.Project:
			return windowFixFinalProject(n, refs)
		}
		return n, transform.SameTree, nil
	})
	if err != nil {
		return nil, transform.SameTree, err
	}
	n, sameSub, err := transform.NodeExprs(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		sq, ok := e.(*plan.Subquery)
		if !ok || sq.Query == nil {
			return e, transform.SameTree, nil
		}
		q, same, err := passThroughWindows(sq.Query, refs)
		if err != nil || same {
			return e, transform.SameTree, err
		}
		return sq.WithQuery(q), transform.NewTree, nil
	})
	return n, same && sameSub, err
}

// windowFixFinalProject fixes p if it is the final Project of a block whose
// select list's aliases a Project over a Window computes: that Project
// passes on the referenced columns the Window does, for p (which
// evaluates the aliases again) and the nodes between.
func windowFixFinalProject(p *plan.Project, refs map[sql.ColumnId]*expression.GetField) (sql.Node, transform.TreeIdentity, error) {
	inner, ok := windowProjectBelow(p.Child)
	if !ok {
		return p, transform.SameTree, nil
	}
	w, ok := inner.Child.(*plan.Window)
	if !ok {
		return p, transform.SameTree, nil
	}
	missing := windowMissingColumns(inner.Projections, windowExprColumns(w.SelectExprs), refs)
	if len(missing) == 0 {
		return p, transform.SameTree, nil
	}
	passed := plan.NewProject(append(append([]sql.Expression{}, inner.Projections...), missing...), w)
	child, err := windowReplaceBelow(p.Child, passed)
	if err != nil {
		return nil, transform.SameTree, err
	}
	return plan.NewProject(p.Projections, child), transform.NewTree, nil
}

// windowPassThrough reports whether n's rows are rows of its child, as
// windowProjectBelow walks them.
func windowPassThrough(n sql.Node) bool {
	switch n.(type) {
	case *plan.Sort, *plan.Filter, *plan.Having, *plan.Limit, *plan.Offset, *plan.Distinct, *plan.TopN:
		return true
	}
	return false
}

// windowProjectBelow is the Project n is or passes on the rows of, through
// sorts, filters, limits and DISTINCT.
func windowProjectBelow(n sql.Node) (*plan.Project, bool) {
	for windowPassThrough(n) {
		n = n.Children()[0]
	}
	p, ok := n.(*plan.Project)
	return p, ok
}

// windowReplaceBelow is n with the Project windowProjectBelow finds
// replaced by p.
func windowReplaceBelow(n sql.Node, p *plan.Project) (sql.Node, error) {
	if !windowPassThrough(n) {
		return p, nil
	}
	child, err := windowReplaceBelow(n.Children()[0], p)
	if err != nil {
		return nil, err
	}
	return n.WithChildren(child)
}

// windowInputColumns are the columns of the tables (and derived tables)
// in n.
func windowInputColumns(n sql.Node) sql.ColSet {
	var cols sql.ColSet
	transform.Inspect(n, func(n sql.Node) bool {
		if t, ok := n.(plan.TableIdNode); ok {
			cols.UnionWith(t.Columns())
		}
		return true
	})
	return cols
}

// windowExprColumns are the column ids of exprs.
func windowExprColumns(exprs []sql.Expression) sql.ColSet {
	var cols sql.ColSet
	for _, e := range exprs {
		if id, ok := e.(sql.IdExpression); ok {
			cols.Add(id.Id())
		}
	}
	return cols
}

// windowMissingColumns are the references of refs to columns of
// available that exprs do not compute, in column id order.
func windowMissingColumns(exprs []sql.Expression, available sql.ColSet, refs map[sql.ColumnId]*expression.GetField) []sql.Expression {
	var missing []sql.Expression
	available.Difference(windowExprColumns(exprs)).ForEach(func(id sql.ColumnId) {
		if gf, ok := refs[id]; ok {
			missing = append(missing, gf)
		}
	})
	return missing
}
