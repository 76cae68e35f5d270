package table

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/lakesql/lakesql/storage/lsm"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/scan"
	"github.com/lakesql/lakesql/storage/schema"
	"github.com/lakesql/lakesql/storage/spec"
)

// reader reads the splits of one plan; it is safe for concurrent use by
// the workers of a read. Everything it derives from the read schema (merge
// engine, key positions, projections) is computed once.
type reader struct {
	table  *Table
	plan   *Plan
	schema *spec.TableSchema
	// residual is the filter rows of this plan must pass; keyFilter its
	// part over the primary keys, which records may be dropped by before a
	// merge.
	residual, keyFilter predicate.Predicate
	// rawColumns are read from files read without merging; mergeColumns
	// from files that are merged, which also need the keys, the sequence
	// fields, and for some engines every column.
	rawColumns, mergeColumns []int
	// Primary-key tables only.
	engine      *lsm.Engine
	keyIdx      []int
	compareKeys lsm.RowComparator
	dvFiles     dvFiles
	// toOutput converts rows to the schema of the read, for a fallback
	// branch whose schema differs; nil when rows are already in it.
	toOutput *schema.RowMapping
	// withRowKind keeps retractions and appends each row's kind after the
	// read schema's columns (see ReadOptions.WithRowKind).
	withRowKind bool
	// rowTracking fills the row-tracking columns that end the read schema
	// (see Plan.withRowTracking).
	rowTracking bool
	// dataEvolution: files may hold some columns of rows others hold too
	// (see openEvolution).
	dataEvolution bool

	mu          sync.Mutex
	projections map[projectionKey]*projection
}

type projectionKey struct {
	schemaID int64
	merge    bool
}

// newReader prepares reading plan's splits for rows that need the read
// columns columns (nil for all) and pass the plan's residual filter.
func newReader(t *Table, plan *Plan, columns []int) (*reader, error) {
	r := &reader{table: t, plan: plan, schema: plan.Schema, projections: map[projectionKey]*projection{},
		residual: plan.Scan.Filter.Residual, keyFilter: plan.Scan.Filter.Key}
	all := allColumns(len(r.schema.Fields))
	if columns == nil {
		columns = all
	}
	r.rawColumns = union(columns, predicate.Columns(r.residual))
	r.mergeColumns = r.rawColumns
	var err error
	if r.dataEvolution, err = r.schema.CoreOptions().DataEvolutionEnabled(); err != nil {
		return nil, err
	}
	if len(r.schema.PrimaryKeys) == 0 {
		return r, nil
	}
	if r.keyIdx, err = fieldPositions(r.schema, r.schema.TrimmedPrimaryKeys()); err != nil {
		return nil, err
	}
	if r.engine, err = lsm.NewEngine(r.schema, spec.CompareValues); err != nil {
		return nil, err
	}
	r.compareKeys = scan.KeyComparator(r.schema)
	if r.mergeColumns, err = mergeColumns(r.schema, r.engine, r.rawColumns, r.keyIdx); err != nil {
		return nil, err
	}
	return r, nil
}

// optionRowKindField takes the row kind from a column.
const optionRowKindField = "rowkind.field"

// mergeColumns are the columns a merge reads: merges that keep stored
// records whole need only the keys and sequence fields besides the
// projection; partial-update and aggregation merges read every column,
// since each field's merge can depend on others (sequence groups, NOT
// NULL checks).
func mergeColumns(s *spec.TableSchema, engine *lsm.Engine, columns, keyIdx []int) ([]int, error) {
	if !keepsStoredRecords(s, engine) {
		return allColumns(len(s.Fields)), nil
	}
	seq, err := fieldPositions(s, s.CoreOptions().SequenceField())
	if err != nil {
		return nil, err
	}
	return union(columns, keyIdx, seq), nil
}

// keepsStoredRecords reports whether the merged record of a key is always
// one of the key's stored records, whole: the deduplicate and first-row
// engines, without a rowkind.field.
func keepsStoredRecords(s *spec.TableSchema, engine *lsm.Engine) bool {
	_, rowKindField := s.Options[optionRowKindField]
	return !rowKindField && (engine.Name() == lsm.EngineDeduplicate || engine.Name() == lsm.EngineFirstRow)
}

