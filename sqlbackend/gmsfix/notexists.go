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

// Analyzer rule ids of markNotExistsConditions and notExistsAsLeftJoins.
const (
	ruleMarkNotExists  analyzer.RuleId = 10_201
	ruleNotExistsJoins analyzer.RuleId = 10_202
)

// NOT EXISTS with a correlated subquery.
//
// GMS v0.20.0 turns `NOT EXISTS (SELECT … WHERE inner = outer)` into an
// anti join on the correlated conjuncts (analyzer/unnest_exists_subqueries.go),
// the same join type it makes of `x NOT IN (SELECT …)`, which drops an
// outer row when the condition is NULL for some inner row
// (plan.JoinType.IsExcludeNulls; rowexec/join_iters.go existsIter; the
// hash and lookup forms convertAntiToLeftJoin makes in
// analyzer/indexed_joins.go). That is NOT IN's rule; NOT EXISTS is true
// when no inner row makes the condition TRUE, so an outer row whose
// correlated column is NULL, or inner rows whose column is NULL, must not
// remove it (https://dev.mysql.com/doc/refman/8.0/en/exists-and-not-exists-subqueries.html).
//
// markNotExistsConditions runs just before GMS unnests EXISTS subqueries
// and wraps each correlated conjunct of a NOT EXISTS subquery — the ones
// GMS moves into the anti join — in notExistsCondition, which reads NULL as
// FALSE. notExistsAsLeftJoins runs right after and rewrites each anti join
// whose condition holds such a conjunct into the form of a hand-written
// anti join, `L LEFT JOIN R ON cond WHERE <R column> IS NULL`, projected to
// L's columns: a plain left join counts a NULL condition as no match, and
// GMS plans it as a hash or lookup join on an equality condition, as
// before. A condition with no equality, or an anti join inside a larger
// join tree (beside an EXISTS or another NOT EXISTS), keeps its anti
// join, correct through the wrapped condition, as the nested loop it was.
// Upstream later gave NOT EXISTS a join type of its own
// (go-mysql-server PRs 3135, 3362).

// markNotExistsConditions wraps the correlated conjuncts of every
// correlated NOT EXISTS subquery among the WHERE conjuncts of n, also of
// those nested in [NOT] EXISTS subqueries, which GMS unnests in the same
// pass as the outer one.
func markNotExistsConditions(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, qFlags *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !qFlags.SubqueryIsSet() {
		return n, transform.SameTree, nil
	}
	return markNotExistsIn(n)
}

// markNotExistsIn marks the NOT EXISTS conjuncts of the filters of n.
func markNotExistsIn(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		f, ok := n.(*plan.Filter)
		if !ok {
			return n, transform.SameTree, nil
		}
		conjuncts := expression.SplitConjunction(f.Expression)
		same := transform.SameTree
		for i, c := range conjuncts {
			marked, err := markExists(c)
			if err != nil {
				return nil, transform.SameTree, err
			}
			if marked != nil {
				conjuncts[i] = marked
				same = transform.NewTree
			}
		}
		if same {
			return n, transform.SameTree, nil
		}
		return plan.NewFilter(expression.JoinAnd(conjuncts...), f.Child), transform.NewTree, nil
	})
}

// markExists is e with the NOT EXISTS conjuncts nested in it marked, and
// its own subquery's correlated conjuncts wrapped when e is a correlated
// NOT EXISTS, or e evaluated once when it is uncorrelated; nil when e is
// no [NOT] EXISTS or nothing changed.
func markExists(e sql.Expression) (sql.Expression, error) {
	not, negated := e.(*expression.Not)
	if negated {
		e = not.Child
	}
	exists, ok := e.(*plan.ExistsSubquery)
	if !ok {
		return nil, nil
	}
	sq := exists.Query
	query, same, err := markNotExistsIn(sq.Query)
	if err != nil {
		return nil, err
	}
	if sq.CanCacheResults() {
		return uncorrelatedExists(sq.WithQuery(query), negated), nil
	}
	if outer := sq.Correlated(); negated && !outer.Empty() {
		var wrapped transform.TreeIdentity
		query, wrapped, err = wrapCorrelated(query, outer)
		if err != nil {
			return nil, err
		}
		same = same && wrapped
	}
	if same {
		return nil, nil
	}
	marked := sql.Expression(plan.NewExistsSubquery(sq.WithQuery(query)))
	if negated {
		marked = expression.NewNot(marked)
	}
	return marked, nil
}

