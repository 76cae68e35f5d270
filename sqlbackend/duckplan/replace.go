package duckplan

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
)

// The engines of a Decision.
const (
	EngineDuckDB = "duckdb"
	EngineGMS    = "gms"
)

// Decision is what Replace decided for one subtree it tried to translate,
// for EXPLAIN.
type Decision struct {
	// Node is the subtree as GMS planned it.
	Node sql.Node
	// Engine is EngineDuckDB when the subtree was replaced, EngineGMS when
	// it stays on GMS.
	Engine string
	// Reason is why it stays on GMS: Translate's refusal.
	Reason string
}

// Replace replaces the largest translatable subtrees of root with the
// nodes build makes of their translation, and returns the new plan and
// a Decision for every subtree it tried. isLeaf is Translate's.
//
// It tries a subtree only when every table it reads is a leaf (a query on
// dual, system tables or information_schema stays on GMS) and it does more
// than read one. It looks below a node only into the children GMS runs
// once per statement: never the inner side of a nested-loop or lookup
// join nor a correlated derived table, which GMS runs once per outer row,
// nor the inputs of merge and range joins, which must come in index order.
// Subquery expressions are not children, so it never enters them.
func Replace(root sql.Node, isLeaf func(sql.Node) bool, build func(q *Query, leaves []sql.Node, original sql.Node) sql.Node) (sql.Node, []Decision) {
	r := &replacer{isLeaf: isLeaf, build: build}
	return r.walk(root, 0), r.decisions
}

type replacer struct {
	isLeaf    func(sql.Node) bool
	build     func(q *Query, leaves []sql.Node, original sql.Node) sql.Node
	decisions []Decision
}

// walk replaces in the subtree n, which sits on the right side of joins
// whose left sides have lateral columns (see translator.lateral).
func (r *replacer) walk(n sql.Node, lateral int) sql.Node {
	if r.candidate(n) {
		q, leaves, err := translate(n, r.isLeaf, lateral)
		if err == nil {
			r.decisions = append(r.decisions, Decision{Node: n, Engine: EngineDuckDB})
			return r.build(q, leaves, n)
		}
		r.decisions = append(r.decisions, Decision{Node: n, Engine: EngineGMS, Reason: err.Error()})
	}
	children := n.Children()
	runOnce := r.runOnce(n)
	changed := false
	next := make([]sql.Node, len(children))
	for i, c := range children {
		next[i] = c
		if runOnce[i] {
			next[i] = r.walk(c, childLateral(n, i, lateral))
			changed = changed || next[i] != c
		}
	}
	if !changed {
		return n
	}
	// Every node runOnce descends into takes its children back unchanged
	// in kind; an error here would be a GMS invariant broken.
	out, err := n.WithChildren(next...)
	if err != nil {
		return n
	}
	return out
}

// childLateral is the lateral columns of child i of n: a join's right
// side follows its left side's columns, and a derived table sees none.
func childLateral(n sql.Node, i, lateral int) int {
	switch n := n.(type) {
	case *plan.JoinNode:
		if i == 1 {
			return lateral + len(n.Left().Schema())
		}
	case *plan.SubqueryAlias:
		return 0
	}
	return lateral
}

// candidate reports whether Replace tries to translate n: an operator
// over leaves only.
func (r *replacer) candidate(n sql.Node) bool {
	switch n.(type) {
	case *plan.TableAlias, *plan.HashLookup, *plan.CachedResults:
		return false
	}
	return !r.isLeaf(n) && r.readsOnlyLeaves(n)
}

// readsOnlyLeaves reports whether every node without children under n is
// a leaf, and there is one.
func (r *replacer) readsOnlyLeaves(n sql.Node) bool {
	if r.isLeaf(n) {
		return true
	}
	children := n.Children()
	if len(children) == 0 {
		return false
	}
	for _, c := range children {
		if !r.readsOnlyLeaves(c) {
			return false
		}
	}
	return true
}

// runOnce says, for each child of n, whether GMS runs it once per run of
// n, so that Replace may look into it.
func (r *replacer) runOnce(n sql.Node) []bool {
	switch n := n.(type) {
	case *plan.Project, *plan.Filter, *plan.Having, *plan.Sort, *plan.TopN,
		*plan.Limit, *plan.Offset, *plan.GroupBy, *plan.Distinct, *plan.OrderedDistinct,
		*plan.TableAlias, *plan.CachedResults, *plan.HashLookup, *plan.Window:
		return []bool{true}
	case *plan.SubqueryAlias:
		return []bool{uncorrelated(n) == nil}
	case *plan.SetOp:
		return []bool{true, true}
	case *plan.JoinNode:
		if n.Op.IsMerge() || n.Op.IsRange() {
			return []bool{false, false}
		}
		return []bool{true, n.Op.IsHash()}
	}
	return make([]bool, len(n.Children()))
}
