package gmsfix

import (
	"math"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/memo"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/stats"
)

// rebuildCoster is GMS's join coster plus what it leaves out: a
// nested-loop join builds its right side again for every left row, so a
// join subtree on the right costs its own cost once per left row, not
// once. GMS costs such a join by its input row counts alone, the same in
// either order, and so kept a 270,000-row cross product under three
// cross joins with 4, 8 and 4 rows on their left: rebuilt 128 times, it
// made a select4 query of sqllogictest run for a minute where the other
// order takes a fraction of a second. Tables on the right add nothing:
// their scans are kept and replayed within the statement (the backend's
// rescans). It costs only the statements enabled holds for, GMS's way
// the others.
type rebuildCoster struct {
	memo.Coster
	enabled func(*sql.Context) bool
}

// RebuildCoster is c with the rebuilds of nested-loop joins costed, in
// the statements enabled holds for.
func RebuildCoster(c memo.Coster, enabled func(*sql.Context) bool) memo.Coster {
	return rebuildCoster{Coster: c, enabled: enabled}
}

// EstimateCost implements memo.Coster.
func (c rebuildCoster) EstimateCost(ctx *sql.Context, n memo.RelExpr, s sql.StatsProvider) (float64, error) {
	if !c.enabled(ctx) {
		return c.Coster.EstimateCost(ctx, n, s)
	}
	correctRowEstimate(n.Group())
	cost, err := c.Coster.EstimateCost(ctx, n, s)
	if err != nil {
		return cost, err
	}
	j, ok := n.(memo.JoinRel)
	if !ok {
		return cost, nil
	}
	jp := j.JoinPrivate()
	if !rebuildsRight(jp.Op) {
		return cost, nil
	}
	left := math.Max(1, float64(jp.Left.RelProps.GetStats().RowCount()))
	return cost + (left-1)*jp.Right.Cost, nil
}

// rebuildsRight reports whether a join runs its right side once per left
// row: every join but the hash joins (which build it once), the lookup
// joins (which look each key up) and the merge and range-heap joins
// (which read both sides once).
func rebuildsRight(op plan.JoinType) bool {
	return !op.IsHash() && !op.IsLookup() && !op.IsMerge() && !op.IsRange()
}

// correctRowEstimate sets the row estimate of g again from its children's,
// with cross products counted as such. GMS v0.20.0 estimates every join,
// a join without any condition included, as a join on a key
// (memo/rel_props.go statsForRel: left × right rows / the larger side's
// distinct values), so a cross product of 2 × 128 rows came out at 2.5
// rows, and a cross product of seven filtered tables of sqllogictest's
// select4 (207,360 rows) at 1: a nested loop rebuilt the eighth table
// under each of its rows, 19 million pairs: 7-11 s, and 0.6 s as a hash
// join. The memo costs a group's children before the group
// (memo.optimizeMemoGroup), so they are corrected by then; the estimates
// GMS set before costing started (CardMemoGroups) are replaced bottom-up
// the same way, and the costs of g's expressions read the corrected ones.
func correctRowEstimate(g *memo.ExprGroup) {
	var rows float64
	switch rel := g.First.(type) {
	case memo.JoinRel:
		jp := rel.JoinPrivate()
		if !jp.Op.IsInner() && !jp.Op.IsCross() {
			return
		}
		left, right := rowEstimate(jp.Left), rowEstimate(jp.Right)
		rows = left * right
		if len(jp.Filter) > 0 {
			// GMS's own estimate of a filtered join without distinct
			// counts, on the corrected inputs.
			rows /= math.Max(1, 0.8*math.Max(left, right))
		}
	case *memo.Project:
		rows = rowEstimate(rel.Child)
	case *memo.Distinct:
		rows = rowEstimate(rel.Child)
	case *memo.Filter:
		rows = rowEstimate(rel.Child) * FilterSelectivity
	default:
		return
	}
	g.RelProps.SetStats(&stats.Statistic{RowCnt: uint64(math.Min(rows, math.MaxInt64))})
}

// FilterSelectivity is the share of its input GMS's join planner takes a
// filter to keep (memo.defaultFilterSelectivity in v0.20.0).
const FilterSelectivity = 0.85

func rowEstimate(g *memo.ExprGroup) float64 {
	return math.Max(1, float64(g.RelProps.GetStats().RowCount()))
}
