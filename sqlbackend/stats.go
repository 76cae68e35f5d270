package sqlbackend

import (
	"github.com/dolthub/go-mysql-server/sql"
)

// statsProvider gives go-mysql-server's join planner the row counts of
// lakesql tables, from the pinned snapshot's manifests: the rows of the
// files a pushed filter keeps, or the exact count when the metadata holds
// it (Table.RowCount). GMS's own provider knows only tables that ANALYZE
// TABLE filled, and otherwise counts 0 rows, which its coster takes for 1:
// every join then looks cheapest as a nested loop, however large its inputs
// (a filtered join of two 1M-row tables ran for minutes). Other tables, and
// the column statistics ANALYZE keeps, stay with GMS's provider.
type statsProvider struct{ sql.StatsProvider }

// RowCount implements sql.StatsProvider.
func (p statsProvider) RowCount(ctx *sql.Context, db string, table sql.Table) (uint64, error) {
	if t, ok := table.(*Table); ok {
		if t.rowEstimate != nil {
			return *t.rowEstimate, nil
		}
		n, _, err := t.RowCount(ctx)
		return n, err
	}
	return p.StatsProvider.RowCount(ctx, db, table)
}
