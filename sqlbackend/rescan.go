package sqlbackend

import (
	"errors"
	"io"
	"strings"
	"sync"

	"github.com/dolthub/go-mysql-server/sql"
)

// GMS runs nested-loop joins and correlated subqueries by building their
// inner side again for every outer row: the inner table is scanned once
// per outer row. A scan of a Paimon table plans the snapshot and opens its
// files, and a table written by one-row INSERTs has a file per row, so a
// 7-table join of sqllogictest's select4 scanned small tables 30,000
// times and ran for minutes where MariaDB takes milliseconds. A table
// scanned a second time in a statement therefore keeps the rows of that
// scan, when they are few, and later scans replay them: the table is
// pinned to one snapshot and its transaction's writes as of the
// statement's start, so every scan of it in the statement returns the
// same rows.

// Bounds on what a rescanned table keeps: past either, the scan is not
// kept and every scan reads again.
const (
	rescanMaxRows   = 100_000
	rescanMaxValues = 1_000_000
)

// rescanSet remembers the scans of one resolved table of one statement,
// shared by the copies GMS and the rewrites make of it; the copies differ
// in projection and pushed filter, which key their scans.
type rescanSet struct {
	mu     sync.Mutex
	byScan map[string]*rescans
}

// rescans remembers the scans of one projection and filter.
type rescans struct {
	mu      sync.Mutex
	started int
	// kept holds the rows of a complete scan once one was recorded.
	kept     []sql.Row
	complete bool
}

// of returns the scans of the table's projection and pushed filter.
func (s *rescanSet) of(t *Table) *rescans {
	key := strings.Join(t.projection, ",") + "|"
	if f := t.filter(); f != nil {
		key += f.String()
	}
	if t.projection == nil {
		key = "*" + key
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.byScan[key]
	if !ok {
		r = &rescans{}
		s.byScan[key] = r
	}
	return r
}

// scanRows returns the rows of the table's scan: replayed from the
// statement's earlier scan when one was kept, else read, and recorded
// when this is a second scan that may be kept.
func (t *Table) scanRows(ctx *sql.Context) (sql.RowIter, error) {
	if t.rescans == nil || !rewritesOn(ctx) {
		return t.scan(ctx)
	}
	r := t.rescans.of(t)
	r.mu.Lock()
	if r.complete {
		kept := r.kept
		r.mu.Unlock()
		return &replayIter{rows: kept}, nil
	}
	r.started++
	record := r.started >= 2
	r.mu.Unlock()
	iter, err := t.scan(ctx)
	if err != nil || !record {
		return iter, err
	}
	return &recordingIter{RowIter: iter, into: r}, nil
}

// recordingIter passes a scan's rows on and keeps them; the rows become
// the table's kept rows when the scan reaches its end within the bounds.
type recordingIter struct {
	sql.RowIter
	into   *rescans
	rows   []sql.Row
	values int
	over   bool
}

func (it *recordingIter) Next(ctx *sql.Context) (sql.Row, error) {
	row, err := it.RowIter.Next(ctx)
	if errors.Is(err, io.EOF) && !it.over {
		it.into.mu.Lock()
		it.into.kept, it.into.complete = it.rows, true
		it.into.mu.Unlock()
	}
	if err != nil || it.over {
		return row, err
	}
	it.values += len(row)
	if len(it.rows) >= rescanMaxRows || it.values > rescanMaxValues {
		it.over, it.rows = true, nil
		return row, nil
	}
	it.rows = append(it.rows, row.Copy())
	return row, nil
}

// replayIter returns kept rows, each as a copy: GMS's operators may reuse
// the rows they are given.
type replayIter struct {
	rows []sql.Row
	pos  int
}

func (it *replayIter) Next(ctx *sql.Context) (sql.Row, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if it.pos >= len(it.rows) {
		return nil, io.EOF
	}
	it.pos++
	return it.rows[it.pos-1].Copy(), nil
}

func (it *replayIter) Close(*sql.Context) error { return nil }
