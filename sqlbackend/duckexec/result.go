//go:build duckdb_arrow && cgo

package duckexec

import (
	"context"
	"fmt"

	"github.com/lakesql/lakesql/sqlbackend/duckplan"
)

// resultPageRows is how many rows one page of a paged result holds.
// DuckDB's Go driver materializes every result it returns in memory
// outside DuckDB's memory limit, so a result the plan does not bound is
// written to a temporary table, which spills under the limit, and read
// back a page at a time: memory holds one page, whatever the result's
// size.
const resultPageRows = 50_000

// pages reads the rows of one query, directly when the plan bounds them
// to one page, else page by page from the table they were written to.
type pages struct {
	// table holds the result when it is paged; "" when the query ran
	// directly.
	table   string
	ordered bool
	// next is the row id the next page starts at, total the rows of the
	// table.
	next, total int64
}

// pagedResult says whether q's rows go through a result table.
func pagedResult(q *duckplan.Query) bool {
	return q.MaxRows == 0 || q.MaxRows > resultPageRows
}

// openPages starts query and returns the query that reads its first
// page: query itself when the result is not paged. A paged result's
// table is added to the session's tables, which close drops.
func (s *session) openPages(ctx context.Context, q *duckplan.Query, query, table string) (*pages, string, error) {
	p := &pages{ordered: q.Ordered}
	if !pagedResult(q) {
		return p, query, nil
	}
	if _, err := s.conn.ExecContext(ctx, "CREATE TEMP TABLE "+duckplan.QuoteIdent(table)+" AS "+query); err != nil {
		return nil, "", err
	}
	s.tables = append(s.tables, table)
	// The driver reports no rows affected by CREATE TABLE AS.
	if err := s.conn.QueryRowContext(ctx, "SELECT count(*) FROM "+duckplan.QuoteIdent(table)).Scan(&p.total); err != nil {
		return nil, "", err
	}
	p.table = table
	return p, p.page(), nil
}

// more says whether pages remain after the current one.
func (p *pages) more() bool { return p.table != "" && p.next < p.total }

// page returns the query of the next page's rows. A table written from
// an ordered query holds its rows in that order by row id (DuckDB keeps
// an ORDER BY's order on insert whatever preserve_insertion_order says);
// the page's scan may not, so an ordered page is sorted by row id again.
func (p *pages) page() string {
	query := fmt.Sprintf("SELECT * FROM %s WHERE rowid >= %d AND rowid < %d",
		duckplan.QuoteIdent(p.table), p.next, p.next+resultPageRows)
	if p.ordered {
		query += " ORDER BY rowid"
	}
	p.next += resultPageRows
	return query
}
