package sqlbackend

import (
	"errors"
	"io"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/lakesql/lakesql/storage/predicate"
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
// in projection and pushed filter, which key their scans. Most tables are
// scanned once: the first scan is kept aside without a key, whose text
// would cost a point select more than its planning, and later scans are
// compared with it first.
type rescanSet struct {
	mu    sync.Mutex
	first *rescans
	// byScan holds the other scans by the text of their projection and
	// filter; the text of two filters can be alike, so each is compared
	// whole too.
	byScan map[string][]*rescans
}

// rescans remembers the scans of one projection and filter.
type rescans struct {
	projection []string // nil reads every column
	filter     predicate.Predicate
	mu         sync.Mutex
	started    int
	// kept holds the rows of a complete scan once one was recorded.
	kept     []sql.Row
	complete bool
}

// of returns the scans of the table's projection and pushed filter.
func (s *rescanSet) of(t *Table) *rescans {
	filter := t.filter()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.first == nil {
		s.first = &rescans{projection: t.projection, filter: filter}
		return s.first
	}
	if s.first.reads(t.projection, filter) {
		return s.first
	}
	key := scanText(t.projection, filter)
	for _, r := range s.byScan[key] {
		if r.reads(t.projection, filter) {
			return r
		}
	}
	r := &rescans{projection: t.projection, filter: filter}
	if s.byScan == nil {
		s.byScan = map[string][]*rescans{}
	}
	s.byScan[key] = append(s.byScan[key], r)
	return r
}

// reads reports whether the scans are of projection and filter.
func (r *rescans) reads(projection []string, filter predicate.Predicate) bool {
	return (r.projection == nil) == (projection == nil) && slices.Equal(r.projection, projection) &&
		reflect.DeepEqual(r.filter, filter)
}

func scanText(projection []string, filter predicate.Predicate) string {
	text := strings.Join(projection, ",") + "|"
	if filter != nil {
		text += filter.String()
	}
	return text
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