func allColumns(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// union returns the sorted distinct positions of the lists.
func union(lists ...[]int) []int {
	out := slices.Concat(lists...)
	slices.Sort(out)
	return slices.Compact(out)
}

func fieldPositions(s *spec.TableSchema, names []string) ([]int, error) {
	out := make([]int, len(names))
	for i, name := range names {
		if out[i] = s.FieldIndex(name); out[i] < 0 {
			return nil, fmt.Errorf("schema %d: %q is not a column", s.ID, name)
		}
	}
	return out, nil
}

func (r *reader) toRead(row []any) ([]any, error) {
	if r.toOutput == nil {
		return row, nil
	}
	return r.toOutput.Apply(row)
}

// projection returns the projection of files written under fileSchema,
// built once per schema.
func (r *reader) projection(fileSchema *spec.TableSchema, merge bool) (*projection, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := projectionKey{fileSchema.ID, merge}
	if p, ok := r.projections[k]; ok {
		return p, nil
	}
	columns := r.rawColumns
	if merge {
		columns = r.mergeColumns
	}
	if r.rowTracking {
		fileSchema = withRowTrackingFields(fileSchema)
	}
	p, err := newProjection(fileSchema, r.schema, columns)
	if err != nil {
		return nil, err
	}
	r.projections[k] = p
	return p, nil
}

// rowSource yields rows as wide as the read schema.
type rowSource interface {
	Next() ([]any, error) // io.EOF at the end
	Close() error
}

// openSplit returns the rows of a split, merged where needed. Rows of a
// read with row kinds merge every split of a primary-key table, as Java's
// forceKeepDelete does: a raw read would lose the kinds of its records.
func (r *reader) openSplit(ctx context.Context, s *Split) (rowSource, error) {
	b := &r.plan.Buckets[s.Bucket]
	if s.Unmerged && r.engine != nil {
		return &chain[spec.DataFileMeta]{items: s.Files, open: func(f *spec.DataFileMeta) (rowSource, error) {
			return r.openUnmerged(ctx, b, f)
		}}, nil
	}
	if r.dataEvolution && !s.RawConvertible {
		rows, err := r.openEvolution(ctx, b, s)
		if err != nil || !r.withRowKind {
			return rows, err
		}
		return insertsOf{rows}, nil
	}
	if r.engine == nil || (s.RawConvertible && !r.withRowKind) {
		var rows rowSource = &chain[spec.DataFileMeta]{items: s.Files, open: func(f *spec.DataFileMeta) (rowSource, error) {
			return r.openRaw(ctx, b, f)
		}}
		if r.withRowKind {
			rows = insertsOf{rows}
		}
		return rows, nil
	}
	ranges, err := scan.KeyRanges(r.schema, r.table.schemaOf(ctx), s.Files)
	if err != nil {
		return nil, err
	}
	sections := lsm.PartitionIntervals(ranges, r.compareKeys)
	return &sectionChain{ctx: ctx, r: r, bucket: b, sections: sections}, nil
}

// openRaw reads a file without merging, skipping row groups the residual
// filter rules out.
func (r *reader) openRaw(ctx context.Context, b *BucketPlan, f *spec.DataFileMeta) (rowSource, error) {
	d, err := r.openDataFile(ctx, b, f)
	if err != nil {
		return nil, err
	}
	if d.indexed, err = r.indexedRows(ctx, b, f, d); err != nil {
		return nil, errors.Join(err, d.Close())
	}
	it, err := r.rawRows(d)
	if err != nil {
		return nil, errors.Join(err, d.Close())
	}
	return it, nil
}

func (r *reader) rawRows(d *dataFile) (*rowIterator, error) {
	p, err := r.projection(d.fileSchema, false)
	if err != nil {
		return nil, err
	}
	ranges, err := r.rowRanges(d, r.residual)
	if err != nil {
		return nil, err
	}
	if d.indexed != nil {
		ranges = withinRows(d, ranges, d.indexed)
	}
	if ranges, err = r.sortedKeyRows(d, ranges, r.residual); err != nil {
		return nil, err
	}
	if ranges, err = r.selectedRows(d, ranges, r.residual, len(p.mapping.FileFields())); err != nil {
		return nil, err
	}
	return d.rows(p, ranges)
}

// openUnmerged reads the records of a file of a primary-key table as they
// were written, each on its own: row groups the residual filter rules out
// are skipped, since no record depends on another.
func (r *reader) openUnmerged(ctx context.Context, b *BucketPlan, f *spec.DataFileMeta) (rowSource, error) {
	records, err := r.openRecords(ctx, b, f, r.residual)
	if err != nil {
		return nil, err
	}
	return &valuesOf{records: records, close: records.Close, withKind: r.withRowKind}, nil
}

// chain reads the rows of items (files, groups of files) one after
// another.
type chain[T any] struct {
	items   []T
	open    func(*T) (rowSource, error)
	current rowSource
}

func (c *chain[T]) Next() ([]any, error) {
	for {
		if c.current == nil {
			if len(c.items) == 0 {
				return nil, io.EOF
			}
			var err error
			if c.current, err = c.open(&c.items[0]); err != nil {
				return nil, err
			}
			c.items = c.items[1:]
		}
		row, err := c.current.Next()
		if err != io.EOF {
			return row, err
		}
		err = c.current.Close()
		c.current = nil
		if err != nil {
			return nil, err
		}
	}
}

func (c *chain[T]) Close() error {
	if c.current == nil {
		return nil
	}
	err := c.current.Close()
	c.current = nil
	return err
}

// valuesOf turns merged records into rows, dropping retractions unless
// withKind keeps them and appends each record's kind to its row.
type valuesOf struct {
	records  lsm.RecordIterator
	close    func() error
	withKind bool
}

func (v *valuesOf) Next() ([]any, error) {
	for {
		kv, ok, err := v.records.Next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, io.EOF
		}
		if v.withKind {
			return append(slices.Clip(kv.Value), kv.Kind), nil
		}
		if !kv.Kind.IsRetract() {
			return kv.Value, nil
		}
	}
}