// wrapCorrelated wraps the conjuncts of the filters of query that read
// the outer columns in notExistsCondition.
func wrapCorrelated(query sql.Node, outer sql.ColSet) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(query, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		f, ok := n.(*plan.Filter)
		if !ok {
			return n, transform.SameTree, nil
		}
		conjuncts := expression.SplitConjunction(f.Expression)
		same := transform.SameTree
		for i, c := range conjuncts {
			if _, done := c.(*notExistsCondition); !done && refersTo(c, outer) {
				conjuncts[i] = &notExistsCondition{child: c}
				same = transform.NewTree
			}
		}
		if same {
			return n, transform.SameTree, nil
		}
		return plan.NewFilter(expression.JoinAnd(conjuncts...), f.Child), transform.NewTree, nil
	})
}

// refersTo reports whether e reads a column of cols, itself or through a
// subquery correlated with it: the conjuncts GMS moves out of an EXISTS
// subquery into the join (analyzer.decorrelateOuterCols).
func refersTo(e sql.Expression, cols sql.ColSet) bool {
	return transform.InspectExpr(e, func(e sql.Expression) bool {
		switch e := e.(type) {
		case *expression.GetField:
			return cols.Contains(e.Id())
		case *plan.Subquery:
			return !e.Correlated().Intersection(cols).Empty()
		}
		return false
	})
}

// notExistsAsLeftJoins rewrites the anti joins of NOT EXISTS subqueries
// (marked by markNotExistsConditions) into left joins keeping the
// unmatched rows, and unwraps the marked conjuncts left in subqueries GMS
// did not unnest, where a filter reads NULL as FALSE anyway.
//
// In an UPDATE the left join's rows keep R's columns: GMS updates through
// a join by evaluating the join's condition on the rows its source
// returns (rowexec/update.go shouldUpdateDirectionalJoin), and it finds
// each table's columns in them by name, so the extra ones do no harm.
func notExistsAsLeftJoins(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	_, update := n.(*plan.Update)
	return leftJoinsIn(n, false, update)
}

// leftJoinsIn is notExistsAsLeftJoins on n, which is inside a join tree
// GMS reorders as one if underJoin.
//
// An anti join inside a larger join tree keeps its form: GMS's join
// order builder takes a filter over a join for the plan of that join's
// tables alone (memo/join_order_builder.go buildFilter) and drops it
// from the orders it builds that join the tables with others first, so
// the left join's IS NULL filter got lost in `… WHERE NOT EXISTS (…) AND
// EXISTS (…)` when the semi join went below the left join.
func leftJoinsIn(n sql.Node, underJoin, update bool) (sql.Node, transform.TreeIdentity, error) {
	if _, ok := n.(sql.OpaqueNode); ok {
		return n, transform.SameTree, nil
	}
	j, isJoin := n.(*plan.JoinNode)
	childUnderJoin := isJoin || underJoin && joinTreeInterior(n)
	children := n.Children()
	same := transform.SameTree
	for i, c := range children {
		nc, cSame, err := leftJoinsIn(c, childUnderJoin, update)
		if err != nil {
			return nil, transform.SameTree, err
		}
		if !cSame {
			if same {
				children = append([]sql.Node(nil), children...)
				same = transform.NewTree
			}
			children[i] = nc
		}
	}
	if !same {
		var err error
		if n, err = n.WithChildren(children...); err != nil {
			return nil, transform.SameTree, err
		}
		j, _ = n.(*plan.JoinNode)
	}
	switch {
	case isJoin && j.Op == plan.JoinTypeAnti && !underJoin:
		if left, ok := notExistsLeftJoin(j, !update); ok {
			return left, transform.NewTree, nil
		}
	case !isJoin:
		if f, ok := n.(*plan.Filter); ok {
			if conjuncts, ok := unwrapNotExists(f.Expression); ok {
				return plan.NewFilter(expression.JoinAnd(conjuncts...), f.Child), transform.NewTree, nil
			}
		}
	}
	return n, same, nil
}

