package gmsfix

import (
	"math"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/memo"
	"github.com/dolthub/go-mysql-server/sql/plan"
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
	cost, err := c.Coster.EstimateCost(ctx, n, s)
	if err != nil || !c.enabled(ctx) {
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