func (v *valuesOf) Close() error { return v.close() }

// sectionChain merges the sections of a split one after another: sections
// never share a key, so only one section's files are open at a time.
type sectionChain struct {
	ctx      context.Context
	r        *reader
	bucket   *BucketPlan
	sections [][]lsm.SortedRun[*spec.DataFileMeta]
	current  *valuesOf
}

func (s *sectionChain) Next() ([]any, error) {
	for {
		if s.current == nil {
			if len(s.sections) == 0 {
				return nil, io.EOF
			}
			var err error
			if s.current, err = s.openSection(s.sections[0]); err != nil {
				return nil, err
			}
			s.sections = s.sections[1:]
		}
		row, err := s.current.Next()
		if err != io.EOF {
			return row, err
		}
		err = s.current.Close()
		s.current = nil
		if err != nil {
			return nil, err
		}
	}
}

func (s *sectionChain) Close() error {
	if s.current == nil {
		return nil
	}
	err := s.current.Close()
	s.current = nil
	return err
}

// openSection merges the files of a section into its rows.
func (s *sectionChain) openSection(runs []lsm.SortedRun[*spec.DataFileMeta]) (*valuesOf, error) {
	merged, closeAll, err := s.r.mergeSection(runs, func(f *spec.DataFileMeta, groupFilter predicate.Predicate) (recordFile, error) {
		return s.r.openRecords(s.ctx, s.bucket, f, groupFilter)
	})
	if err != nil {
		return nil, err
	}
	return &valuesOf{records: merged, close: closeAll, withKind: s.r.withRowKind}, nil
}

// recordFile is the records of one data file, as a merge reads them.
type recordFile interface {
	lsm.RecordIterator
	Close() error
}

// mergeSection opens every file of a section with open: one concatenated
// iterator per sorted run, merged by key; closeAll closes the files.
// Filters are pushed as MergeFileSplitRead pushes them: a section of one
// run holds each key once, so its row groups are skipped by the whole
// residual filter; with overlapping runs a newer version of a key could
// hide in a skipped group, so only the key filter is pushed, which drops
// every version of a key alike.
func (r *reader) mergeSection(runs []lsm.SortedRun[*spec.DataFileMeta], open func(f *spec.DataFileMeta, groupFilter predicate.Predicate) (recordFile, error)) (merged *lsm.MergeReader, closeAll func() error, err error) {
	groupFilter := r.keyFilter
	if len(runs) == 1 {
		groupFilter = r.residual
	}
	var opened []recordFile
	closeAll = func() error {
		var errs []error
		for _, f := range opened {
			errs = append(errs, f.Close())
		}
		return errors.Join(errs...)
	}
	iters := make([]lsm.RecordIterator, 0, len(runs))
	for _, run := range runs {
		files := make([]lsm.RecordIterator, 0, len(run))
		for _, f := range run {
			records, err := open(f.Payload, groupFilter)
			if err != nil {
				return nil, nil, errors.Join(err, closeAll())
			}
			opened = append(opened, records)
			files = append(files, records)
		}
		iters = append(iters, lsm.Concat(files...))
	}
	if merged, err = r.engine.NewMergeReader(iters, r.compareKeys, r.withRowKind); err != nil {
		return nil, nil, errors.Join(err, closeAll())
	}
	return merged, closeAll, nil
}

func (r *reader) openRecords(ctx context.Context, b *BucketPlan, f *spec.DataFileMeta, groupFilter predicate.Predicate) (*keyValues, error) {
	d, err := r.openDataFile(ctx, b, f)
	if err != nil {
		return nil, err
	}
	kv, err := r.records(d, groupFilter)
	if err != nil {
		return nil, errors.Join(err, d.Close())
	}
	return kv, nil
}

func (r *reader) records(d *dataFile, groupFilter predicate.Predicate) (*keyValues, error) {
	p, err := r.projection(d.fileSchema, true)
	if err != nil {
		return nil, err
	}
	ranges, err := r.rowRanges(d, groupFilter)
	if err != nil {
		return nil, err
	}
	if ranges, err = r.sortedKeyRows(d, ranges, groupFilter); err != nil {
		return nil, err
	}
	// A key-value read also reads the keys, sequence number and row kind.
	if ranges, err = r.selectedRows(d, ranges, groupFilter, len(p.mapping.FileFields())+3); err != nil {
		return nil, err
	}
	var keyFilter predicate.Predicate
	if !isTrue(r.keyFilter) {
		keyFilter = r.keyFilter
	}
	return d.keyValues(p, r.keyIdx, ranges, keyFilter)
}

func isTrue(p predicate.Predicate) bool { return scan.IsTrue(p) }
