package gmsfix

import (
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// ruleKeepNotIn is the analyzer rule id of keepNotInSubqueries.
const ruleKeepNotIn analyzer.RuleId = 10_206

// keepNotInSubqueries makes `x [NOT] IN (subquery)` in a WHERE exact.
//
// GMS v0.20.0 unnests an uncorrelated one into an anti join
// (analyzer/unnest_insubqueries.go) whose NULL handling only its nested
// loop keeps: its left-join form (analyzer/indexed_joins.go
// convertAntiToLeftJoin) is built as a plain left join
// (memo/exec_builder.go buildLeftJoin drops the ExcludeNulls join type),
// its lookup form is a plain left lookup join (plan.JoinType.AsLookup), and
// its hash form compares a key it does not find with one arbitrary other
// key (rowexec/rel.go buildHashLookup), not with the subquery's NULL. So a
// NULL x, or an x missing from a subquery with a NULL, was kept. MySQL:
// NOT IN is NULL for a NULL x over a non-empty subquery, and for an x
// missing from a subquery with a NULL
// (https://dev.mysql.com/doc/refman/8.0/en/comparison-operators.html#operator_not-in).
//
// A subquery whose column can be NULL stays a condition, which GMS
// evaluates exactly over the subquery's values hashed once per statement
// (plan.InSubquery.Eval, Subquery.HashMultiple). One whose column cannot
// (a key) keeps its anti join, a hash or lookup join, where only a NULL x
// goes wrong: a nullable x gets the conjunct nullNotInGuard. An [NOT] IN
// subquery GMS found to read no rows (`WHERE FALSE`) stays a condition
// too: unnested, it failed with "vertex not found".
func keepNotInSubqueries(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, qFlags *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !qFlags.SubqueryIsSet() {
		return n, transform.SameTree, nil
	}
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		f, ok := n.(*plan.Filter)
		if !ok {
			return n, transform.SameTree, nil
		}
		conjuncts, same := exactNotIns(expression.SplitConjunction(f.Expression))
		if same {
			return n, transform.SameTree, nil
		}
		return plan.NewFilter(expression.JoinAnd(conjuncts...), f.Child), transform.NewTree, nil
	})
}

// exactNotIns is conjuncts with their uncorrelated NOT IN subqueries kept
// as conditions or guarded, and IN subqueries of provably no rows kept as
// conditions.
func exactNotIns(conjuncts []sql.Expression) ([]sql.Expression, transform.TreeIdentity) {
	same := transform.SameTree
	for i, c := range conjuncts {
		in, negated := inSubqueryOf(c)
		if in == nil {
			continue
		}
		sq, ok := in.Right().(*plan.Subquery)
		if !ok || !sq.CanCacheResults() {
			continue // correlated: GMS evaluates it as a condition
		}
		if readsNothing(sq.Query) || negated && nullableColumn(sq) {
			conjuncts[i] = &subqueryCondition{child: c}
			same = transform.NewTree
			continue
		}
		if negated && in.Left().IsNullable() && !guarded(conjuncts, in.Left(), sq) {
			conjuncts = append(conjuncts, &nullNotInGuard{x: in.Left(), exists: &existsOnce{sq: sq}})
			same = transform.NewTree
		}
	}
	return conjuncts, same
}

// inSubqueryOf is the IN subquery c is, or is NOT of.
func inSubqueryOf(c sql.Expression) (*plan.InSubquery, bool) {
	if not, ok := c.(*expression.Not); ok {
		in, _ := not.Child.(*plan.InSubquery)
		return in, true
	}
	in, _ := c.(*plan.InSubquery)
	return in, false
}

// nullableColumn reports whether sq's column can be NULL (or sq has
// several).
func nullableColumn(sq *plan.Subquery) bool {
	sch := sq.Query.Schema()
	return len(sch) != 1 || sch[0].Nullable
}

// readsNothing reports whether query reads an empty table GMS made of a
// FALSE filter: unnested, such a subquery put the empty table into the
// join planner, which failed with "vertex not found".
func readsNothing(query sql.Node) bool {
	return transform.InspectUp(query, func(n sql.Node) bool {
		_, empty := n.(*plan.EmptyTable)
		return empty
	})
}

// guarded reports whether conjuncts hold the guard of x NOT IN (sq).
func guarded(conjuncts []sql.Expression, x sql.Expression, sq *plan.Subquery) bool {
	for _, c := range conjuncts {
		if g, ok := c.(*nullNotInGuard); ok && g.x.String() == x.String() && g.exists.sq.QueryString == sq.QueryString {
			return true
		}
	}
	return false
}

// nullNotInGuard drops the rows of a NULL x when the subquery has rows,
// whose `x NOT IN (subquery)` is NULL but which GMS's anti join keeps; it
// is TRUE for any other row.
type nullNotInGuard struct {
	x      sql.Expression
	exists *existsOnce
}

var _ sql.Expression = (*nullNotInGuard)(nil)

func (g *nullNotInGuard) Resolved() bool             { return g.x.Resolved() && g.exists.Resolved() }
func (g *nullNotInGuard) IsNullable() bool           { return false }
func (g *nullNotInGuard) Type() sql.Type             { return types.Boolean }
func (g *nullNotInGuard) Children() []sql.Expression { return []sql.Expression{g.x, g.exists.sq} }

func (g *nullNotInGuard) String() string {
	return fmt.Sprintf("(%s IS NOT NULL OR NOT %s)", g.x, g.exists)
}

func (g *nullNotInGuard) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 2 {
		return nil, sql.ErrInvalidChildrenNumber.New(g, len(children), 2)
	}
	exists, err := g.exists.WithChildren(children[1])
	if err != nil {
		return nil, err
	}
	return &nullNotInGuard{x: children[0], exists: exists.(*existsOnce)}, nil
}

func (g *nullNotInGuard) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	x, err := g.x.Eval(ctx, row)
	if err != nil || x != nil {
		return err == nil, err
	}
	exists, err := g.exists.Eval(ctx, row)
	if err != nil {
		return nil, err
	}
	return exists == false, nil
}

// subqueryCondition is a WHERE conjunct with an IN subquery, in a form
// GMS does not unnest into a join.
type subqueryCondition struct {
	child sql.Expression
}

var _ sql.Expression = (*subqueryCondition)(nil)

func (e *subqueryCondition) Resolved() bool             { return e.child.Resolved() }
func (e *subqueryCondition) IsNullable() bool           { return true }
func (e *subqueryCondition) Type() sql.Type             { return types.Boolean }
func (e *subqueryCondition) Children() []sql.Expression { return []sql.Expression{e.child} }
func (e *subqueryCondition) String() string             { return e.child.String() }

func (e *subqueryCondition) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	return e.child.Eval(ctx, row)
}

func (e *subqueryCondition) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(e, len(children), 1)
	}
	return &subqueryCondition{child: children[0]}, nil
}
