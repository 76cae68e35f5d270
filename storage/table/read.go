package table

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"

	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

// ReadOptions selects what Read returns and how it reads.
type ReadOptions struct {
	// At selects the snapshot; the zero value reads the latest.
	At snapshot.TimeTravel
	// Columns projects the output to these columns, in this order; nil
	// returns every column of the read schema. Only the columns needed for
	// the output and the filter are read from files that are not merged.
	Columns []string
	// Filter selects rows: only rows for which it is TRUE are returned. It
	// is over the columns of the read schema, matched by field id, and
	// prunes manifests, partitions, buckets, files and row groups. nil
	// returns every row.
	Filter predicate.Predicate
	// Limit stops the read after this many rows; 0 reads all. Splits that
	// are not needed to reach it are not planned, and the read stops
	// reading (and closes files) as soon as it has the rows.
	Limit int64
	// Parallelism is the number of splits read at once; 0 means
	// GOMAXPROCS.
	Parallelism int
	// Unordered returns rows in the order workers produce them. By default
	// rows come in plan order (split by split), which is deterministic;
	// unordered reads never wait for a slow split.
	Unordered bool
	// ReadOptimized reads what Paimon's `t$ro` system table reads: of a
	// primary-key table only the files on the highest LSM level, which
	// need no merge, so the rows may miss changes not compacted up there
	// yet. Append tables read as without it.
	ReadOptimized bool
	// WithRowKind reads what Paimon's `t$audit_log` system table reads:
	// each row leads with its change kind ("+I", "-U", "+U", "-D") in a
	// "rowkind" column, and a key whose merge ends in a retraction is
	// returned as that -U/-D row instead of being left out.
	WithRowKind bool
	// WithRowTracking reads what Paimon's `t$row_tracking` system table
	// reads: each row ends with its _ROW_ID and _SEQUENCE_NUMBER (see
	// Plan.withRowTracking). Tables without row-tracking.enabled refuse it.
	WithRowTracking bool
}

// Read pins the snapshot opts.At selects, plans the read of opts.Filter
// and returns an iterator over the matching rows. Rows of a primary-key
// table are merged as Java merges them.
func (t *Table) Read(ctx context.Context, opts ReadOptions) (*Rows, error) {
	plan, err := t.PlanScan(ctx, opts.At, opts.Filter)
	if err != nil {
		return nil, err
	}
	if err := t.resolveFallback(ctx, plan, opts.At, opts.Filter); err != nil {
		return nil, err
	}
	if opts.ReadOptimized {
		if plan, err = plan.readOptimized(); err != nil {
			return nil, err
		}
	}
	if plan.Fallback == nil {
		plan.limitSplits(opts.Limit)
	}
	return t.ExecutePlan(ctx, plan, opts)
}

// limitSplits drops the splits a limit makes unnecessary (see
// scan.Plan.LimitSplits); the plan's splits match the scan's one to one.
func (p *Plan) limitSplits(limit int64) {
	if p.Scan.LimitSplits(limit) > 0 {
		p.Splits = p.Splits[:len(p.Scan.Splits)]
	}
}

// ReadPlan returns an iterator over the rows of a plan.
func (t *Table) ReadPlan(ctx context.Context, plan *Plan, columns []string) (*Rows, error) {
	return t.ExecutePlan(ctx, plan, ReadOptions{Columns: columns})
}

// ExecutePlan reads the splits of a plan with opts' Columns, Limit,
// Parallelism, Unordered, ReadOptimized, WithRowKind and WithRowTracking;
// At and Filter were the plan's to apply.
func (t *Table) ExecutePlan(ctx context.Context, plan *Plan, opts ReadOptions) (*Rows, error) {
	var err error
	if opts.ReadOptimized {
		if plan, err = plan.readOptimized(); err != nil {
			return nil, err
		}
	}
	if opts.WithRowTracking {
		if plan, err = plan.withRowTracking(); err != nil {
			return nil, err
		}
	}
	fields, projection, err := project(plan.Schema, opts.Columns)
	if err != nil {
		return nil, err
	}
	tasks, err := t.tasks(plan, neededColumns(projection), projection, opts)
	if err != nil {
		return nil, err
	}
	if opts.WithRowKind {
		fields = append([]spec.DataField{RowKindField}, fields...)
	}
	parallelism := opts.Parallelism
	if parallelism <= 0 {
		parallelism = runtime.GOMAXPROCS(0)
	}
	rs := &Rows{snapshot: plan.Snapshot, fields: fields, remaining: opts.Limit, batchRows: batchRows}
	if opts.Limit > 0 {
		// A batch never holds more than the limit needs, so a worker hands
		// the rows over (and the read can stop) as soon as it has them.
		rs.batchRows = int(min(opts.Limit, batchRows))
	}
	rs.start(ctx, tasks, min(parallelism, max(len(tasks), 1)), !opts.Unordered)
	return rs, nil
}

// tasks lists the splits of the plan and of its fallback part, each with
// what turns its rows into output rows; the plan's own splits read columns
// (nil for all) and what the filter needs.
func (t *Table) tasks(plan *Plan, columns, projection []int, opts ReadOptions) ([]task, error) {
	main, err := newReader(t, plan, columns)
	if err != nil {
		return nil, err
	}
	main.withRowKind, main.rowTracking = opts.WithRowKind, opts.WithRowTracking
	tasks := make([]task, 0, len(plan.Splits))
	for i := range plan.Splits {
		tasks = append(tasks, task{r: main, split: &plan.Splits[i], projection: projection})
	}
	if plan.Fallback == nil {
		return tasks, nil
	}
	fb, err := newReader(plan.Fallback.Table, plan.Fallback.Plan, nil)
	if err != nil {
		return nil, err
	}
	fb.withRowKind = opts.WithRowKind
	if fb.toOutput, err = fallbackMapping(plan.Fallback, plan); err != nil {
		return nil, err
	}
	// The fallback's rows are filtered again in the main schema: its own
	// plan may have been made without the filter.
	for i := range plan.Fallback.Plan.Splits {
		tasks = append(tasks, task{r: fb, split: &plan.Fallback.Plan.Splits[i], projection: projection,
			outputFilter: plan.Scan.Filter.Full})
	}
	return tasks, nil
}

// neededColumns is nil (every column) without a projection.
func neededColumns(projection []int) []int {
	if projection == nil {
		return nil
	}
	return union(projection)
}

func project(s *spec.TableSchema, columns []string) ([]spec.DataField, []int, error) {
	if columns == nil {
		return s.Fields, nil, nil
	}
	fields := make([]spec.DataField, len(columns))
	projection := make([]int, len(columns))
	for i, name := range columns {
		j := s.FieldIndex(name)
		if j < 0 {
			return nil, nil, fmt.Errorf("unknown column %q", name)
		}
		fields[i], projection[i] = s.Fields[j], j
	}
	if len(projection) == len(s.Fields) && isIdentity(projection) {
		// Every column in order (SELECT *): the rows need no copy.
		return fields, nil, nil
	}
	return fields, projection, nil
}

// Fields are the columns of the returned rows.
func (rs *Rows) Fields() []spec.DataField { return rs.fields }

// Snapshot is the pinned snapshot, nil for a table with none.
func (rs *Rows) Snapshot() *spec.Snapshot { return rs.snapshot }

// errRowsClosed is returned by Next after Close.
var errRowsClosed = errors.New("rows closed")

// ReadAll reads every row; convenient for small tables and tests.
func ReadAll(rs *Rows) ([][]any, error) {
	defer rs.Close()
	var out [][]any
	for {
		row, err := rs.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, row)
	}
}
