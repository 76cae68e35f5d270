package sqlbackend

import (
	"math"
	"slices"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sqlbackend/gmsfix"
	"github.com/lakesql/lakesql/storage/scan"
	"github.com/lakesql/lakesql/storage/table"
)

// ruleEstimateFilteredRows is the analyzer rule id of estimateFilteredRows.
const ruleEstimateFilteredRows analyzer.RuleId = 10_012

// estimateFilteredRows gives each lakesql table under a filter, just before
// GMS plans the joins, an estimate of the rows its filter keeps
// (filteredRows, from the partition, bucket and file-statistics pruning of
// the pinned snapshot): the row count statsProvider hands GMS's join
// planner. Without it GMS took every filtered input for 85% of its table,
// and ordered a 7-table join of sqllogictest's select4, whose inputs kept 3
// to 9 rows of 100, as a 270,000-row cross product under its one hash join.
func estimateFilteredRows(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !rewritesOn(ctx) {
		return n, transform.SameTree, nil
	}
	return rewriteFilteredTables(n, func(rt *plan.ResolvedTable, _ sql.ColSet, t *Table, filter sql.Expression) (sql.Node, sql.Expression, error) {
		estimated, err := withRowEstimate(ctx, rt, t, expression.SplitConjunction(filter))
		return estimated, filter, err
	})
}

// withRowEstimate is the table rt with its row estimate set from the
// pushable conjuncts of exprs, or nil when nothing can be pushed.
func withRowEstimate(ctx *sql.Context, rt *plan.ResolvedTable, t *Table, exprs []sql.Expression) (sql.Node, error) {
	if t.rowEstimate != nil || t.readsNothing() {
		return nil, nil
	}
	push := planner.PushFilters(t.schema.Fields, exprs)
	if push.Filter == nil {
		return nil, nil
	}
	c := *t
	c.lookup = &pushedLookup{pushdown: planner.Pushdown{Filter: push.Filter}}
	p, err := c.plan(ctx)
	if err != nil {
		// The scan reports it when it plans for itself.
		return nil, nil
	}
	rows := uint64(math.Ceil(filteredRows(t, p, push) / gmsFilterSelectivity))
	estimated := *t
	estimated.rowEstimate = &rows
	return rt.WithTable(&estimated)
}

// filteredRows estimates the rows a filter keeps: the rows its shape
// keeps (planner.Selectivity) of the rows in the partitions pruning kept,
// where partition conjuncts hold for every row, but never more than the
// files pruning kept hold; conjuncts that could not be pushed keep GMS's
// default share each. The bound matters where file statistics pruned
// exactly (a file per row), the shape where they could not prune at all.
func filteredRows(t *Table, p *table.Plan, push planner.Pushdown) float64 {
	var partitionColumns []int
	for i, f := range t.schema.Fields {
		if slices.Contains(t.schema.PartitionKeys, f.Name) {
			partitionColumns = append(partitionColumns, i)
		}
	}
	var kept, inKeptPartitions int64
	for _, f := range p.Scan.Explain.Files {
		switch f.Reason {
		case scan.Kept:
			kept += f.RowCount
			inKeptPartitions += f.RowCount
		case scan.PrunedByBucket, scan.PrunedByKeyStats, scan.PrunedByValueStats, scan.PrunedByBucketValueStats:
			inKeptPartitions += f.RowCount
		}
	}
	byShape := float64(inKeptPartitions) * planner.Selectivity(push.Filter, partitionColumns)
	rows := min(float64(kept), byShape)
	return rows * math.Pow(gmsFilterSelectivity, float64(len(push.Residual)))
}

// gmsFilterSelectivity is the share of its input GMS's join planner
// assumes a filter keeps. The estimate is divided by it so that the
// planner sees the kept rows themselves: a 2-row input taken for 1 row
// looks free to rebuild.
const gmsFilterSelectivity = gmsfix.FilterSelectivity