// joinTreeInterior reports whether GMS's join order builder looks
// through n to the joins below it, making them part of the tree it
// reorders (memo/join_order_builder.go populateSubgraph).
func joinTreeInterior(n sql.Node) bool {
	switch n.(type) {
	case *plan.Filter, *plan.Having, *plan.Limit, *plan.Project, *plan.Sort, *plan.Distinct, *plan.Max1Row, *plan.StripRowNode, *plan.CachedResults:
		return true
	}
	return false
}

// unwrapNotExists is the conjuncts of e without notExistsCondition
// wrappers, and whether e had any.
func unwrapNotExists(e sql.Expression) ([]sql.Expression, bool) {
	conjuncts := expression.SplitConjunction(e)
	var found bool
	for i, c := range conjuncts {
		if w, ok := c.(*notExistsCondition); ok {
			conjuncts[i] = w.child
			found = true
		}
	}
	return conjuncts, found
}

// notExistsLeftJoin is the anti join j of a NOT EXISTS as
// Filter(marker IS NULL, L LEFT JOIN R ON cond), projected to L's columns
// if project, where marker is a column of R that is not NULL in any row
// matching cond; false when j is no NOT EXISTS join or has no such column.
func notExistsLeftJoin(j *plan.JoinNode, project bool) (sql.Node, bool) {
	conjuncts, ok := unwrapNotExists(j.Filter)
	if !ok {
		return nil, false
	}
	marker := matchMarker(conjuncts, j.Right())
	if marker == nil {
		return nil, false
	}
	join := plan.NewJoin(j.Left(), j.Right(), plan.JoinTypeLeftOuter, expression.JoinAnd(conjuncts...)).WithComment(j.Comment())
	unmatched := plan.NewFilter(expression.NewIsNull(marker), join)
	if !project {
		return unmatched, true
	}
	leftFields, ok := OutputFields(j.Left())
	if !ok {
		return nil, false
	}
	return plan.NewProject(leftFields, unmatched), true
}

// matchMarker is a column of right compared by `=` in one of conjuncts:
// no row matching conjuncts has it NULL (a NULL makes `=` NULL, never
// TRUE), and a left join's unmatched rows have every column of right
// NULL. Nil if there is none: without an equality the join cannot be a
// hash or lookup join, and the anti join, a nested loop too, stops at an
// outer row's first match.
func matchMarker(conjuncts []sql.Expression, right sql.Node) *expression.GetField {
	tables := tablesOf(right)
	for _, c := range conjuncts {
		eq, ok := c.(*expression.Equals)
		if !ok {
			continue
		}
		for _, side := range []sql.Expression{eq.Left(), eq.Right()} {
			if gf, ok := side.(*expression.GetField); ok && tables.Contains(int(gf.TableId())) {
				return gf
			}
		}
	}
	return nil
}

// OutputFields is a GetField for each column of n's rows, with the column
// ids GMS gives them when it resolves expressions by id
// (analyzer/fix_exec_indexes.go columnIdsForNode), for the node kinds a
// FROM clause consists of; false for others.
func OutputFields(n sql.Node) ([]sql.Expression, bool) {
	ids, tables, ok := outputColumns(n)
	schema := n.Schema()
	if !ok || len(ids) != len(schema) {
		return nil, false
	}
	fields := make([]sql.Expression, len(schema))
	for i, c := range schema {
		gf := expression.NewGetFieldWithTable(int(ids[i]), int(tables[i]), c.Type, c.DatabaseSource, c.Source, c.Name, c.Nullable)
		fields[i] = gf
	}
	return fields, true
}

