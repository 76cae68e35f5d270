package sqlbackend

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// Analyzer rule ids of deferFilterPushdown and pushFiltersIntoScans.
const (
	ruleDeferPushdown analyzer.RuleId = 10_010
	rulePushFilters   analyzer.RuleId = 10_011
)

// deferFilterPushdown marks every lakesql table of a statement to take its
// filter from pushFiltersIntoScans, after join planning, instead of from
// LookupForExpressions during it: GMS's join planner estimates any lookup
// it is given at one row (analyzer/costed_index_scan.go), which made
// nested loops of joins of any size. Single-table UPDATE and DELETE skip
// every batch of custom rules, this one and pushFiltersIntoScans included
// (analyzer/node_batches.go); their tables stay unmarked and push their
// filter through LookupForExpressions, as they have no join to plan.
func deferFilterPushdown(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return markPushAfterJoins(n)
}

// markPushAfterJoins marks the lakesql tables of n and of the subqueries
// in its expressions. The tables of an IN or EXISTS subquery matter most:
// GMS turns the subquery into a semi join of the outer query, planned with
// the rest, and a subquery table left unmarked entered that plan as a
// one-row lookup. sqllogictest's `WHERE col0 IN (SELECT col3 FROM tab0
// WHERE col4 > 2973.9)` on a 1,000-row table ran as a nested loop of the
// subquery's 400 rows over the table, 400,000 row pairs, instead of a
// hash join.
func markPushAfterJoins(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
	marked, tablesSame, err := transform.Node(n, markTable)
	if err != nil {
		return n, transform.SameTree, err
	}
	marked, subqueriesSame, err := transform.NodeExprs(marked, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		sq, ok := e.(*plan.Subquery)
		if !ok {
			return e, transform.SameTree, nil
		}
		query, same, err := markPushAfterJoins(sq.Query)
		if err != nil || same {
			return e, transform.SameTree, err
		}
		return sq.WithQuery(query), transform.NewTree, nil
	})
	return marked, tablesSame && subqueriesSame, err
}

func markTable(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
	rt, ok := n.(*plan.ResolvedTable)
	if !ok {
		return n, transform.SameTree, nil
	}
	t, ok := rt.Table.(*Table)
	if !ok || t.pushAfterJoins {
		return n, transform.SameTree, nil
	}
	marked := *t
	marked.pushAfterJoins = true
	next, err := rt.WithTable(&marked)
	return next, transform.NewTree, err
}

// pushFiltersIntoScans pushes each filter that sits right above a lakesql
// table marked by deferFilterPushdown, once GMS has planned the joins,
// into the table's scan: the storage predicate prunes partitions, buckets,
// files and row groups, and filters rows (Table.pushdownLookup). The scan
// returns only rows for which the predicate is TRUE, so the conjuncts
// planner.PushFilters translated exactly leave the filter, which keeps the
// residual ones only, or goes when none is left: GMS would otherwise
// evaluate them again on every row (issue 16 measured half the time of
// `WHERE dt = D` aggregates there). Conjuncts that read a column of
// another table (an outer query's, in a correlated subquery) are not the
// table's to decide and stay. Doing it after join planning rather than in
// LookupForExpressions keeps GMS's estimate of the filtered input at the
// table's rows times its filter selectivity instead of the one row it
// assumes for any lookup.
func pushFiltersIntoScans(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !rewritesOn(ctx) {
		return n, transform.SameTree, nil
	}
	return rewriteFilteredTables(n, func(rt *plan.ResolvedTable, cols sql.ColSet, t *Table, filter sql.Expression) (sql.Node, sql.Expression, error) {
		if !t.pushAfterJoins || t.lookup != nil {
			return nil, nil, nil
		}
		own, others := ownConjuncts(cols, expression.SplitConjunction(filter))
		lookup, ok := t.pushdownLookup(ctx, own, others)
		if !ok {
			return nil, nil, nil
		}
		access, err := plan.NewStaticIndexedAccessForTableNode(ctx, rt, lookup)
		return access, lookup.Ranges.(*pushedLookup).residual(), err
	})
}

// ownConjuncts splits conjuncts into those whose every column is one of
// the table's columns cols (by column id, which tells the table from an
// outer one of the same name) and the others.
func ownConjuncts(cols sql.ColSet, conjuncts []sql.Expression) (own, others []sql.Expression) {
	for _, c := range conjuncts {
		foreign := cols.Empty() || transform.InspectExpr(c, func(e sql.Expression) bool {
			gf, ok := e.(*expression.GetField)
			return ok && (gf.Id() == 0 || !cols.Contains(gf.Id()))
		})
		if foreign {
			others = append(others, c)
		} else {
			own = append(own, c)
		}
	}
	return own, others
}

// filteredTableRewrite makes of a lakesql table rt under a filter, given
// the columns the filter reads the table by, a new table node and the
// filter to keep above it (nil for none), or a nil node to leave both.
type filteredTableRewrite func(rt *plan.ResolvedTable, cols sql.ColSet, t *Table, filter sql.Expression) (sql.Node, sql.Expression, error)

// rewriteFilteredTables rewrites each lakesql table that sits right under
// a filter, through an alias, which it keeps, and the filter with it.
func rewriteFilteredTables(n sql.Node, replace filteredTableRewrite) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		f, ok := n.(*plan.Filter)
		if !ok {
			return n, transform.SameTree, nil
		}
		child, filter, err := replaceFilteredTable(f.Child, f.Expression, replace)
		if err != nil || child == nil {
			return n, transform.SameTree, err
		}
		if filter == nil {
			return child, transform.NewTree, nil
		}
		return plan.NewFilter(filter, child), transform.NewTree, nil
	})
}

func replaceFilteredTable(child sql.Node, filter sql.Expression, replace filteredTableRewrite) (sql.Node, sql.Expression, error) {
	if alias, ok := child.(*plan.TableAlias); ok {
		rt, ok := alias.Child.(*plan.ResolvedTable)
		if !ok {
			return nil, nil, nil
		}
		t, ok := rt.Table.(*Table)
		if !ok {
			return nil, nil, nil
		}
		replaced, kept, err := replace(rt, alias.Columns(), t, filter)
		if err != nil || replaced == nil {
			return nil, nil, err
		}
		aliased, err := alias.WithChildren(replaced)
		return aliased, kept, err
	}
	rt, ok := child.(*plan.ResolvedTable)
	if !ok {
		return nil, nil, nil
	}
	t, ok := rt.Table.(*Table)
	if !ok {
		return nil, nil, nil
	}
	return replace(rt, rt.Columns(), t, filter)
}
