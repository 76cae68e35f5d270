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
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
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
	})
}

// pushFiltersIntoScans pushes each filter that sits right above a lakesql
// table marked by deferFilterPushdown, once GMS has planned the joins,
// into the table's scan: the
// storage predicate prunes partitions, buckets, files and row groups, and
// filters rows (Table.pushdownLookup). The filter stays above the scan,
// which keeps evaluating all of it (PreciseMatch is false), so a pushed
// predicate only has to be implied by the filter. Doing it after join
// planning rather than in LookupForExpressions keeps GMS's estimate of
// the filtered input at the table's rows times its filter selectivity
// instead of the one row it assumes for any lookup.
func pushFiltersIntoScans(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !rewritesOn(ctx) {
		return n, transform.SameTree, nil
	}
	return rewriteFilteredTables(n, func(rt *plan.ResolvedTable, t *Table, exprs []sql.Expression) (sql.Node, error) {
		if !t.pushAfterJoins || t.lookup != nil {
			return nil, nil
		}
		lookup, ok := t.pushdownLookup(ctx, exprs)
		if !ok {
			return nil, nil
		}
		return plan.NewStaticIndexedAccessForTableNode(ctx, rt, lookup)
	})
}

// rewriteFilteredTables replaces each lakesql table that sits right under
// a filter (through an alias, which it keeps) by what replace makes of it
// and the filter's conjuncts; replace returns nil to leave it.
func rewriteFilteredTables(n sql.Node, replace func(rt *plan.ResolvedTable, t *Table, exprs []sql.Expression) (sql.Node, error)) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		f, ok := n.(*plan.Filter)
		if !ok {
			return n, transform.SameTree, nil
		}
		child, err := replaceFilteredTable(f.Child, expression.SplitConjunction(f.Expression), replace)
		if err != nil || child == nil {
			return n, transform.SameTree, err
		}
		replaced, err := f.WithChildren(child)
		return replaced, transform.NewTree, err
	})
}

func replaceFilteredTable(child sql.Node, exprs []sql.Expression, replace func(*plan.ResolvedTable, *Table, []sql.Expression) (sql.Node, error)) (sql.Node, error) {
	if alias, ok := child.(*plan.TableAlias); ok {
		replaced, err := replaceFilteredTable(alias.Child, exprs, replace)
		if err != nil || replaced == nil {
			return nil, err
		}
		return alias.WithChildren(replaced)
	}
	rt, ok := child.(*plan.ResolvedTable)
	if !ok {
		return nil, nil
	}
	t, ok := rt.Table.(*Table)
	if !ok {
		return nil, nil
	}
	return replace(rt, t, exprs)
}