// outputColumns is the column and table id of each column of n's rows.
func outputColumns(n sql.Node) ([]sql.ColumnId, []sql.TableId, bool) {
	switch n := n.(type) {
	case *plan.JoinNode:
		lc, lt, ok := outputColumns(n.Left())
		if !ok || n.Op.IsPartial() {
			return lc, lt, ok
		}
		rc, rt, ok := outputColumns(n.Right())
		return append(lc, rc...), append(lt, rt...), ok
	case *plan.Project:
		var cols []sql.ColumnId
		var tables []sql.TableId
		for _, e := range n.Projections {
			ide, ok := e.(sql.IdExpression)
			if !ok || ide.Id() == 0 {
				return nil, nil, false
			}
			cols = append(cols, ide.Id())
			var table sql.TableId
			if gf, ok := e.(*expression.GetField); ok {
				table = gf.TableId()
			}
			tables = append(tables, table)
		}
		return cols, tables, true
	case *plan.TableAlias:
		if _, ok := n.Child.(sql.TableNode); !ok {
			return nil, nil, false
		}
		cols, _, ok := outputColumns(n.Child)
		return cols, repeatTable(n.Id(), len(cols)), ok
	case *plan.ResolvedTable:
		if plan.IsDualTable(n.Table) {
			return nil, nil, false
		}
		cols, ok := resolvedTableColumns(n)
		return cols, repeatTable(n.Id(), len(cols)), ok
	case *plan.SubqueryAlias:
		var cols []sql.ColumnId
		n.Columns().ForEach(func(c sql.ColumnId) { cols = append(cols, c) })
		return cols, repeatTable(n.Id(), len(cols)), true
	case *plan.Filter:
		return outputColumns(n.Child)
	}
	return nil, nil, false
}

// resolvedTableColumns is the column id of each column of a table, whose
// ids are its full schema's from the first, also when it is projected.
func resolvedTableColumns(t *plan.ResolvedTable) ([]sql.ColumnId, bool) {
	first, _ := t.Columns().Next(1)
	pk, ok := t.UnderlyingTable().(sql.PrimaryKeyTable)
	var cols []sql.ColumnId
	for i, c := range t.Schema() {
		ord := i
		if ok {
			ord = pk.PrimaryKeySchema().IndexOfColName(c.Name)
		}
		if ord < 0 {
			return nil, false
		}
		cols = append(cols, first+sql.ColumnId(ord))
	}
	return cols, true
}

func repeatTable(id sql.TableId, n int) []sql.TableId {
	tables := make([]sql.TableId, n)
	for i := range tables {
		tables[i] = id
	}
	return tables
}

// notExistsCondition is a correlated conjunct of a NOT EXISTS subquery:
// its child, with NULL read as FALSE, so that the anti join GMS makes of
// it drops only the outer rows some inner row matches.
type notExistsCondition struct {
	child sql.Expression
}

var _ sql.Expression = (*notExistsCondition)(nil)

func (c *notExistsCondition) Resolved() bool             { return c.child.Resolved() }
func (c *notExistsCondition) IsNullable() bool           { return false }
func (c *notExistsCondition) Type() sql.Type             { return types.Boolean }
func (c *notExistsCondition) Children() []sql.Expression { return []sql.Expression{c.child} }
func (c *notExistsCondition) String() string             { return fmt.Sprintf("(%s IS TRUE)", c.child) }

func (c *notExistsCondition) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(c, len(children), 1)
	}
	return &notExistsCondition{child: children[0]}, nil
}

func (c *notExistsCondition) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := sql.EvaluateCondition(ctx, c.child, row)
	if err != nil {
		return nil, err
	}
	return sql.IsTrue(v), nil
}
