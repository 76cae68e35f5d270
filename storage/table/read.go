package table

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

// ReadOptions selects what Read returns.
type ReadOptions struct {
	// At selects the snapshot; the zero value reads the latest.
	At snapshot.TimeTravel
	// Columns projects the output to these columns, in this order; nil
	// returns every column of the read schema.
	Columns []string
}

// Rows iterates the rows of one pinned snapshot. It is not safe for
// concurrent use. Close releases open files; it is safe to call twice.
type Rows struct {
	// parts are read in order: the plan itself, then its fallback branch.
	parts      []*reader
	snapshot   *spec.Snapshot
	fields     []spec.DataField
	projection []int
	bucket     int
	current    rowSource
	err        error
}

// rowSource yields the rows of one bucket in the read schema.
type rowSource interface {
	Next() ([]any, error) // io.EOF at the end
	Close() error
}

// Read pins the snapshot opts.At selects and returns an iterator over its
// rows. Rows of a primary-key table are merged as Java merges them.
func (t *Table) Read(ctx context.Context, opts ReadOptions) (*Rows, error) {
	plan, err := t.PlanRead(ctx, opts.At)
	if err != nil {
		return nil, err
	}
	if err := t.resolveFallback(ctx, plan, opts.At); err != nil {
		return nil, err
	}
	return t.ReadPlan(ctx, plan, opts.Columns)
}

// ReadPlan returns an iterator over the rows of a plan.
func (t *Table) ReadPlan(ctx context.Context, plan *Plan, columns []string) (*Rows, error) {
	fields, projection, err := project(plan.Schema, columns)
	if err != nil {
		return nil, err
	}
	parts, err := readers(ctx, t, plan)
	if err != nil {
		return nil, err
	}
	return &Rows{parts: parts, snapshot: plan.Snapshot, fields: fields, projection: projection}, nil
}

func readers(ctx context.Context, t *Table, plan *Plan) ([]*reader, error) {
	main, err := newReader(ctx, t, plan)
	if err != nil || plan.Fallback == nil {
		return []*reader{main}, err
	}
	fb, err := newReader(ctx, plan.Fallback.Table, plan.Fallback.Plan)
	if err != nil {
		return nil, err
	}
	if fb.toOutput, err = fallbackMapping(plan.Fallback, plan); err != nil {
		return nil, err
	}
	return []*reader{main, fb}, nil
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
	return fields, projection, nil
}

// Fields are the columns of the returned rows.
func (rs *Rows) Fields() []spec.DataField { return rs.fields }

// Snapshot is the pinned snapshot, nil for a table with none.
func (rs *Rows) Snapshot() *spec.Snapshot { return rs.snapshot }

// Next returns the next row, or io.EOF after the last one. A returned row
// belongs to the caller.
func (rs *Rows) Next() ([]any, error) {
	for rs.err == nil {
		if rs.current == nil && !rs.openNextBucket() {
			break
		}
		row, err := rs.current.Next()
		if err == io.EOF {
			rs.err = rs.current.Close()
			rs.current = nil
			continue
		}
		if err != nil {
			rs.err = err
			break
		}
		if row, rs.err = rs.parts[0].toRead(row); rs.err != nil {
			break
		}
		return rs.applyProjection(row), nil
	}
	if rs.err == nil {
		return nil, io.EOF
	}
	return nil, rs.err
}

// openNextBucket moves to the next bucket, and to the next part when the
// current part has no more buckets.
func (rs *Rows) openNextBucket() bool {
	for len(rs.parts) > 0 {
		buckets := rs.parts[0].buckets()
		if rs.bucket < len(buckets) {
			b := &buckets[rs.bucket]
			rs.bucket++
			rs.current, rs.err = rs.parts[0].openBucket(b)
			return rs.err == nil
		}
		rs.parts, rs.bucket = rs.parts[1:], 0
	}
	return false
}

func (rs *Rows) applyProjection(row []any) []any {
	if rs.projection == nil {
		return row
	}
	out := make([]any, len(rs.projection))
	for i, j := range rs.projection {
		out[i] = row[j]
	}
	return out
}

// Close releases the files of the bucket being read.
func (rs *Rows) Close() error {
	if rs.current == nil {
		return nil
	}
	err := rs.current.Close()
	rs.current = nil
	if rs.err == nil {
		rs.err = errors.New("rows closed")
	}
	return err
}

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
