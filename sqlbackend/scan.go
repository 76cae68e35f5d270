package sqlbackend

import (
	"errors"
	"io"
	"reflect"
	"sync"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sqlbackend/mysqlerr"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/scan"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// wholeTable is the only GMS partition of a scan: GMS reads partitions one
// after another (go-mysql-server.md §0.3), so splits are read in parallel
// inside the row iterator instead.
type wholeTable struct{}

func (wholeTable) Key() []byte { return []byte("all") }

// Partitions implements sql.Table.
func (t *Table) Partitions(*sql.Context) (sql.PartitionIter, error) {
	return sql.PartitionsToPartitionIter(wholeTable{}), nil
}

// rangeLookup is the partition of an index range lookup: the rows its
// filter selects.
type rangeLookup struct{ filter predicate.Predicate }

func (rangeLookup) Key() []byte { return []byte("lookup") }

// LookupPartitions implements sql.IndexedTable. A pushed filter is already
// the table's (IndexedAccess); ranges, one lookup per outer row of a lookup
// join, travel to PartitionRows in the partition.
func (t *Table) LookupPartitions(ctx *sql.Context, lookup sql.IndexLookup) (sql.PartitionIter, error) {
	ranges, ok := lookup.Ranges.(sql.MySQLRangeCollection)
	if !ok || t.lookupReadsAll {
		return t.Partitions(ctx)
	}
	filter, err := rangesPredicate(ctx, t, lookup.Index, ranges)
	if err != nil {
		return nil, mysqlerr.From(err)
	}
	if keys, ok := t.primaryKeyPoints(ctx, lookup.Index, ranges); ok {
		return sql.PartitionsToPartitionIter(keysPartition{keys: keys, filter: filter}), nil
	}
	return sql.PartitionsToPartitionIter(rangeLookup{filter: filter}), nil
}

// PartitionRows implements sql.Table.
func (t *Table) PartitionRows(ctx *sql.Context, part sql.Partition) (sql.RowIter, error) {
	if k, ok := part.(keysPartition); ok {
		return t.keyRows(ctx, k)
	}
	if r, ok := part.(rangeLookup); ok {
		c := *t
		c.lookup = &pushedLookup{pushdown: planner.Pushdown{Filter: r.filter}}
		return c.scan(ctx)
	}
	return t.scanRows(ctx)
}

// scan reads the rows of the table's lookup.
func (t *Table) scan(ctx *sql.Context) (sql.RowIter, error) {
	if t.readsNothing() {
		return sql.RowsToRowIter(), nil
	}
	plan, err := t.plan(ctx)
	if err != nil {
		return nil, mysqlerr.From(err)
	}
	t.db.backend.opts.Metrics.RecordScan(t.db.name, t.name, plan)
	rows, err := t.t.ExecutePlan(ctx, plan, table.ReadOptions{
		Columns:     t.projection,
		Parallelism: t.db.backend.opts.ReadParallelism,
	})
	if err != nil {
		return nil, mysqlerr.From(err)
	}
	return newRowIter(rows), nil
}

// readsNothing reports a read of a table that had no snapshot and has no
// staged writes either.
func (t *Table) readsNothing() bool { return t.pin.empty() && t.staged.Empty() }

// plan plans the read of the pinned snapshot with the pushed filter,
// reusing the plan EXPLAIN's summary was made from when the lookup has one:
// plans are not modified by reading them.
func (t *Table) plan(ctx *sql.Context) (*table.Plan, error) {
	if t.lookup != nil && t.lookup.plan != nil {
		return t.lookup.plan, nil
	}
	if t.timeTravel {
		return t.t.PlanTimeTravel(ctx, t.pin.timeTravel(), t.filter())
	}
	if t.allLevels {
		return t.t.PlanPinnedAllLevels(ctx, t.pin.snapshotID, t.filter(), t.staged)
	}
	planFor := func() (*table.Plan, error) {
		return t.t.PlanPinned(ctx, t.pin.snapshotID, t.filter(), t.staged)
	}
	if !t.staged.Empty() {
		return planFor()
	}
	return t.plans.plan(t.pin.snapshotID, t.filter(), planFor)
}

// planMemo keeps the last plan a statement made of a table's pinned
// snapshot, by pushed filter: GMS's analysis plans the filter for the row
// estimate (estimateFilteredRows), again for EXPLAIN's summary of the
// lookup, and each plan reads the snapshot, the schema and the manifests.
// A statement's table instances share one memo, which keys plans by
// snapshot and filter; reads with staged changes are not memoized, and
// plans are not modified by reading them. Filters are compared whole
// (reflect.DeepEqual): their text could name two filters alike. A nil
// memo keeps nothing.
type planMemo struct {
	mu       sync.Mutex
	snapshot int64
	filter   predicate.Predicate
	last     *table.Plan
}

func (m *planMemo) plan(snapshot int64, filter predicate.Predicate, planFor func() (*table.Plan, error)) (*table.Plan, error) {
	if m == nil {
		return planFor()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.last != nil && m.snapshot == snapshot && reflect.DeepEqual(m.filter, filter) {
		return m.last, nil
	}
	p, err := planFor()
	if err == nil {
		m.snapshot, m.filter, m.last = snapshot, filter, p
	}
	return p, err
}

// RowCount implements sql.StatisticsTable. The count is exact when the
// metadata alone answers it (no merge, no deletes); GMS then answers
// COUNT(*) without scanning, unless lakesql_planner_rewrites is OFF.
func (t *Table) RowCount(ctx *sql.Context) (uint64, bool, error) {
	if t.readsNothing() {
		return 0, true, nil
	}
	plan, err := t.plan(ctx)
	if err != nil {
		return 0, false, mysqlerr.From(err)
	}
	if plan.Fallback == nil {
		n, err := plan.Scan.CountRows()
		if err == nil {
			return uint64(n), rewritesOn(ctx), nil
		}
		if !errors.Is(err, scan.ErrCannotAnswer) {
			return 0, false, mysqlerr.From(err)
		}
	}
	return uint64(fileRows(plan)), false, nil
}

// DataLength implements sql.StatisticsTable: the bytes of the live data
// files.
func (t *Table) DataLength(ctx *sql.Context) (uint64, error) {
	if t.readsNothing() {
		return 0, nil
	}
	plan, err := t.plan(ctx)
	if err != nil {
		return 0, mysqlerr.From(err)
	}
	var n int64
	for _, b := range plan.Buckets {
		for _, f := range b.Files {
			n += f.FileSize
		}
	}
	return uint64(n), nil
}

func fileRows(plan *table.Plan) int64 {
	var n int64
	for _, b := range plan.Buckets {
		for _, f := range b.Files {
			n += f.RowCount
		}
	}
	return n
}

// rowIter converts storage rows into GMS rows.
type rowIter struct {
	rows  *table.Rows
	types []spec.DataType
}

func newRowIter(rows *table.Rows) *rowIter {
	fields := rows.Fields()
	types := make([]spec.DataType, len(fields))
	for i, f := range fields {
		types[i] = f.Type
	}
	return &rowIter{rows: rows, types: types}
}

// Next implements sql.RowIter.
func (it *rowIter) Next(*sql.Context) (sql.Row, error) {
	r, err := it.rows.Next()
	if err == io.EOF {
		return nil, io.EOF
	}
	if err != nil {
		return nil, mysqlerr.From(err)
	}
	// Rows hands each row to its caller: convert it in place.
	out, err := convertRow(it.types, r, r)
	if err != nil {
		return nil, mysqlerr.From(err)
	}
	return out, nil
}

// Close implements sql.RowIter.
func (it *rowIter) Close(*sql.Context) error { return it.rows.Close() }
