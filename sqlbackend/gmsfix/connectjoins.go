package gmsfix

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// ruleConnectCrossJoins is the analyzer rule id of connectCrossJoins.
const ruleConnectCrossJoins analyzer.RuleId = 10_015

// connectCrossJoins reorders the tables of an inner join tree that has
// cross joins, such as FROM t17, t56, t43, … WHERE b29 = a17 AND …, so that
// each table joins the ones before it on a WHERE conjunct whenever the
// conjuncts connect it: GMS's replaceCrossJoins only turns a cross join
// into an inner join when a conjunct spans its two sides as written, and
// with any cross join left, GMS's join order builder tries its
// lookup-only plan first (memo.joinOrderBuilder.ReorderJoin,
// buildSingleLookupPlan) and, when the tables have a primary key, keeps
// it without searching other orders. For a 15-table join of sqllogictest's
// select5 that kept four cross joins of 10-row tables under the lookups:
// 22 s, where the connected order runs as hash joins in a fraction of a
// second. Inner and cross joins commute and a WHERE conjunct filters the
// same on any join that has its tables, so only the order changes; the
// project above the tree names its columns by id, not position.
func connectCrossJoins(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if writesRows(n) {
		return n, transform.SameTree, nil
	}
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		p, ok := n.(*plan.Project)
		if !ok {
			return n, transform.SameTree, nil
		}
		connected, ok := connectTree(p.Child)
		if !ok {
			return n, transform.SameTree, nil
		}
		next, err := p.WithChildren(connected)
		return next, transform.NewTree, err
	})
}

// writesRows reports whether the statement writes: an UPDATE or DELETE
// over a join reads its target rows by position in the join's row.
func writesRows(n sql.Node) bool {
	writes := false
	transform.Inspect(n, func(n sql.Node) bool {
		switch n.(type) {
		case *plan.Update, *plan.DeleteFrom, *plan.InsertInto:
			writes = true
		}
		return !writes
	})
	return writes
}

// joinInput is a table (or other non-join input) of an inner join tree,
// with the ids of the tables it outputs.
type joinInput struct {
	node   sql.Node
	tables sql.FastIntSet
}

// joinConjunct is a conjunct of the WHERE or an ON of the tree.
type joinConjunct struct {
	expr   sql.Expression
	tables sql.FastIntSet
	// placeable is false for a conjunct of no table or with a subquery,
	// which stays in the filter above the tree.
	placeable bool
	placed    bool
}

// connectTree rebuilds n, an optional filter over a tree of inner and
// cross joins, in the connected order; ok is false when n is no such
// tree or the order would not connect more tables than it does.
func connectTree(n sql.Node) (sql.Node, bool) {
	var conjuncts []*joinConjunct
	if f, ok := n.(*plan.Filter); ok {
		conjuncts = splitConjuncts(f.Expression)
		n = f.Child
	}
	inputs, joinConds, crosses, ok := flattenInnerJoins(n)
	if !ok || crosses == 0 {
		return nil, false
	}
	conjuncts = append(conjuncts, joinConds...)
	tree, left := buildConnected(inputs, conjuncts)
	if left >= crosses {
		return nil, false
	}
	var rest []sql.Expression
	for _, c := range conjuncts {
		if !c.placed {
			rest = append(rest, c.expr)
		}
	}
	if len(rest) > 0 {
		tree = plan.NewFilter(expression.JoinAnd(rest...), tree)
	}
	return tree, true
}

func splitConjuncts(e sql.Expression) []*joinConjunct {
	var out []*joinConjunct
	for _, c := range expression.SplitConjunction(e) {
		tables, ok := tablesRead(c)
		out = append(out, &joinConjunct{expr: c, tables: tables, placeable: ok})
	}
	return out
}

// flattenInnerJoins lists the inputs of a tree of inner and cross joins
// in order, with the conjuncts of its ON conditions and its number of
// cross joins; ok is false when n is not a join or has another kind.
func flattenInnerJoins(n sql.Node) (inputs []joinInput, conds []*joinConjunct, crosses int, ok bool) {
	j, isJoin := n.(*plan.JoinNode)
	if !isJoin {
		return nil, nil, 0, false
	}
	var walk func(n sql.Node) bool
	walk = func(n sql.Node) bool {
		j, isJoin := n.(*plan.JoinNode)
		if !isJoin {
			inputs = append(inputs, joinInput{node: n, tables: tablesOf(n)})
			return true
		}
		switch {
		case j.Op.IsCross():
			crosses++
		case j.Op == plan.JoinTypeInner:
			if j.Filter != nil {
				conds = append(conds, splitConjuncts(j.Filter)...)
			}
		default:
			return false
		}
		return walk(j.Left()) && walk(j.Right())
	}
	return inputs, conds, crosses, walk(j)
}

// buildConnected joins the inputs left-deep, first in order, then each
// time the first remaining input a placeable conjunct connects to the
// joined ones, or the first remaining one when none is connected (a
// cross join). Each join takes the conjuncts whose tables it is the
// first to have. It returns the tree and its number of cross joins.
func buildConnected(inputs []joinInput, conjuncts []*joinConjunct) (sql.Node, int) {
	tree, joined := inputs[0].node, inputs[0].tables
	remaining := inputs[1:]
	crosses := 0
	for len(remaining) > 0 {
		i := connectedInput(remaining, joined, conjuncts)
		next := remaining[i]
		remaining = append(remaining[:i:i], remaining[i+1:]...)
		joined = joined.Union(next.tables)
		if conds := placeConjuncts(conjuncts, joined); len(conds) > 0 {
			tree = plan.NewInnerJoin(tree, next.node, expression.JoinAnd(conds...))
		} else {
			tree = plan.NewCrossJoin(tree, next.node)
			crosses++
		}
	}
	return tree, crosses
}

// connectedInput is the index of the first input a placeable conjunct
// joins to the joined tables, or 0.
func connectedInput(remaining []joinInput, joined sql.FastIntSet, conjuncts []*joinConjunct) int {
	for i, in := range remaining {
		with := joined.Union(in.tables)
		for _, c := range conjuncts {
			if c.placeable && !c.placed && c.tables.SubsetOf(with) && c.tables.Intersects(in.tables) && c.tables.Intersects(joined) {
				return i
			}
		}
	}
	return 0
}

// placeConjuncts marks and returns the placeable conjuncts the joined
// tables now cover.
func placeConjuncts(conjuncts []*joinConjunct, joined sql.FastIntSet) []sql.Expression {
	var out []sql.Expression
	for _, c := range conjuncts {
		if c.placeable && !c.placed && c.tables.SubsetOf(joined) {
			c.placed = true
			out = append(out, c.expr)
		}
	}
	return out
}
